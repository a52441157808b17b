#include "stokesian/core/step_count.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "stokesian/core/number_text.hpp"

namespace stokesian {

namespace {
// Shortest text that reads back as the same double ("0.01", "1e-300").
std::string shortest(double x) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, x).ptr;
    return std::string(buffer, end);
}
}  // namespace

std::optional<std::uint64_t> whole_steps(double value, double dt) {
    const double ratio = value / dt;
    if (!std::isfinite(ratio)) return std::nullopt;
    const double k = std::round(ratio);
    if (!(k >= 1.0) || k > double(max_step_count) || !(std::fabs(value - k * dt) <= 1e-9 * std::fabs(value)))
        return std::nullopt;
    return static_cast<std::uint64_t>(k);
}

std::string whole_steps_problem(double value, double dt, const std::string& key, const std::string& dt_key) {
    if (whole_steps(value, dt)) return "";
    const double ratio = value / dt;
    char ratio_text[48];
    std::snprintf(ratio_text, sizeof ratio_text, "%.10g", ratio);
    const std::string ratio_note = " (" + key + " / " + dt_key + " = " + ratio_text + ")";
    if (!(std::round(ratio) <= double(max_step_count)))  // past the maximum, infinite or NaN
        return "expected an integer multiple of " + dt_key + " = " + shortest(dt) + " of at most " +
               max_step_count_text + " steps" + ratio_note;
    return "expected an integer multiple of " + dt_key + " = " + shortest(dt) + ratio_note;
}

std::optional<std::uint64_t> read_step_count(std::string_view text) {
    const auto count = read_count(text);
    if (!count || *count < 1 || *count > max_step_count) return std::nullopt;
    return count;
}

std::optional<std::uint64_t> read_step_count_or_zero(std::string_view text) {
    if (const auto count = read_count(text); count && *count == 0) return count;
    return read_step_count(text);
}

}  // namespace stokesian
