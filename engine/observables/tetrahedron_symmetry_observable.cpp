// Symmetry residuals of the four-sphere cycle (paper, Section 5 and Fig. 5). With particles
// 1..4 at indices 0..3 the exact motion keeps y1 = y3 = x2 = x4 = 0, x3 = -x1, y4 = -y2,
// z3 = z1 and z4 = z2; every residual below is zero in exact arithmetic.
#include <array>
#include <string>

#include "observables_impl.hpp"
#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

double minimum_image_difference(double a, double b, double edge, bool periodic) {
    double d = a - b;
    if (periodic) d -= edge * std::nearbyint(d / edge);
    return d;
}

class tetrahedron_symmetry_observable final : public observable {
public:
    static constexpr std::array<const char*, 8> names{"y1",          "y3", "x1_plus_x3", "z3_minus_z1",
                                                      "z4_minus_z2", "x2", "x4",         "y2_plus_y4"};

    explicit tetrahedron_symmetry_observable(const box_settings& box, std::uint64_t block) : box_(box) {
        series_.fill(decimated_series(block));
    }

    void sample(const frame& f) override {
        const auto& r = f.position;
        const double lz = box_.edges.z;
        const std::array<double, 8> residual{
            r[0].y,
            r[2].y,
            r[0].x + r[2].x,
            minimum_image_difference(r[2].z, r[0].z, lz, box_.periodic),
            minimum_image_difference(r[3].z, r[1].z, lz, box_.periodic),
            r[1].x,
            r[3].x,
            r[1].y + r[3].y,
        };
        for (std::size_t k = 0; k < names.size(); ++k) series_[k].add(f.step, f.time, residual[k]);
    }

    void write(result_sink& out) const override {
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string base = std::string("symmetry/") + names[k];
            const decimated_series s = write_series(out, base, series_[k]);
            out.write_result(
                base + "_block_max_abs", s.block_max_abs(),
                {{"block_samples", std::to_string(s.block())},
                 {"meaning", "largest |residual| within each block ending at a sample of the time series " + base}});
            out.write_result(base + "_max_abs", s.max_abs());
        }
    }

    void summarise(std::map<std::string, double>& summary) const override {
        double worst = 0.0;
        for (std::size_t k = 0; k < names.size(); ++k) {
            summary[std::string("max_abs_") + names[k]] = series_[k].max_abs();
            worst = std::max(worst, series_[k].max_abs());
        }
        summary["max_abs_symmetry_residual"] = worst;
    }

    std::string kind() const override { return "tetrahedron_symmetry"; }

    void save(saved_state& s) const override {
        for (std::size_t k = 0; k < names.size(); ++k) series_[k].save(s, names[k]);
    }

    void restore(const saved_state& s) override {
        for (std::size_t k = 0; k < names.size(); ++k) series_[k].restore(s, names[k]);
    }

private:
    box_settings box_;
    std::array<decimated_series, 8> series_;
};

}  // namespace

std::unique_ptr<observable> make_tetrahedron_symmetry_observable(const box_settings& box, std::uint64_t block) {
    return std::make_unique<tetrahedron_symmetry_observable>(box, block);
}

}  // namespace stokesian
