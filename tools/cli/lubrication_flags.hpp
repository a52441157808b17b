#pragma once
// What `stokesian analyze` flags about a run's implicit lubrication solves: a run stopped by a
// failed solve (a solve that cannot meet its tolerance stops the run, engine/docs/lubrication.md
// section 4, so a completed run's solves all met it).
#include <map>
#include <string>
#include <vector>

namespace stokesian::cli {

// One line per finding; empty when the run was not stopped by a failed solve.
std::vector<std::string> lubrication_solver_flags(const std::map<std::string, std::string>& run);

}  // namespace stokesian::cli
