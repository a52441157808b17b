// The H5MD author name (stokesian/io/provenance.hpp): chosen, then checked, because it is stored
// as a fixed-length UTF-8 string that other programs (h5py, MDAnalysis, pyh5md) decode.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"

namespace stokesian::io {

namespace {

constexpr const char* author_variable = "STOKESIAN_AUTHOR";

// The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode 15,
// table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or nothing.
std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t length = 1;
        unsigned char second_low = 0x80, second_high = 0xBF;  // the range allowed for the second byte
        if (lead < 0x80) {
            ++i;
            continue;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) second_low = 0xA0;   // overlong below U+0800
            if (lead == 0xED) second_high = 0x9F;  // surrogates U+D800..U+DFFF
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) second_low = 0x90;   // overlong below U+10000
            if (lead == 0xF4) second_high = 0x8F;  // above U+10FFFF
        } else {
            return i;
        }
        if (i + length > text.size()) return i;
        for (std::size_t k = 1; k < length; ++k) {
            const auto byte = static_cast<unsigned char>(text[i + k]);
            const unsigned char low = k == 1 ? second_low : 0x80, high = k == 1 ? second_high : 0xBF;
            if (byte < low || byte > high) return i;
        }
        i += length;
    }
    return std::nullopt;
}

// What is wrong with `name` as an author name, or nothing.
std::optional<std::string> author_problem(std::string_view name) {
    if (name.empty()) return "is empty (expected a name)";
    if (name.size() > max_author_bytes)
        return "is " + std::to_string(name.size()) + " bytes long, at most " + std::to_string(max_author_bytes) +
               " allowed (a name)";
    char where[80];
    if (const auto at = first_invalid_utf8(name)) {
        std::snprintf(where, sizeof where, "byte 0x%02X at offset %zu",
                      static_cast<unsigned>(static_cast<unsigned char>(name[*at])), *at);
        return std::string("is not valid UTF-8 (") + where + ")";
    }
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto byte = static_cast<unsigned char>(name[i]);
        if (byte < 0x20 || byte == 0x7F) {
            std::snprintf(where, sizeof where, "U+%04X at offset %zu", static_cast<unsigned>(byte), i);
            return std::string("contains a control character (") + where + "): expected one line of text";
        }
    }
    return std::nullopt;
}

}  // namespace

std::string h5md_author(const std::optional<std::string>& given, const std::string& scenario_author) {
    if (given) {
        if (const auto problem = author_problem(*given)) throw input_error("command line", "--author", "", *problem);
        return *given;
    }
    if (const char* variable = std::getenv(author_variable)) {
        if (const auto problem = author_problem(variable))
            throw input_error("environment", author_variable, "", *problem);
        return variable;
    }
    // Checked by the scenario reader (settings/scenario_table.cpp); TOML strings are UTF-8.
    if (!scenario_author.empty() && !author_problem(scenario_author)) return scenario_author;
    const std::string account = user_name();
    return author_problem(account) ? "unknown" : account;
}

}  // namespace stokesian::io
