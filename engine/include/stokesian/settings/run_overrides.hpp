#pragma once
// Command-line values for [run] keys (`stokesian run --dt 0.001 --precision hi=ds,int=f32`),
// applied through the [run] field table like the scenario's own values.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stokesian/core/scenario.hpp"

namespace stokesian::settings {

struct run_override {
    std::string_view key;                                          // a [run] key: "dt", "precision", ...
    std::variant<double, std::uint64_t, bool, std::string> value;  // of the key's type (strings for text keys)
};

// Sets each key in turn, then validates the result (validate_run_settings, origin "command line").
// A text the key does not accept throws input_error naming the option ("--precision"). Setting
// one of a pair of exclusive keys clears the other (time / steps); dt alone keeps the run length in
// tau_s (a length given in steps becomes the same time at the new dt: run length, sampling and
// checkpoints are physics in tau_s). std::invalid_argument for a key the table does not have.
void apply_run_overrides(run_settings& run, const std::vector<run_override>& overrides);

}  // namespace stokesian::settings
