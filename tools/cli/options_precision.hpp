#pragma once
// The precision option family: `--precision` takes one mode, or, where a command runs several, a
// list (docs/reference/cli.md "Command-line vocabulary"). A mode is spelled hi=ds,int=f32 (either order), ds/f32,
// or f64 for hi=f64,int=f64. In a list, ';' separates modes, and so do ',' and spaces between
// complete modes: a hi= item and the int= item next to it are one mode, so "hi=ds,int=f32" stays
// one mode. Keywords: paper (the reference hi=f64,int=f64 and the paper's four modes), all (all
// nine).
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

// `--precision MODE`, stored as the mode's canonical text ("hi=ds,int=f32") in `mode_text`: the
// override of a scenario's run.precision. `default_help` says what applies without it.
CLI::Option* add_precision_option(CLI::App& cmd, std::string& mode_text, const std::string& default_help);

struct precision_list_spec {
    std::string default_help;              // what applies without the option
    std::vector<std::string> old_options;  // deprecated spellings of the option (--modes, --precisions)
    // What the keyword 'all' meant in this command before it meant all nine modes (empty: nothing
    // else): still meant for one release, with a deprecation note that says 'paper'.
    std::vector<precision_mode> former_all;
    bool old_options_take_several = false;  // an old spelling read several values after it (study --modes)
};

// `--precision LIST` (repeatable; the lists add up) into `modes`, replacing its default.
CLI::Option* add_precision_list_option(CLI::App& cmd, std::vector<precision_mode>& modes,
                                       const precision_list_spec& spec);

}  // namespace stokesian::cli
