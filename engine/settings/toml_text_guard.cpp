#include "toml_text_guard.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace stokesian {

namespace {

constexpr const char* beyond_ascii_outside =
    "a character beyond ASCII outside a string or comment (not allowed there in TOML)";
constexpr const char* beyond_ascii_after_backslash =
    "a character beyond ASCII right after a backslash or a line-ending backslash (toml++ 3.3 cannot read it "
    "there: write it as \\uXXXX)";

// A small TOML lexer that follows toml++'s reading just far enough to know where it may test a
// character for whitespace (engine/docs/reliability.md, "toml++ 3.3 undefined behaviour"):
//   - keys (line start, after '{' or an inline table's ','): quotes open quoted keys;
//   - values (after '=', '[' and an array's ','): a quote, '[' or '{' opens a string, an array or an
//     inline table; anything else begins a bare value (number, date, boolean) that toml++ scans up
//     to a value terminator (blank, line break, ',', ']', '}', '#'), quotes and brackets included;
//     a date followed by one space is scanned on into the time after it;
//   - strings: basic "..." and literal '...' end at their quote or at the end of the line (an
//     unterminated one is toml++'s error), multi-line """...""" and '''...''' at a run of three or
//     more quotes; at a backslash of a basic string toml++ tests what follows for whitespace;
//   - comments run to the end of the line.
// Where the text is not TOML, toml++ stops at the first error; the lexer only has to agree with it
// up to there.
class lexer {
public:
    explicit lexer(std::string_view text) : text_(text) {}

    std::optional<text_problem> first_unsafe() {
        if (auto problem = first_control_character()) return problem;
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '#') {
                while (i_ < text_.size() && text_[i_] != '\n') advance(1);
            } else if (c == '\n') {
                if (containers_.empty()) in_value_ = false;  // a new line of the document: a key
                advance(1);
            } else if (blank(c)) {
                advance(1);
            } else if (beyond_ascii(c)) {
                return text_problem{position_, beyond_ascii_outside};
            } else if (c == '"' || c == '\'') {
                if (auto problem = skip_string(c)) return problem;
            } else if (in_value_) {
                if (auto problem = value_character(c)) return problem;
            } else {
                key_character(c);
            }
        }
        return std::nullopt;
    }

private:
    static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
    static bool beyond_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

    // Control characters first: they derail the lexer below as much as toml++.
    // (A pass of its own, then back to the start: the lexer proper begins where toml++ does.)
    std::optional<text_problem> first_control_character() {
        for (; i_ < text_.size(); advance(1)) {
            const auto byte = static_cast<unsigned char>(text_[i_]);
            if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F) {
                char code[16];
                std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(byte));
                return text_problem{position_,
                                    std::string("a control character (") + code + ") (not allowed there in TOML)"};
            }
        }
        i_ = 0;
        position_ = {};
        return std::nullopt;
    }

    void key_character(char c) {
        if (c == '=') in_value_ = true;
        if (c == '}') close();  // an empty inline table, or one after a trailing ','
        advance(1);
    }

    std::optional<text_problem> value_character(char c) {
        if (c == '[' || c == '{') {
            containers_.push_back(c);
            in_value_ = c == '[';
        } else if (c == ',') {
            in_value_ = containers_.empty() || containers_.back() == '[';
        } else if (c == ']' || c == '}') {
            close();
        } else {
            return skip_bare_value();
        }
        advance(1);
        return std::nullopt;
    }

    // After a closing bracket: the value of the enclosing array or inline table (or line) is done.
    void close() {
        if (!containers_.empty()) containers_.pop_back();
        in_value_ = true;
    }

    static bool value_terminator(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}' || c == '#';
    }

    std::optional<text_problem> skip_bare_value() {
        const std::size_t begin = i_;
        bool date_like = true;  // digits, '-' and '_' only, starting with a digit
        while (i_ < text_.size() && !value_terminator(text_[i_])) {
            const char c = text_[i_];
            if (beyond_ascii(c)) return text_problem{position_, beyond_ascii_outside};
            date_like = date_like && ((c >= '0' && c <= '9') || (i_ > begin && (c == '-' || c == '_')));
            advance(1);
        }
        // "1979-05-27 07:32:00": toml++ reads on past one space after a date.
        if (date_like && i_ + 1 < text_.size() && text_[i_] == ' ' && !value_terminator(text_[i_ + 1])) {
            advance(1);
            return skip_bare_value();
        }
        return std::nullopt;
    }

    std::optional<text_problem> skip_string(char quote) {
        const bool multiline = text_.substr(i_, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''");
        advance(multiline ? 3 : 1);
        while (i_ < text_.size() && (multiline || text_[i_] != '\n')) {
            if (quote == '"' && text_[i_] == '\\') {
                if (auto problem = skip_escape(multiline)) return problem;
                continue;
            }
            if (text_[i_] != quote) {
                advance(1);
                continue;
            }
            std::size_t run = 1;
            if (multiline)
                while (i_ + run < text_.size() && text_[i_ + run] == quote) ++run;
            advance(run);
            if (!multiline || run >= 3) break;  // up to two quotes before the closing three are content
        }
        return std::nullopt;
    }

    // At a backslash in a basic string toml++ tests what follows for whitespace (a line-ending
    // backslash in a multi-line string skips blanks and line breaks up to the next character).
    // The character it lands on must be ASCII; one beyond ASCII there is valid TOML, but the
    // reader would reach undefined behaviour, so it is refused with the way around it.
    std::optional<text_problem> skip_escape(bool multiline) {
        advance(1);  // the backslash
        const std::size_t after_backslash = i_;
        const auto at = [&](std::string_view these) {
            return i_ < text_.size() && these.find(text_[i_]) != these.npos;
        };
        if (multiline) {
            while (at(" \t")) advance(1);
            if (at("\r\n"))
                while (at(" \t\r\n")) advance(1);
        }
        if (i_ < text_.size() && beyond_ascii(text_[i_])) return text_problem{position_, beyond_ascii_after_backslash};
        // The escaped character: an escaped quote does not close the string (a line break does).
        if (i_ == after_backslash && !at("\n")) advance(1);
        return std::nullopt;
    }

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

    std::string_view text_;
    std::size_t i_ = 0;
    text_position position_;
    bool in_value_ = false;         // reading a value (else a key, a table header or nothing yet)
    std::vector<char> containers_;  // the open arrays '[' and inline tables '{' of the current value
};

}  // namespace

std::optional<text_problem> first_unsafe_character(std::string_view text) { return lexer(text).first_unsafe(); }

}  // namespace stokesian
