// Positive definiteness of the mobility matrix along a trajectory (positive_definiteness.hpp),
// checked every `every` samples: the smallest eigenvalue and the Cholesky verdict as time series.
// Each check also gets a verdict of definiteness_verdict.hpp (proof or estimate, at any N: Lanczos
// above the LAPACK limits) as the separate series mobility/verdict; the reference-checked values
// (checks, failures, min_smallest_eigenvalue) are computed exactly as before it.
#include <algorithm>
#include <cmath>
#include <limits>

#include "observables_impl.hpp"
#include "stokesian/observables/definiteness_verdict.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

double verdict_code(const definiteness_verdict& v) {
    switch (v.kind) {
        case verdict_kind::proven_positive_definite: return 1.0;
        case verdict_kind::proven_indefinite: return -1.0;
        case verdict_kind::estimate: return 0.0;
    }
    return not_a_number;
}

class positive_definiteness_observable final : public observable {
public:
    positive_definiteness_observable(const system_parameters& system, std::uint64_t every)
        : system_(system), every_(every) {}

    void sample(const frame& f) override {
        if (samples_++ % every_ != 0) return;
        const definiteness_report r = check_mobility_positive_definiteness(f.position, system_);
        step_.push_back(f.step);
        time_.push_back(f.time);
        eigenvalue_.push_back(r.smallest_eigenvalue);
        // 1: positive definite, 0: not, NaN: undecided (above both LAPACK limits, Gershgorin <= 0).
        success_.push_back(!r.decided() ? not_a_number : r.positive_definite() ? 1.0 : 0.0);
        gershgorin_.push_back(r.gershgorin_lower_bound);
        if (r.eigenvalue_computed && !(r.smallest_eigenvalue >= minimum_eigenvalue_)) {
            minimum_eigenvalue_ = r.smallest_eigenvalue;
            minimum_eigenvalue_time_ = f.time;
        }
        if (!r.decided()) {
            ++undecided_;
        } else if (!r.positive_definite()) {
            ++failures_;
            if (std::isnan(first_failure_time_)) first_failure_time_ = f.time;
        }
        largest_asymmetry_ = std::max(largest_asymmetry_, r.asymmetry);
        verdict_.push_back(verdict_code(decide_positive_definiteness(f.position, system_, verdict_options{})));
    }

    void write(result_sink& out) const override {
        const std::string limits =
            "eigenvalue for N <= " + std::to_string(definiteness_limits{}.eigenvalue_max_particles) +
            ", Cholesky for N <= " + std::to_string(definiteness_limits{}.cholesky_max_particles);
        out.write_time_series("mobility/smallest_eigenvalue", step_, time_, eigenvalue_);
        out.write_time_series("mobility/positive_definite", step_, time_, success_);
        out.write_time_series("mobility/gershgorin_lower_bound", step_, time_, gershgorin_);
        out.write_time_series("mobility/verdict", step_, time_, verdict_);
        const std::map<std::string, std::string> common{
            {"every_samples", std::to_string(every_)},
            {"matrix",
             "dense 3N x 3N mobility in double, from hydrodynamic_contribution() (minimum image, tie "
             "rule), units of mu0"},
            {"limits", limits}};
        auto with = [&](const std::string& meaning) {
            auto attributes = common;
            attributes["meaning"] = meaning;
            return attributes;
        };
        out.write_result("mobility/checks", double(step_.size()), with("number of configurations checked"));
        out.write_result("mobility/failures", double(failures_),
                         with("checks that found the matrix not positive definite (LAPACK dpotrf, or the smallest "
                              "eigenvalue <= 0 where Cholesky was not attempted)"));
        out.write_result("mobility/undecided", double(undecided_),
                         with("checks above both LAPACK limits whose Gershgorin bound is not positive"));
        out.write_result("mobility/first_failure_time", first_failure_time_,
                         with("time of the first failure; NaN: none"));
        out.write_result("mobility/min_smallest_eigenvalue", minimum_eigenvalue_,
                         with("smallest eigenvalue (LAPACK dsyevr) over all checks; NaN: not computed (N above the "
                              "eigenvalue limit)"));
        out.write_result("mobility/min_smallest_eigenvalue_time", minimum_eigenvalue_time_,
                         with("time of the check with the smallest eigenvalue"));
        const auto verdicts = [&](double code) { return double(std::count(verdict_.begin(), verdict_.end(), code)); };
        out.write_result("mobility/proven_not_positive_definite", verdicts(-1.0),
                         with("checks with a proof of indefiniteness: a unit vector with x^T M x + its rounding bound "
                              "< 0 (observables/definiteness_verdict.hpp)"));
        out.write_result("mobility/proven_positive_definite", verdicts(1.0),
                         with("checks with a proof of definiteness: a Cholesky factorisation of M - alpha I that "
                              "completes (floating-point caveat: definiteness_verdict.hpp)"));
        out.write_result("mobility/estimates", verdicts(0.0),
                         with("checks with only an estimate (Lanczos or a failed factorisation without a confirmed "
                              "vector), never a proof"));
        out.write_result("mobility/max_relative_asymmetry", largest_asymmetry_,
                         with("max |mu_ab - mu_ba| / max |mu_ab| over all checks: mu_ij = mu_ji^T to rounding"));
    }

