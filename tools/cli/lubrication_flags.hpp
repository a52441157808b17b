#pragma once
// What `stokesian analyze` flags about a run's implicit lubrication solves: solves that ended above
// the tolerance (files written before the solver checked the true residual, engine/docs/lubrication.md
// section 4) and runs stopped by a failed solve.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stokesian::cli {

struct lubrication_solver_record {
    std::map<std::string, std::string> run, engine;  // /parameters/run and /parameters/engine attributes
    std::optional<double> sampled_largest_residual;  // /analysis/lubrication_solver/largest_relative_residual
    std::optional<double> sampled_tolerance;         // /analysis/lubrication_solver/tolerance
};

// One line per finding; empty when the solves are converged (or the scheme is not implicit).
std::vector<std::string> lubrication_solver_flags(const lubrication_solver_record& r);

}  // namespace stokesian::cli
