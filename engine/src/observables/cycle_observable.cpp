// Period and amplitude of a periodic coordinate (paper, Section 5 and Fig. 4).
#include <cmath>
#include <numeric>

#include "observables_impl.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/observables/extrema.hpp"

namespace stokesian {

namespace {

class cycle_observable final : public observable {
public:
    cycle_observable(observable_settings::cycle_spec spec, box_settings box) : spec_(spec), box_(box) {}

    void sample(const frame& f) override {
        const vec3<double> r = unwrapped_position(f, spec_.particle, box_);
        const double value = spec_.component == 0 ? r.x : spec_.component == 1 ? r.y : r.z;
        finder_.add(f.time, value);
    }

    void write(io::h5md_writer& out) const override {
        const cycle_statistics c = analyse_cycles(finder_.extrema());
        const std::map<std::string, std::string> attrs{
            {"particle", std::to_string(spec_.particle)},
            {"component", std::string(1, "xyz"[spec_.component])},
            {"method", "least-squares parabola through the 5 samples around each discrete extremum"}};
        out.write_result("cycle/maximum_time", c.maximum_time, attrs);
        out.write_result("cycle/maximum_value", c.maximum_value, attrs);
        out.write_result("cycle/minimum_time", c.minimum_time, attrs);
        out.write_result("cycle/minimum_value", c.minimum_value, attrs);
        out.write_result("cycle/period_time", c.period_time, attrs);
        out.write_result("cycle/period", c.period, attrs);
        out.write_result("cycle/amplitude_time", c.amplitude_time, attrs);
        out.write_result("cycle/amplitude", c.amplitude, attrs);
    }

    void summarise(std::map<std::string, double>& summary) const override {
        const cycle_statistics c = analyse_cycles(finder_.extrema());
        summary["cycles"] = static_cast<double>(c.period.size());
        if (!c.period.empty()) {
            summary["period_mean"] = std::accumulate(c.period.begin(), c.period.end(), 0.0) / double(c.period.size());
            summary["period_last"] = c.period.back();
        }
        if (!c.amplitude.empty()) {
            summary["amplitude_mean"] =
                std::accumulate(c.amplitude.begin(), c.amplitude.end(), 0.0) / double(c.amplitude.size());
            summary["amplitude_last"] = c.amplitude.back();
        }
    }

private:
    observable_settings::cycle_spec spec_;
    box_settings box_;
    extremum_finder finder_{2};
};

}  // namespace

std::unique_ptr<observable> make_cycle_observable(observable_settings::cycle_spec spec, const box_settings& box) {
    return std::make_unique<cycle_observable>(spec, box);
}

}  // namespace stokesian
