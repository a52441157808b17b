#pragma once
// A command line the parser cannot read, as one line in the house style (README "Command-line
// vocabulary"; engine/docs/reliability.md): the option or command as typed, the nearest valid
// spelling where one is near, and the help to read ("unknown option '--dtt' (did you mean
// '--dt'?); see stokesian run --help"). main() prints it and exits with code 2; every parse error
// of every subcommand goes through it.
#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::cli {

// The line (without "stokesian: ") for the parse error `e` of `app`, after app.parse() threw it.
std::string usage_error_line(CLI::App& app, const CLI::ParseError& e);

// The candidate nearest `typed` (edit distance, a transposition counting one; a unique candidate
// that `typed` begins is near too), or "" when none is near enough to be what was meant.
std::string nearest_spelling(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace stokesian::cli