    void summarise(std::map<std::string, double>& summary) const override {
        summary["mobility_checks"] = double(step_.size());
        summary["mobility_failures"] = double(failures_);
        summary["mobility_min_eigenvalue"] = minimum_eigenvalue_;
    }

    std::string kind() const override { return "positive_definiteness"; }

    void save(saved_state& s) const override {
        s.put_count("every", every_);
        s.put_counts("samples_failures_undecided", {samples_, failures_, undecided_});
        s.put_counts("step", step_);
        s.put_reals("time", time_);
        s.put_reals("smallest_eigenvalue", eigenvalue_);
        s.put_reals("positive_definite", success_);
        s.put_reals("gershgorin_lower_bound", gershgorin_);
        s.put_reals("verdict", verdict_);
        s.put_reals("extremes",
                    {minimum_eigenvalue_, minimum_eigenvalue_time_, first_failure_time_, largest_asymmetry_});
    }

    void restore(const saved_state& s) override {
        if (s.count("every") != every_)
            throw std::invalid_argument("state 'every' = " + std::to_string(s.count("every")) +
                                        ", the run checks every " + std::to_string(every_) + " samples");
        const std::vector<std::uint64_t>& counters = s.count_array("samples_failures_undecided");
        const std::vector<std::uint64_t>& step = s.count_array("step");
        const std::vector<double>& extremes = s.real_array("extremes");
        require_length(counters, 3, "samples_failures_undecided");
        require_length(extremes, 4, "extremes");
        for (const char* name :
             {"time", "smallest_eigenvalue", "positive_definite", "gershgorin_lower_bound", "verdict"})
            require_length(s.real_array(name), step.size(), name);
        samples_ = counters[0];
        failures_ = counters[1];
        undecided_ = counters[2];
        step_ = step;
        time_ = s.real_array("time");
        eigenvalue_ = s.real_array("smallest_eigenvalue");
        success_ = s.real_array("positive_definite");
        gershgorin_ = s.real_array("gershgorin_lower_bound");
        verdict_ = s.real_array("verdict");
        minimum_eigenvalue_ = extremes[0];
        minimum_eigenvalue_time_ = extremes[1];
        first_failure_time_ = extremes[2];
        largest_asymmetry_ = extremes[3];
    }

private:
    system_parameters system_;
    std::uint64_t every_;
    std::uint64_t samples_ = 0;
    std::vector<std::uint64_t> step_;
    std::vector<double> time_, eigenvalue_, success_, gershgorin_;
    std::vector<double> verdict_;  // per check: 1 proven positive definite, -1 proven not, 0 estimate
    double minimum_eigenvalue_ = not_a_number, minimum_eigenvalue_time_ = not_a_number;
    double first_failure_time_ = not_a_number;
    double largest_asymmetry_ = 0.0;
    std::uint64_t failures_ = 0, undecided_ = 0;
};

}  // namespace

std::unique_ptr<observable> make_positive_definiteness_observable(const system_parameters& system,
                                                                  std::uint64_t every) {
    return std::make_unique<positive_definiteness_observable>(system, every);
}

}  // namespace stokesian
