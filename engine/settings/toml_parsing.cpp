#include "stokesian/settings/toml_parsing.hpp"

#include <algorithm>

#include "stokesian/core/errors.hpp"
#include "toml_text_guard.hpp"

namespace stokesian {

namespace {

[[noreturn]] void syntax_error(const std::string& origin, std::size_t line, std::size_t column, std::string what) {
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw input_error(origin + ":" + std::to_string(line) + ":" + std::to_string(column), "", "",
                      "TOML syntax error: " + what);
}

}  // namespace

toml::table parse_toml(const std::string& text, const std::string& origin) {
    if (const auto problem = first_unsafe_character(text))
        syntax_error(origin, problem->at.line, problem->at.column, problem->what);
    try {
        return toml::parse(text, origin);
    } catch (const toml::parse_error& error) {
        const auto& at = error.source().begin;
        syntax_error(origin, at.line, at.column, std::string(error.description()));
    }
}

}  // namespace stokesian
