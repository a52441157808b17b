#pragma once
// A check of scenario text before toml++ sees it. toml++ 3.3 (Debian 12) reaches
// __builtin_unreachable() (undefined behaviour, found by fuzzing; engine/docs/reliability.md) when
// it tests some characters beyond ASCII for whitespace: outside strings and comments, after a NUL
// byte, after a quote that opens no string, right after a backslash in a basic string. The first
// three are invalid TOML; the loader reports all as syntax errors, the last with the way around it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace stokesian {

struct text_position {
    std::size_t line = 1, column = 1;  // 1-based; columns count characters (UTF-8 code points)
};

struct text_problem {
    text_position at;
    std::string what;  // "a control character (U+0000) (not allowed there in TOML)", ...
};

// The first control character (other than tab, LF, CR) anywhere, or byte >= 0x80 outside strings
// and comments or right after a backslash in a basic string, if any.
std::optional<text_problem> first_unsafe_character(std::string_view text);

}  // namespace stokesian
