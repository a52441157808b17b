#include "lubrication_flags.hpp"

namespace stokesian::cli {

std::vector<std::string> lubrication_solver_flags(const std::map<std::string, std::string>& run) {
    std::vector<std::string> flags;
    const auto status = run.find("status");
    if (status != run.end() && status->second.starts_with("lubrication solve failed"))
        flags.push_back("lubrication solver: the run stopped on a failed solve (status)");
    return flags;
}

}  // namespace stokesian::cli
