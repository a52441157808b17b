#pragma once
// The JSON documents stokesian writes (--json, check.json, suite-summary.json, study.json, the
// port-check report.json), all through nlohmann-json, the one JSON library: keys in the order they
// are set (ordered_json), integers exact, doubles in nlohmann's shortest form that reads back to the
// same double (round trip exact), NaN and infinities as null, bytes that are not UTF-8 replaced
// (U+FFFD) so that a file name never makes a document unwritable.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace stokesian::io {

using json = nlohmann::ordered_json;

// One document as text, compact (indent < 0) or indented, ending in a newline.
std::string json_text(const json& document, int indent = -1);

// A number stored as text (an HDF5 attribute): an integer when it is one (decimal digits only), a
// double otherwise, null when empty or not a number.
json json_number_from_text(const std::string& text);

// A result named `name` (a summary key or an /analysis path): an integer where it counts something
// (observables/count_names.hpp) and holds a whole number, a double otherwise (NaN: null).
json json_quantity(std::string_view name, double value);

// A map of strings as an object.
json json_object(const std::map<std::string, std::string>& values);

}  // namespace stokesian::io
