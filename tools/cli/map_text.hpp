#pragma once
// The text a string map (an engine's description, a file's attributes) holds for a key, or a
// fallback where it holds none: the one lookup of the commands that print such maps.
#include <map>
#include <string>

namespace stokesian::cli {

inline std::string text_or(const std::map<std::string, std::string>& map, const std::string& key,
                           const std::string& fallback = "") {
    const auto found = map.find(key);
    return found == map.end() ? fallback : found->second;
}

}  // namespace stokesian::cli
