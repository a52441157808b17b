#pragma once
// Old option spellings, kept for one release (docs/reference/cli.md "Command-line vocabulary"). Each use records
// a note naming the new spelling; main() prints the notes on stderr, one line each, once the
// command has finished, except after bad input (exit 2), whose one error line stands alone.
#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace stokesian::cli {

// Records "OLD is deprecated, use NEW" (once per pair).
void note_deprecated(const std::string& old_spelling, const std::string& new_spelling);
void print_deprecation_notes(std::ostream& out);

// Adds the option `name` with add(name), and each old spelling with add(old) (so the value is read
// and checked alike, and an error names what was typed): listed apart in --help, noted when used,
// not together with the new spelling. Returns the new option.
CLI::Option* add_with_deprecated_aliases(const std::string& name, const std::vector<std::string>& old_spellings,
                                         const std::function<CLI::Option*(const std::string&)>& add);

}  // namespace stokesian::cli
