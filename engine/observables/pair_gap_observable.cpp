// The gap of a two-particle system against the lubrication law (pair_approach.hpp): s(t), its
// minimum, the local decay rate -d ln s/dt from consecutive samples over the rate the implicit
// solution predicts, and the sign changes of the separation speed (the explicit scheme's
// instability, scenarios/approaching_pairs.toml).
#include <cmath>
#include <limits>

#include "observables_impl.hpp"
#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
// Sign changes beyond this many are counted but their times not stored (a run that oscillates
// every step for 50 million steps must not store them all).
constexpr std::size_t max_stored_sign_changes = 10000;

class pair_gap_observable final : public observable {
public:
    pair_gap_observable(const system_parameters& system, const std::vector<vec3<double>>& forces, std::uint64_t block)
        : system_(system),
          force0_(forces.at(0)),
          force1_(forces.at(1)),
          critical_gap_(explicit_lubrication_critical_gap(system)),
          gap_(block),
          speed_(block),
          observed_(block),
          predicted_(block),
          ratio_(block),
          amplification_(block) {}

    void sample(const frame& f) override {
        const pair_approach_prediction q =
            predict_pair_approach(f.position[0], f.position[1], force0_, force1_, system_);
        const box_geometry<double> box{system_.box.periodic, system_.box.edges};
        const vec3<double> r01 = minimum_image(f.position[0] - f.position[1], box);
        const vec3<double> e = (1.0 / std::sqrt(dot(r01, r01))) * r01;
        const double speed = dot(e, f.velocity[0] - f.velocity[1]);  // w = dr/dt as sampled
        const double s = q.gap;

        gap_.add(f.step, f.time, s);
        speed_.add(f.step, f.time, speed);
        amplification_.add(f.step, f.time, q.amplification);
        if (!(s >= minimum_gap_)) {
            minimum_gap_ = s;
            minimum_gap_time_ = f.time;
        }
        if (std::isnan(crossing_time_) && s < critical_gap_) crossing_time_ = f.time;

        // Local decay rate over the interval from the previous sample: ln s is exact for an
        // exponential gap; the prediction is averaged over the interval's ends (trapezoid rule).
        if (samples_ > 0 && s > 0.0 && previous_gap_ > 0.0 && f.time > previous_time_) {
            const double observed = -(std::log(s) - std::log(previous_gap_)) / (f.time - previous_time_);
            const double predicted = 0.5 * (q.decay_rate + previous_rate_);
            observed_.add(f.step, f.time, observed);
            predicted_.add(f.step, f.time, predicted);
            ratio_.add(f.step, f.time, predicted != 0.0 ? observed / predicted : not_a_number);
        }
        // Sign changes of the separation speed (zeros keep the previous sign).
        if (speed != 0.0) {
            const int sign = speed > 0.0 ? 1 : -1;
            if (last_sign_ != 0 && sign != last_sign_) {
                ++sign_changes_;
                if (sign_change_time_.size() < max_stored_sign_changes) {
                    sign_change_time_.push_back(f.time);
                    sign_change_gap_.push_back(s);
                }
            }
            last_sign_ = sign;
        }
        previous_gap_ = s;
        previous_time_ = f.time;
        previous_rate_ = q.decay_rate;
        ++samples_;
    }

    void write(result_sink& out) const override {
        write_series(out, "pair_gap/gap", gap_);
        write_series(out, "pair_gap/separation_speed", speed_);
        write_series(out, "pair_gap/decay_rate_observed", observed_);
        write_series(out, "pair_gap/decay_rate_predicted", predicted_);
        write_series(out, "pair_gap/decay_rate_ratio", ratio_);
        write_series(out, "pair_gap/explicit_amplification", amplification_);
        out.write_result("pair_gap/minimum_gap", minimum_gap_, {{"meaning", "smallest sampled gap s = r/a - 2"}});
        out.write_result("pair_gap/minimum_gap_time", minimum_gap_time_,
                         {{"meaning", "time of the smallest sampled gap"}});
        out.write_result("pair_gap/critical_gap", critical_gap_,
                         {{"meaning",
                           "gap below which the explicit lubrication scheme is unstable: 2 (mu0 - "
                           "mu_par(r)) zeta(s) = 1 (engine/docs/observables.md); NaN: lubrication off or stable"}});
        out.write_result("pair_gap/critical_gap_crossing_time", crossing_time_,
                         {{"meaning", "first sample with s < critical_gap; NaN: never"}});
        out.write_result("pair_gap/sign_changes", double(sign_changes_),
                         {{"meaning",
                           "sign changes of the sampled separation speed e.(v_0 - v_1) between "
                           "consecutive samples (an even number of steps apart, the explicit scheme's "
                           "step-to-step alternation is aliased: sample every step to see it)"}});
        const std::map<std::string, std::string> stored{
            {"meaning", "samples at which the separation speed had changed sign (the first " +
                            std::to_string(max_stored_sign_changes) + ")"}};
        out.write_result("pair_gap/sign_change_time", sign_change_time_, stored);
        out.write_result("pair_gap/sign_change_gap", sign_change_gap_, stored);
        out.write_result("pair_gap/first_sign_change_time", first_sign_change_time(), {{"meaning", "NaN: none"}});
        out.write_result("pair_gap/gap_at_first_sign_change", gap_at_first_sign_change(), {{"meaning", "NaN: none"}});
    }

