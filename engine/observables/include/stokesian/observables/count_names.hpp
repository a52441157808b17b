#pragma once
// The quantities of a run's summary and of /analysis that count something (cycles, windows, checks,
// a fit's degree): the JSON documents write them as integers (io::json_quantity). Stored as doubles
// in the summary and the H5MD file (one type for every result); named here once for every writer.
#include <algorithm>
#include <iterator>
#include <string_view>

namespace stokesian {

// A summary key (`stokesian run --json`, `analyze --json` observables), the last part of an
// /analysis path ("cycle/period_trend/degree": "degree") or of a regression observable's name
// (`reference show --json`: "cycle.periods_found": "periods_found").
inline constexpr std::string_view count_names[] = {
    "cycles",
    "periods_found",
    "regular_cycles",
    "windows",
    "degree",
    "mobility_checks",
    "checks",
    "mobility_failures",
    "failures",
    "estimates",
    "undecided",
    "proven_positive_definite",
    "proven_not_positive_definite",
    "separation_speed_sign_changes",
    "sign_changes",
    "lubrication_solver_most_iterations",
    "most_iterations",
    "lubrication_solver_solved_samples",
    "solved_samples",
};

// Whether `name` (a key, or a path or dotted name whose last part is one) counts something.
inline bool is_count(std::string_view name) {
    const std::size_t separator = name.find_last_of("/.");
    const std::string_view leaf = separator == std::string_view::npos ? name : name.substr(separator + 1);
    return std::find(std::begin(count_names), std::end(count_names), leaf) != std::end(count_names);
}

}  // namespace stokesian
