#pragma once
// Values as TOML writes them, for messages and for the resolved configuration.
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian::settings {

// Shortest decimal form that reads back to the same double ("25", "0.1", "1e-06").
std::string number_text(double x);
// "(x, y, z)" with number_text components.
std::string vector_text(vec3<double> v);
// A value as it would be written in TOML: strings in double quotes, floats in their shortest
// round-trip form ("0.1", "40.0", "nan"), arrays as "[ 1.0, 2.0 ]", inline tables as "{ k = v }".
void write_value(std::string& out, const toml::node& node);
// The same, cut to one line of at most about 60 characters, so that messages stay one line.
std::string written(const toml::node& node);
std::string joined(const std::vector<std::string>& words);

}  // namespace stokesian::settings
