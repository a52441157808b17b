// Statistics of the implicit lubrication solves (core/lubrication_solver.hpp), as an engine
// describes them.
#include "stokesian/core/lubrication_solver.hpp"

#include <algorithm>

#include "stokesian/core/number_text.hpp"
namespace stokesian {

void lubrication_solver_statistics::record(const lubrication_solve_report& r) {
    ++evaluations;
    last = r;
    if (!r.solved) return;
    ++solves;
    iterations += r.iterations;
    most_iterations = std::max(most_iterations, r.iterations);
    if (r.refinements > 0) ++refined_solves;
    refinements += r.refinements;
    largest_relative_residual = std::max(largest_relative_residual, r.relative_residual);
}

void lubrication_solver_statistics::describe(std::map<std::string, std::string>& d, const lubrication_settings& s,
                                             double tolerance) const {
    d["lubrication_scheme"] = s.enabled ? std::string(to_string(s.scheme)) : "off";
    if (!s.implicit()) return;
    d["lubrication_solver"] = "conjugate gradients on (mu^-1 + zeta) v = F, preconditioner mu";
    d["lubrication_tolerance"] = short_number(tolerance) + " (true relative residual of (I + zeta mu) w = F)";
    d["lubrication_max_iterations"] = std::to_string(s.max_iterations);
    // Since the engine was built (or restored from a checkpoint).
    d["lubrication_evaluations"] = std::to_string(evaluations);
    d["lubrication_solves"] = std::to_string(solves);
    d["lubrication_iterations_total"] = std::to_string(iterations);
    d["lubrication_iterations_most"] = std::to_string(most_iterations);
    d["lubrication_iterations_mean"] = solves ? short_number(double(iterations) / double(solves)) : "0";
    d["lubrication_refined_solves"] = std::to_string(refined_solves);
    d["lubrication_refinements"] = std::to_string(refinements);
    d["lubrication_largest_relative_residual"] = short_number(largest_relative_residual);
}

}  // namespace stokesian
