#include "field_writer.hpp"

#include <toml++/toml.h>

#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {
std::string float_text(double x) {
    std::string text;
    write_value(text, toml::value<double>(x));
    return text;
}
std::string vector_literal(vec3<double> v) {
    std::string text = "[";
    return text.append(float_text(v.x))
        .append(", ")
        .append(float_text(v.y))
        .append(", ")
        .append(float_text(v.z))
        .append("]");
}
}  // namespace

void toml_writer::section(const std::string& name) {
    if (!text_.empty()) text_ += '\n';
    text_ += "[" + name + "]\n";
}
void toml_writer::number(std::string_view key, double x) { line(key, float_text(x)); }
void toml_writer::integer(std::string_view key, std::uint64_t x) { line(key, std::to_string(x)); }
void toml_writer::boolean(std::string_view key, bool x) { line(key, x ? "true" : "false"); }
void toml_writer::string(std::string_view key, const std::string& x) {
    std::string quoted;
    write_value(quoted, toml::value<std::string>(x));
    line(key, quoted);
}
void toml_writer::vector(std::string_view key, vec3<double> v) { line(key, vector_literal(v)); }
void toml_writer::vectors(std::string_view key, const std::vector<vec3<double>>& vs) {
    std::string text = "[\n";
    for (const auto& v : vs) text.append("    ").append(vector_literal(v)).append(",\n");
    line(key, text + "]");
}
void toml_writer::comment(const std::string& text) { text_ += "# " + text + "\n"; }
void toml_writer::line(std::string_view key, const std::string& value) {
    text_.append(key).append(" = ").append(value).append("\n");
}

}  // namespace stokesian::settings
