#include "lubrication_flags.hpp"

#include <cstdio>
#include <cstdlib>

namespace stokesian::cli {

namespace {

// The leading number of a description value ("0.000244141 (true relative residual ...)"), if any.
std::optional<double> leading_number(const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    if (it == m.end() || it->second.empty()) return std::nullopt;
    char* end = nullptr;
    const double x = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str()) return std::nullopt;
    return x;
}

std::string text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", x);
    return buffer;
}

}  // namespace

std::vector<std::string> lubrication_solver_flags(const lubrication_solver_record& r) {
    std::vector<std::string> flags;
    const auto scheme = r.engine.find("lubrication_scheme");
    if (scheme == r.engine.end() || scheme->second != "implicit") return flags;
    const char* consequence = ": velocities not converged (engine/docs/lubrication.md, section 4)";
    // Over every solve of the run. The engine prints both numbers to 6 digits; rounding is
    // monotone, so a residual at or below the tolerance never prints above it.
    const std::optional<double> largest = leading_number(r.engine, "lubrication_largest_relative_residual");
    const std::optional<double> tolerance = leading_number(r.engine, "lubrication_tolerance");
    if (largest && tolerance && *largest > *tolerance)
        flags.push_back("lubrication solver: largest relative residual " + text(*largest) +
                        " of all solves above the tolerance " + text(*tolerance) + consequence);
    if (r.sampled_largest_residual && r.sampled_tolerance && *r.sampled_largest_residual > *r.sampled_tolerance)
        flags.push_back("lubrication solver: largest relative residual " + text(*r.sampled_largest_residual) +
                        " of the sampled solves above the tolerance " + text(*r.sampled_tolerance) + consequence);
    const auto status = r.run.find("status");
    if (status != r.run.end() && status->second.starts_with("lubrication solve failed"))
        flags.push_back("lubrication solver: the run stopped on a failed solve (status)");
    return flags;
}

}  // namespace stokesian::cli
