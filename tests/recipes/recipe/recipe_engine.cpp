// The recipe backend's engine and mobility operator (recipe_backend.hpp): v = mu F by one serial
// all-pairs sum in double (physics/interactions.hpp, hydrodynamic_contribution: the tensor the
// parameters name), and Euler steps r <- r + dt v with the constant external forces.
#include <stdexcept>
#include <string>

#include "stokesian/core/system.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/recipe/recipe_backend.hpp"

namespace stokesian::recipe {

namespace {

std::vector<vec3<double>> all_pairs(const interaction_parameters<double>& p, const std::vector<vec3<double>>& position,
                                    const std::vector<vec3<double>>& force) {
    std::vector<vec3<double>> velocity(position.size(), vec3<double>{0, 0, 0});
    for (std::size_t i = 0; i < position.size(); ++i)
        for (std::size_t j = 0; j < position.size(); ++j)
            velocity[i] = velocity[i] + hydrodynamic_contribution(i == j, position[i], position[j], force[j], p);
    return velocity;
}

class recipe_engine final : public engine {
public:
    recipe_engine(const engine_config& config, const initial_state& state)
        : config_(config), params_(make_interaction_parameters<double>(config.system)), state_(state) {}
    void advance(std::uint64_t steps) override {
        for (std::uint64_t s = 0; s < steps; ++s) {
            velocity_ = all_pairs(params_, state_.positions, state_.external_forces);
            for (std::size_t i = 0; i < size(); ++i)
                state_.positions[i] = state_.positions[i] + config_.dt * velocity_[i];
            ++step_;
        }
    }
    std::uint64_t step() const override { return step_; }
    std::size_t size() const override { return state_.size(); }
    void read_frame(frame& out) const override {
        out = {};
        out.step = step_;
        out.time = double(step_) * config_.dt;
        out.position = state_.positions;
        out.image.assign(size(), {0, 0, 0});
        out.velocity = velocity_.empty() ? std::vector<vec3<double>>(size(), vec3<double>{0, 0, 0}) : velocity_;
        out.force = state_.external_forces;
    }
    engine_description description() const override { return {"recipe", "serial", {}}; }
    void save_state(engine_state&) const override { throw std::logic_error("the recipe backend has no checkpoints"); }
    void restore_state(const engine_state&) override {
        throw std::logic_error("the recipe backend has no checkpoints");
    }

private:
    engine_config config_;
    interaction_parameters<double> params_;
    initial_state state_;
    std::vector<vec3<double>> velocity_;
    std::uint64_t step_ = 0;
};

class recipe_mobility final : public mobility_operator {
public:
    recipe_mobility(const system_parameters& system, const std::vector<vec3<double>>& positions)
        : params_(make_interaction_parameters<double>(system)), position_(positions) {}
    std::size_t particles() const override { return position_.size(); }
    void apply(std::span<const double> force, std::span<double> velocity) override {
        std::vector<vec3<double>> f(particles());
        for (std::size_t i = 0; i < particles(); ++i) f[i] = {force[3 * i], force[3 * i + 1], force[3 * i + 2]};
        const std::vector<vec3<double>> v = all_pairs(params_, position_, f);
        for (std::size_t i = 0; i < particles(); ++i) {
            velocity[3 * i] = v[i].x;
            velocity[3 * i + 1] = v[i].y;
            velocity[3 * i + 2] = v[i].z;
        }
    }
    std::string description() const override { return "recipe serial all-pairs sum in double"; }

private:
    interaction_parameters<double> params_;
    std::vector<vec3<double>> position_;
};

}  // namespace

std::unique_ptr<engine> make_recipe_engine(const engine_config& config, const initial_state& state) {
    return std::make_unique<recipe_engine>(config, state);
}

std::unique_ptr<mobility_operator> make_recipe_mobility_operator(const system_parameters& system,
                                                                 const std::vector<vec3<double>>& positions) {
    return std::make_unique<recipe_mobility>(system, positions);
}

}  // namespace stokesian::recipe
