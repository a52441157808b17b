#pragma once
// A check of scenario text before toml++ sees it. toml++ 3.3 (Debian 12) reaches
// __builtin_unreachable() (undefined behaviour, found by fuzzing; engine/docs/reliability.md) when
// it tests a character beyond ASCII for whitespace, which happens for such characters outside
// strings and comments, and after a NUL byte anywhere. TOML 1.0 allows neither: characters beyond
// ASCII only inside strings and comments, control characters (other than tab and the line breaks)
// nowhere. The loader reports both itself, as the syntax errors they are.
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
    std::string what;  // "a control character (U+0000)", "a character beyond ASCII outside a string or comment"
};

// The first control character (other than tab, LF, CR) anywhere, or byte >= 0x80 outside strings
// and comments, if any.
std::optional<text_problem> first_unsafe_character(std::string_view text);

}  // namespace stokesian
