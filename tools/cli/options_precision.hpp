#pragma once
// `--precision LIST` where a command runs several precision modes (docs/reference/cli.md
// "Command-line vocabulary"); one mode is the [run] key's own option (options_run.hpp). Each mode is
// read by run.precision's parser (settings::set_run_key): hi=ds,int=f32 (either order), ds/f32, or
// f64 for hi=f64,int=f64. In a list, ';' separates modes, and so do ',' and spaces between complete
// modes: a hi= item and the int= item next to it are one mode, so "hi=ds,int=f32" stays one mode.
// Keywords: paper (the reference hi=f64,int=f64 and the paper's four modes), all (every mode).
#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/numeric/precision.hpp"

namespace stokesian::cli {

// Each mode once, in the order given; input_error naming `option` for a bad item.
std::vector<precision_mode> parse_precision_list(std::string_view text, const std::string& option);
// Exactly one mode (no keyword, no list).
precision_mode parse_one_precision(std::string_view text, const std::string& option);

// `--precision LIST` (repeatable; the lists add up) into `modes`, replacing its default;
// `default_help` says what applies without it.
CLI::Option* add_precision_list_option(CLI::App& cmd, std::vector<precision_mode>& modes,
                                       const std::string& default_help);

}  // namespace stokesian::cli
