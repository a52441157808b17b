// The CPU backend's mobility operator (core/mobility_operator.hpp): the engine's all-pairs HI loop
// (hi_loops.hpp) in double, threaded over targets as the engine is, so mu F here is what a
// hi=f64 engine computes for these positions and forces, bit for bit and for any thread count.
#include <stdexcept>
#include <string>

#include "hi_loops.hpp"
#include "stokesian/cpu/cpu_backend.hpp"
#include "stokesian/physics/tensor_registry.hpp"
#include "thread_pool.hpp"

namespace stokesian::cpu {

namespace {

class cpu_mobility_operator final : public mobility_operator {
public:
    cpu_mobility_operator(const system_parameters& system, const std::vector<vec3<double>>& positions, unsigned threads)
        : params_(make_interaction_parameters<double>(system)), position_(positions), pool_(threads) {}

    std::size_t particles() const override { return position_.size(); }

    void apply(std::span<const double> force, std::span<double> velocity) override {
        const std::size_t n = position_.size();
        if (force.size() != 3 * n || velocity.size() != 3 * n)
            throw std::invalid_argument("mobility operator: vectors of " + std::to_string(force.size()) + " and " +
                                        std::to_string(velocity.size()) + " components for N = " + std::to_string(n));
        // Copied into vectors of vec3 (O(N) against the O(N^2) sum).
        force_.resize(n);
        velocity_.resize(n);
        for (std::size_t i = 0; i < n; ++i) force_[i] = {force[3 * i], force[3 * i + 1], force[3 * i + 2]};
        const std::span<const vec3<double>> f(force_);
        const std::span<vec3<double>> v(velocity_);
        dispatch_tensor(params_.mobility.tensor, [&]<class Tensor>(Tensor) {
            pool_.parallel_for(
                n,
                [&](std::size_t begin, std::size_t end) {
                    mobility_all_pairs<Tensor, double, double>({begin, end}, std::span<const vec3<double>>(position_),
                                                               f, v, params_, [] {});
                },
                64);
        });
        for (std::size_t i = 0; i < n; ++i) {
            velocity[3 * i] = velocity_[i].x;
            velocity[3 * i + 1] = velocity_[i].y;
            velocity[3 * i + 2] = velocity_[i].z;
        }
    }

    std::string description() const override {
        return "cpu all-pairs loop in double, " + std::to_string(pool_.size()) + " threads";
    }

private:
    interaction_parameters<double> params_;
    std::vector<vec3<double>> position_, force_, velocity_;
    thread_pool pool_;
};

}  // namespace

std::unique_ptr<mobility_operator> make_cpu_mobility_operator(const system_parameters& system,
                                                              const std::vector<vec3<double>>& positions,
                                                              unsigned threads) {
    return std::make_unique<cpu_mobility_operator>(system, positions, threads);
}

}  // namespace stokesian::cpu
