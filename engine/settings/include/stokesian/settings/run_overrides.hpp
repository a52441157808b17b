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
    bool flag_value = true;         // the value a flag sets
    std::string description;        // the table's help, else its doc as plain text
    std::string help;               // the description, then which key it overrides and its default
    std::string_view excludes;      // the option of the key this one replaces ("--time" for --steps), or empty
    std::string default_text;       // the table's default as plain text ("cpu", "auto", "none"); empty: required
    bool default_is_value = false;  // default_text is a value of the key (`"cpu"`), not words ("none")
};

// Every [run] key with a command-line spelling, in table order.
std::vector<run_option> run_options();
// The option of `key` (std::invalid_argument for a key without one).
run_option run_option_of(std::string_view key);

// Sets the text key `key` (backend, precision, hi_kernel, devices, integrator) from `text` by the
// parser the scenario file reads it with (the key's entry in the run table): one parser per key
// for run.KEY, --KEY and the items of a command's list of them (bench fcc --backend cpu,cuda).
// Throws std::invalid_argument saying what the key expects; std::logic_error for a key that is not
// text.
void set_run_key(run_settings& run, std::string_view key, const std::string& text);

// Sets each key in turn, then validates the result (validate_run_settings, origin "command line").
// A text the key does not accept throws input_error naming the option ("--precision"). Setting
// one of a pair of exclusive keys clears the other (time / steps); dt alone keeps the run length in
// tau_s (a length given in steps becomes the same time at the new dt: run length, sampling and
// checkpoints are physics in tau_s). std::invalid_argument for a key the table does not have.
void apply_run_overrides(run_settings& run, const std::vector<run_override>& overrides);

}  // namespace stokesian::settings
