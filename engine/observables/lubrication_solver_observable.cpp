// The implicit lubrication scheme's solver per sample (core/lubrication_solver.hpp): conjugate-
// gradient iterations, the final relative residual of (I + zeta mu) w = F and the number of
// lubricated pairs of the latest solve, with their extremes. Recorded whenever the scenario uses
// the implicit scheme. A sample always follows at least one step of this process, so the latest
// solve is never one from before a resume: the series continue bit for bit.
#include <algorithm>
#include <limits>

#include "observables_impl.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

class lubrication_solver_observable final : public observable {
public:
    lubrication_solver_observable(double tolerance, std::uint64_t block)
        : tolerance_(tolerance), iterations_(block), residual_(block), pairs_(block) {}

    void sample(const frame& f) override {
        const lubrication_solve_report& r = f.lubrication;
        iterations_.add(f.step, f.time, double(r.iterations));
        residual_.add(f.step, f.time, r.relative_residual);
        pairs_.add(f.step, f.time, double(r.lubricated_pairs));
        ++samples_;
        if (r.solved) {
            ++solved_samples_;
            iteration_sum_ += r.iterations;
            most_iterations_ = std::max<std::uint64_t>(most_iterations_, r.iterations);
            largest_residual_ = std::max(largest_residual_, r.relative_residual);
        }
    }

    void write(result_sink& out) const override {
        write_series(out, "lubrication_solver/iterations", iterations_);
        write_series(out, "lubrication_solver/relative_residual", residual_);
        write_series(out, "lubrication_solver/lubricated_pairs", pairs_);
        out.write_result("lubrication_solver/tolerance", tolerance_,
                         {{"meaning",
                           "convergence criterion: ||F - w - zeta mu w|| <= tolerance ||F||, the true "
                           "residual of the returned w (refined until met, else the run stops), sqrt(u) "
                           "of the working precision (engine/docs/lubrication.md)"}});
        out.write_result("lubrication_solver/most_iterations", double(most_iterations_),
                         {{"meaning", "most conjugate-gradient iterations of a sampled solve"}});
        out.write_result("lubrication_solver/mean_iterations", mean_iterations(),
                         {{"meaning",
                           "mean iterations over the sampled solves (samples without a lubricated pair "
                           "solve nothing and are left out); NaN: none"}});
        out.write_result("lubrication_solver/largest_relative_residual", largest_residual_,
                         {{"meaning",
                           "largest true relative residual ||F - w - zeta mu w|| / ||F|| of a sampled "
                           "solve, recomputed from the returned w"}});
        out.write_result("lubrication_solver/solved_samples", double(solved_samples_),
                         {{"meaning", "samples whose latest velocity evaluation had a lubricated pair"}});
    }

    void summarise(std::map<std::string, double>& summary) const override {
        summary["lubrication_solver_most_iterations"] = double(most_iterations_);
        summary["lubrication_solver_mean_iterations"] = mean_iterations();
        summary["lubrication_solver_largest_relative_residual"] = largest_residual_;
        summary["lubrication_solver_tolerance"] = tolerance_;
        summary["lubrication_solver_solved_samples"] = double(solved_samples_);
    }

    std::string kind() const override { return "lubrication_solver"; }

    void save(saved_state& s) const override {
        iterations_.save(s, "iterations");
        residual_.save(s, "relative_residual");
        pairs_.save(s, "lubricated_pairs");
        s.put_counts("samples_solved_sum_most", {samples_, solved_samples_, iteration_sum_, most_iterations_});
        s.put_real("largest_residual", largest_residual_);
    }

    void restore(const saved_state& s) override {
        const std::vector<std::uint64_t>& counts = s.count_array("samples_solved_sum_most");
        require_length(counts, 4, "samples_solved_sum_most");
        iterations_.restore(s, "iterations");
        residual_.restore(s, "relative_residual");
        pairs_.restore(s, "lubricated_pairs");
        samples_ = counts[0];
        solved_samples_ = counts[1];
        iteration_sum_ = counts[2];
        most_iterations_ = counts[3];
        largest_residual_ = s.real("largest_residual");
    }

private:
    double mean_iterations() const {
        return solved_samples_ ? double(iteration_sum_) / double(solved_samples_)
                               : std::numeric_limits<double>::quiet_NaN();
    }

    double tolerance_;
    decimated_series iterations_, residual_, pairs_;
    std::uint64_t samples_ = 0, solved_samples_ = 0, iteration_sum_ = 0, most_iterations_ = 0;
    double largest_residual_ = 0.0;
};

}  // namespace

std::unique_ptr<observable> make_lubrication_solver_observable(double tolerance, std::uint64_t block) {
    return std::make_unique<lubrication_solver_observable>(tolerance, block);
}

}  // namespace stokesian
