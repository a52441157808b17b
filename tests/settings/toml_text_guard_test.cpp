// The check of TOML text before toml++ reads it (settings/toml_text_guard.hpp; engine/docs/
// reliability.md, "toml++ 3.3 undefined behaviour"). toml++ 3.3 reaches __builtin_unreachable()
// when it tests some characters beyond ASCII for whitespace; the guard must refuse every text in
// which toml++ would do that, and accept valid TOML with such characters in strings and comments.
// Each refused case below reaches the unreachable point when the guard is bypassed (tried with a copy
// of toml++ whose unreachable point traps), except the three marked "invalid anyway": texts toml++
// refuses before it gets there, which the guard refuses too because it cannot tell them apart
// from ones that would.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "settings/toml_text_guard.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/settings/toml_parsing.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

// U+FE3F, U+00E9 and U+3001: one character of each range of toml++'s whitespace table without a case.
const std::string cases[] = {"\xef\xb8\xbf", "\xc3\xa9", "\xe3\x80\x81"};

struct refusal {
    std::string text;
    std::size_t line, column;
};

}  // namespace

TEST(TomlTextGuard, AcceptsCharactersBeyondAsciiInStringsAndComments) {
    for (const std::string& c : cases) {
        for (const std::string& text : {
                 "name = \"" + c + "\"\n",                                // a basic string
                 "name = '" + c + "'  # " + c + "\n",                     // a literal string, a comment
                 "d = \"\"\"\n" + c + " \"\" " + c + "\"\"\"\n",          // multi-line, two quotes inside
                 "d = '''" + c + "''' \n",                                // multi-line literal
                 "a = [\"" + c + "\", '" + c + "',\n  \"" + c + "\"]\n",  // arrays across lines
                 "t = { \"k\" = \"" + c + "\", b.\"" + c + "\" = 1 }\n",  // inline table, quoted keys
                 "[x.\"" + c + "\"]\n1.\"" + c + "\" = 2\n",              // quoted keys after dots
                 "e = \"\\u00e9 \\\"" + c + "\"\n",                       // after an escaped quote
                 "d = \"\"\"a \\\n   b" + c + "\"\"\"\n",                 // line-ending backslash, then ASCII
                 "t = 1979-05-27 07:32:00 # " + c + "\n",                 // a date with a space
             }) {
            const auto problem = first_unsafe_character(text);
            EXPECT_FALSE(problem) << text << " -> " << problem->what;
        }
    }
}

TEST(TomlTextGuard, RefusesEveryPlaceWhereToml33TestsSuchACharacterForWhitespace) {
    for (const std::string& c : cases) {
        const refusal refusals[] = {
            {c + " = 1\n", 1, 1},                             // a bare key
            {"a = 1 " + c + "\n", 1, 7},                      // after a value
            {"e = 0\"" + c + "\"\n", 1, 7},                   // a quote inside a number
            {"p = [[0.\"" + c + "\"]]\n", 1, 10},             // the same in an array (fuzzing, 2026-11-27)
            {"e = 0=\"" + c + "\"\n", 1, 8},                  // '=' inside a number
            {"e = 0{\"" + c + "\"\n", 1, 8},                  // '{' inside a number
            {"t = 1979-05-27 \"" + c + "\"\n", 1, 17},        // a date, a space: invalid anyway
            {"b = true" + c + "\n", 1, 9},                    // right after a boolean
            {"a = [1,\n 2" + c + "]\n", 2, 3},                // a value on the next line of an array
            {"d = \"\"\"a \\\n  " + c + "\"\"\"\n", 2, 3},    // after a line-ending backslash
            {"d = \"\"\"a \\   " + c + "\"\"\"\n", 1, 14},    // after a backslash and blanks
            {"e = \"\\" + c + "\"\n", 1, 7},                  // an escape of it: invalid anyway
            {std::string("x = \"\0", 6) + c + "\"\n", 1, 6},  // after a NUL byte: invalid anyway
        };
        for (const refusal& r : refusals) {
            const auto problem = first_unsafe_character(r.text);
            ASSERT_TRUE(problem) << r.text;
            EXPECT_EQ(problem->at.line, r.line) << r.text;
            EXPECT_EQ(problem->at.column, r.column) << r.text;
        }
    }
}

// The sweep that would have caught the CI finding of 2026-11-27 at once: one character of each
// such range inserted at every place of valid texts that use every construct the guard follows
// (keys, dotted and quoted keys, tables, arrays of tables, values of every kind, arrays across
// lines, inline tables, every string kind, escapes, line-ending backslashes, comments, dates), then
// the whole loader (parse_toml: the guard, then toml++). Every text must be refused in one
// input_error or read. Under UBSan (ci/test-sanitized, halt_on_error) a hole in the guard is a
// report of toml++'s unreachable point; without it, the test still runs every text through.
TEST(TomlTextGuard, EveryInsertionIntoValidTextsIsRefusedOrReadWithoutUndefinedBehaviour) {
    const std::string constructs = R"(# a comment
a = 0
b.c = -1.5e3
"q".'r' = true
d = 1979-05-27 07:32:00Z
e = inf
s = "basic \" \u00e9"
l = 'literal'
m = """multi \
    line "" x"""
n = '''multi ''x'''
arr = [1, "two", [3.0],
  {k = 'v'},   # c
]
t = { x = 1, y.z = "w", "q" = [] }
[table."sub".'lit']
k = 0x1F
[[array_of_tables]]
k = 2
)";
    std::ifstream scenario(std::string(::stokesian::test_support::project_source_dir) +
                           "/tests/inputs/good/non_ascii_in_strings_and_comments.toml");
    std::stringstream good;
    good << scenario.rdbuf();
    ASSERT_FALSE(good.str().empty());
    std::size_t read = 0, refused = 0;
    for (const std::string& base : {constructs, good.str()})
        for (const std::string& c : cases)
            for (std::size_t at = 0; at <= base.size(); ++at) {
                if (at < base.size() && (static_cast<unsigned char>(base[at]) & 0xC0) == 0x80)
                    continue;  // mid-character
                const std::string text = base.substr(0, at) + c + base.substr(at);
                try {
                    (void)parse_toml(text, "sweep.toml");
                    ++read;
                } catch (const input_error&) {
                    ++refused;
                }
            }
    // Both outcomes occur: inside strings and comments the character is read, elsewhere refused.
    EXPECT_GT(read, 0u);
    EXPECT_GT(refused, 0u);
}
