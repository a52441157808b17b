#include "settings/toml_text_guard.hpp"

#include <cstdio>
#include <string>

namespace stokesian {

namespace {

// A small TOML lexer that only tells strings and comments from the rest: basic "..." and literal
// '...' strings end at their quote or at the end of the line (an unterminated one is toml++'s
// error to report), multi-line """...""" and '''...''' at a run of three or more quotes (up to two
// quotes before the closing three are content), basic strings skip the character after a
// backslash, comments run to the end of the line.
class lexer {
public:
    explicit lexer(std::string_view text) : text_(text) {}

    std::optional<text_problem> first_unsafe() {
        // Control characters first: they derail the lexer below as much as toml++.
        text_position at;
        for (const char c : text_) {
            const auto byte = static_cast<unsigned char>(c);
            if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7F) {
                char code[16];
                std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(byte));
                return text_problem{at, std::string("a control character (") + code + ")"};
            }
            if (c == '\n') {
                ++at.line;
                at.column = 1;
            } else if ((byte & 0xC0) != 0x80) {
                ++at.column;
            }
        }
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '#') {
                skip_to_line_end();
            } else if (c == '"' || c == '\'') {
                if (text_.substr(i_, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''")) {
                    advance(3);
                    skip_multiline(c);
                } else {
                    advance(1);
                    skip_single_line(c);
                }
            } else if (static_cast<unsigned char>(c) >= 0x80) {
                return text_problem{position_, "a character beyond ASCII outside a string or comment"};
            } else {
                advance(1);
            }
        }
        return std::nullopt;
    }

private:
    void advance(std::size_t n) {
        for (; n > 0 && i_ < text_.size(); --n, ++i_) {
            const auto byte = static_cast<unsigned char>(text_[i_]);
            if (byte == '\n') {
                ++position_.line;
                position_.column = 1;
            } else if ((byte & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
                ++position_.column;
            }
        }
    }
    void skip_to_line_end() {
        while (i_ < text_.size() && text_[i_] != '\n') advance(1);
    }
    void skip_single_line(char quote) {
        while (i_ < text_.size() && text_[i_] != '\n') {
            if (quote == '"' && text_[i_] == '\\') {
                advance(2);
                continue;
            }
            const bool closing = text_[i_] == quote;
            advance(1);
            if (closing) return;
        }
    }
    void skip_multiline(char quote) {
        while (i_ < text_.size()) {
            if (quote == '"' && text_[i_] == '\\') {
                advance(2);
                continue;
            }
            if (text_[i_] == quote) {
                std::size_t run = 0;
                while (i_ + run < text_.size() && text_[i_ + run] == quote) ++run;
                advance(run);
                if (run >= 3) return;
                continue;
            }
            advance(1);
        }
    }

    std::string_view text_;
    std::size_t i_ = 0;
    text_position position_;
};

}  // namespace

std::optional<text_problem> first_unsafe_character(std::string_view text) { return lexer(text).first_unsafe(); }

}  // namespace stokesian