    void summarise(std::map<std::string, double>& summary) const override {
        summary["minimum_gap"] = minimum_gap_;
        summary["minimum_gap_time"] = minimum_gap_time_;
        summary["critical_gap"] = critical_gap_;
        summary["separation_speed_sign_changes"] = double(sign_changes_);
        summary["first_sign_change_time"] = first_sign_change_time();
    }

    std::string kind() const override { return "pair_gap"; }

    void save(saved_state& s) const override {
        gap_.save(s, "gap");
        speed_.save(s, "separation_speed");
        observed_.save(s, "decay_rate_observed");
        predicted_.save(s, "decay_rate_predicted");
        ratio_.save(s, "decay_rate_ratio");
        amplification_.save(s, "explicit_amplification");
        s.put_counts("samples_sign_changes", {samples_, sign_changes_});
        s.put_reals("previous", {previous_gap_, previous_time_, previous_rate_});
        s.put_reals("minimum_gap_crossing", {minimum_gap_, minimum_gap_time_, crossing_time_});
        // The last sign as 0 (none yet), 1 (positive) or 2 (negative).
        s.put_count("last_sign", last_sign_ == 0 ? 0 : last_sign_ > 0 ? 1 : 2);
        s.put_reals("sign_change_time", sign_change_time_);
        s.put_reals("sign_change_gap", sign_change_gap_);
    }

    void restore(const saved_state& s) override {
        const std::vector<std::uint64_t>& counters = s.count_array("samples_sign_changes");
        const std::vector<double>& previous = s.real_array("previous");
        const std::vector<double>& minimum = s.real_array("minimum_gap_crossing");
        const std::vector<double>& change_time = s.real_array("sign_change_time");
        require_length(counters, 2, "samples_sign_changes");
        require_length(previous, 3, "previous");
        require_length(minimum, 3, "minimum_gap_crossing");
        require_length(s.real_array("sign_change_gap"), change_time.size(), "sign_change_gap");
        if (change_time.size() > max_stored_sign_changes)
            throw std::invalid_argument("state 'sign_change_time' holds more than " +
                                        std::to_string(max_stored_sign_changes) + " entries");
        const std::uint64_t last_sign = s.count("last_sign");
        if (last_sign > 2)
            throw std::invalid_argument("state 'last_sign' = " + std::to_string(last_sign) + ", expected 0, 1 or 2");
        gap_.restore(s, "gap");
        speed_.restore(s, "separation_speed");
        observed_.restore(s, "decay_rate_observed");
        predicted_.restore(s, "decay_rate_predicted");
        ratio_.restore(s, "decay_rate_ratio");
        amplification_.restore(s, "explicit_amplification");
        samples_ = counters[0];
        sign_changes_ = counters[1];
        previous_gap_ = previous[0];
        previous_time_ = previous[1];
        previous_rate_ = previous[2];
        minimum_gap_ = minimum[0];
        minimum_gap_time_ = minimum[1];
        crossing_time_ = minimum[2];
        last_sign_ = last_sign == 0 ? 0 : last_sign == 1 ? 1 : -1;
        sign_change_time_ = change_time;
        sign_change_gap_ = s.real_array("sign_change_gap");
    }

private:
    double first_sign_change_time() const {
        return sign_change_time_.empty() ? not_a_number : sign_change_time_.front();
    }
    double gap_at_first_sign_change() const {
        return sign_change_gap_.empty() ? not_a_number : sign_change_gap_.front();
    }

    system_parameters system_;
    vec3<double> force0_, force1_;
    double critical_gap_;
    decimated_series gap_, speed_, observed_, predicted_, ratio_, amplification_;
    std::uint64_t samples_ = 0, sign_changes_ = 0;
    double previous_gap_ = 0.0, previous_time_ = 0.0, previous_rate_ = 0.0;
    double minimum_gap_ = not_a_number, minimum_gap_time_ = not_a_number, crossing_time_ = not_a_number;
    int last_sign_ = 0;
    std::vector<double> sign_change_time_, sign_change_gap_;
};

}  // namespace

std::unique_ptr<observable> make_pair_gap_observable(const system_parameters& system,
                                                     const std::vector<vec3<double>>& external_forces,
                                                     std::uint64_t block) {
    return std::make_unique<pair_gap_observable>(system, external_forces, block);
}

}  // namespace stokesian
