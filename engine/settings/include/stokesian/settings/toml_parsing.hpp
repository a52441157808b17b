#pragma once
// Every TOML text the toolkit reads goes through parse_toml: scenario files, suite manifests,
// check rules, and the resolved configuration a result file stores. The text guard first
// (toml_text_guard.hpp: toml++ 3.3 reaches undefined behaviour on some invalid text), then
// toml++. A syntax error is one input_error, "ORIGIN:LINE:COLUMN: TOML syntax error: WHAT".
#include <string>

#include <toml++/toml.h>

namespace stokesian {

toml::table parse_toml(const std::string& text, const std::string& origin);

}  // namespace stokesian
