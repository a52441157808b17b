#include "toml_value_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace stokesian::settings {

std::string number_text(double x) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&&.
std::string vector_text(vec3<double> v) {
    std::string text = "(";
    text.append(number_text(v.x)).append(", ").append(number_text(v.y)).append(", ").append(number_text(v.z));
    return text.append(")");
}

void write_value(std::string& out, const toml::node& node) {
    if (const auto* s = node.as_string()) {
        out += '"';
        for (const char c : s->get()) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += escaped;
            } else {
                out += c;
            }
        }
        out += '"';
    } else if (const auto* f = node.as_floating_point()) {
        const double x = f->get();
        if (std::isnan(x)) {
            out += "nan";
        } else if (std::isinf(x)) {
            out += x < 0 ? "-inf" : "inf";
        } else {
            const std::string text = number_text(x);
            out += text;
            if (text.find_first_of(".e") == std::string::npos) out += ".0";
        }
    } else if (const auto* i = node.as_integer()) {
        out += std::to_string(i->get());
    } else if (const auto* b = node.as_boolean()) {
        out += b->get() ? "true" : "false";
    } else if (const auto* a = node.as_array()) {
        if (a->empty()) {
            out += "[]";
            return;
        }
        out += "[ ";
        for (std::size_t k = 0; k < a->size(); ++k) {
            if (k > 0) out += ", ";
            write_value(out, *a->get(k));
            if (out.size() > 200) return;  // cut below anyway
        }
        out += " ]";
    } else if (const auto* t = node.as_table()) {
        out += "{ ";
        bool first = true;
        for (const auto& [key, value] : *t) {
            if (!first) out += ", ";
            first = false;
            out.append(key.str()).append(" = ");
            write_value(out, value);
            if (out.size() > 200) return;
        }
        out += first ? "}" : " }";
    } else {
        // Dates and times, as toml++ prints them.
        std::ostringstream stream;
        node.visit([&](const auto& value) { stream << value; });
        out += stream.str();
    }
}

std::string written(const toml::node& node) {
    std::string text;
    write_value(text, node);
    constexpr std::size_t limit = 60;
    if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
    return text;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

}  // namespace stokesian::settings
