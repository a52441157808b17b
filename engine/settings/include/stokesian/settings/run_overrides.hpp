#pragma once
// Command-line values for [run] keys (`stokesian run --dt 0.001 --precision hi=ds,int=f32`),
// applied through the [run] field table like the scenario's own values; the options themselves come
// from the same table (run_options()).
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

// A [run] key that has a command-line spelling in the field table (engine/settings/run_table.cpp,
// `cli`): what the command line needs to offer it as an option (tools/cli/options_run.hpp).
struct run_option {
    enum class kind : std::uint8_t {
        number,      // a double: --dt 0.01
        step_count,  // a whole number of steps, digits only: --steps 100
        text,        // a string or a text member: --integrator heun
        flag,        // a boolean: present sets it (false where the spelling is negated: --no-trajectory)
    };
    std::string_view key;     // "steps"
    std::string_view option;  // "--steps"
    kind type = kind::text;
    bool flag_value = true;     // the value a flag sets
    std::string help;           // the table's help, else its doc as plain text; says which key it overrides
    std::string_view excludes;  // the option of the key this one replaces ("--time" for --steps), or empty
};

// Every [run] key with a command-line spelling, in table order.
std::vector<run_option> run_options();

// Sets each key in turn, then validates the result (validate_run_settings, origin "command line").
// A text the key does not accept throws input_error naming the option ("--precision"). Setting
// one of a pair of exclusive keys clears the other (time / steps); dt alone keeps the run length in
// tau_s (a length given in steps becomes the same time at the new dt: run length, sampling and
// checkpoints are physics in tau_s). std::invalid_argument for a key the table does not have.
void apply_run_overrides(run_settings& run, const std::vector<run_override>& overrides);

}  // namespace stokesian::settings
