// Mean velocity and velocity spread over the particles, per sample (velocity_spread.hpp): the
// fcc sedimentation observable (scenarios/fcc_sedimentation.toml).
#include <cmath>

#include "observables_impl.hpp"
#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/result_sink.hpp"
#include "stokesian/observables/velocity_spread.hpp"

namespace stokesian {

namespace {

class velocity_spread_observable final : public observable {
public:
    explicit velocity_spread_observable(std::uint64_t block)
        : mean_x_(block), mean_y_(block), mean_z_(block), max_(block), rms_(block) {}

    void sample(const frame& f) override {
        const velocity_spread s = compute_velocity_spread(f.velocity);
        mean_x_.add(f.step, f.time, s.mean.x);
        mean_y_.add(f.step, f.time, s.mean.y);
        mean_z_.add(f.step, f.time, s.mean.z);
        max_.add(f.step, f.time, s.max_deviation);
        rms_.add(f.step, f.time, s.rms_deviation);
        if (samples_++ == 0) initial_ = s;
        final_ = s;
    }

    void write(result_sink& out) const override {
        write_series(out, "velocity_spread/mean_velocity_x", mean_x_);
        write_series(out, "velocity_spread/mean_velocity_y", mean_y_);
        write_series(out, "velocity_spread/mean_velocity_z", mean_z_);
        write_series(out, "velocity_spread/max_deviation", max_);
        write_series(out, "velocity_spread/rms_deviation", rms_);
        const std::string max_meaning = "max_i |v_i - <v>| (units mu0 F)";
        const std::string rms_meaning = "sqrt(<|v_i - <v>|^2>) (units mu0 F)";
        out.write_result("velocity_spread/initial_max_deviation", initial_.max_deviation,
                         {{"meaning", max_meaning + " at the first sample (a perfect lattice: pure rounding)"}});
        out.write_result("velocity_spread/initial_rms_deviation", initial_.rms_deviation,
                         {{"meaning", rms_meaning + " at the first sample"}});
        out.write_result("velocity_spread/final_max_deviation", final_.max_deviation,
                         {{"meaning", max_meaning + " at the last sample"}});
        out.write_result("velocity_spread/final_rms_deviation", final_.rms_deviation,
                         {{"meaning", rms_meaning + " at the last sample"}});
        out.write_result("velocity_spread/largest_max_deviation", max_.max_abs(),
                         {{"meaning", "largest " + max_meaning + " over all samples"}});
        out.write_result("velocity_spread/initial_mean_velocity_z", initial_.mean.z,
                         {{"meaning", "<v_z> at the first sample"}});
        out.write_result("velocity_spread/final_mean_velocity_z", final_.mean.z,
                         {{"meaning", "<v_z> at the last sample"}});
    }

    void summarise(std::map<std::string, double>& summary) const override {
        summary["velocity_spread_initial_max"] = initial_.max_deviation;
        summary["velocity_spread_initial_rms"] = initial_.rms_deviation;
        summary["velocity_spread_final_max"] = final_.max_deviation;
        summary["velocity_spread_largest_max"] = max_.max_abs();
    }

    std::string kind() const override { return "velocity_spread"; }

    void save(saved_state& s) const override {
        mean_x_.save(s, "mean_velocity_x");
        mean_y_.save(s, "mean_velocity_y");
        mean_z_.save(s, "mean_velocity_z");
        max_.save(s, "max_deviation");
        rms_.save(s, "rms_deviation");
        s.put_count("samples", samples_);
        s.put_reals("initial", words(initial_));
        s.put_reals("final", words(final_));
    }

    void restore(const saved_state& s) override {
        const std::vector<double>& initial = s.real_array("initial");
        const std::vector<double>& last = s.real_array("final");
        require_length(initial, 5, "initial");
        require_length(last, 5, "final");
        mean_x_.restore(s, "mean_velocity_x");
        mean_y_.restore(s, "mean_velocity_y");
        mean_z_.restore(s, "mean_velocity_z");
        max_.restore(s, "max_deviation");
        rms_.restore(s, "rms_deviation");
        samples_ = s.count("samples");
        initial_ = from_words(initial);
        final_ = from_words(last);
    }

private:
    static std::vector<double> words(const velocity_spread& v) {
        return {v.mean.x, v.mean.y, v.mean.z, v.max_deviation, v.rms_deviation};
    }
    static velocity_spread from_words(const std::vector<double>& w) {
        velocity_spread v;
        v.mean = {w[0], w[1], w[2]};
        v.max_deviation = w[3];
        v.rms_deviation = w[4];
        return v;
    }

    decimated_series mean_x_, mean_y_, mean_z_, max_, rms_;
    std::uint64_t samples_ = 0;
    velocity_spread initial_, final_;
};

}  // namespace

std::unique_ptr<observable> make_velocity_spread_observable(std::uint64_t block) {
    return std::make_unique<velocity_spread_observable>(block);
}

}  // namespace stokesian
