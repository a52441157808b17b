#pragma once
// Tolerance rules (reference_data/checks.toml): for each scenario and observable, how a result is
// compared with its reference and why that tolerance. `reference record` copies the applicable rule
// into the entry; `reference check` applies the copy, so a reference file is self-contained.
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/regression/reference_key.hpp"

namespace stokesian::regression {

enum class tolerance_kind {
    exact,                    // bit for bit (NaN equals NaN)
    absolute,                 // |observed - reference| <= tolerance
    relative,                 // |observed - reference| <= tolerance |reference|
    ci_overlap,               // |observed - reference| <= ci95(observed) + ci95(reference) + tolerance
    band,                     // reference / tolerance <= observed <= reference x tolerance (a factor)
    expected_failure_window,  // a known weakness: the failure happens within `window` (or after the run's end)
    not_before,               // a time that may be NaN (never) or must be >= tolerance (whatever the reference)
};

std::string to_string(tolerance_kind k);
std::optional<tolerance_kind> parse_tolerance_kind(const std::string& name);

struct check_rule {
    std::string id;  // "tetrahedron/cycle.window_period#1" unless given
    std::string scenario, observable;
    // Selectors; empty = any.
    std::vector<std::string> cases, precisions, backend_classes;
    std::vector<double> dts;
    tolerance_kind kind = tolerance_kind::exact;
    double tolerance = 0.0;
    // Arrays over windows: compare only windows that end at least one window before the earlier
    // loss of periodicity of the two runs (what comes after depends on when the motion fell apart).
    bool before_loss = false;
    // Arrays over windows: compare only windows that end by this time (tau_s; NaN: all). For modes
    // whose mirror asymmetry grows to O(a): later windows belong to another orbit.
    double until = std::numeric_limits<double>::quiet_NaN();
    // expected_failure_window: [earliest, latest] time of the known failure (tau_s).
    std::vector<double> window;
    // Compare with this precision mode's entry (same case, dt, integrator, class) instead of this one's.
    std::string against;
    std::string measured_spread;  // what was measured (text)
    std::string derivation;       // why this tolerance (text)

    bool matches(const reference_key& key, const std::string& observable_name) const;
};

struct check_rules {
    std::filesystem::path source;
    std::vector<check_rule> rules;
    // The first rule in file order that matches (nullptr: the observable is not checked).
    const check_rule* find(const reference_key& key, const std::string& observable_name) const;
};

// Reads and validates a rules file; throws input_error naming the file, the rule and the key.
check_rules load_check_rules(const std::filesystem::path& path);
check_rules parse_check_rules(const std::string& text, const std::string& origin);

}  // namespace stokesian::regression
