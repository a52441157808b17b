#pragma once
// The [run] keys as command-line options (docs/reference/cli.md, "stokesian run"): every key of the run
// field table that has a command-line spelling (engine/settings/run_table.cpp, `cli`;
// settings::run_options()) becomes an option of one CLI11 option group, with the table's help, and
// the values given become settings::run_overrides. A key given a spelling in the table is an option
// of every command that takes the group, with no edit here; its value is checked as it is read by
// the key's one parser (settings::set_run_key), the scenario file's. --backend, --precision,
// --hi-kernel and --devices are these options wherever a command takes them; a command that runs
// several takes a list of them (add_run_key_list_option), each item read by the same parser.
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/settings/run_overrides.hpp"

namespace stokesian::cli {

class run_key_options;

// Adds the option group "run keys" to `cmd`, described by `description`: the keys in `keys` (every
// key with a spelling when empty; std::logic_error for one without), each an option with the
// table's help; two keys that replace each other (time, steps) are exclusive options. Keep the
// result until the command runs.
std::shared_ptr<const run_key_options> add_run_key_options(CLI::App& cmd, const std::string& description,
                                                           const std::vector<std::string_view>& keys = {});

// `--KEY LIST` for the text key `key` (backend, hi_kernel): comma-separated or given again, the
// first use replacing the default in `items`, each item checked by the key's parser and kept once.
// The option's name and help are the table's; `default_help` says what applies without it.
CLI::Option* add_run_key_list_option(CLI::App& cmd, std::string_view key, std::vector<std::string>& items,
                                     const std::string& default_help);

class run_key_options {
public:
    // The values given, in table order, for settings::apply_run_overrides. A step count that is not
    // digits from 1 to 2^53 throws input_error naming the option (step_count_option).
    std::vector<settings::run_override> overrides() const;
    // The value of a number key, if given (a command that uses it otherwise than as an override).
    std::optional<double> number(std::string_view key) const;
    // The text of a text key, if given (checked by its parser).
    std::optional<std::string> text(std::string_view key) const;

private:
    struct slot {
        settings::run_option spec;
        std::optional<double> number;
        std::optional<std::string> text;
        bool flag = false;
    };
    std::vector<std::unique_ptr<slot>> slots_;  // the options write into them: stable addresses

    friend std::shared_ptr<const run_key_options> add_run_key_options(CLI::App& cmd, const std::string& description,
                                                                      const std::vector<std::string_view>& keys);
};

}  // namespace stokesian::cli
