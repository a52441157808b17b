#pragma once
// A small TOML emitter for the resolved configuration: sections in the order of the format
// reference, floats in their shortest round-trip form (toml++'s own printer writes 17 digits);
// write_fields writes a settings struct through its field table.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "stokesian/settings/field_table.hpp"

namespace stokesian::settings {

class toml_writer {
public:
    void section(const std::string& name);
    void number(std::string_view key, double x);
    void integer(std::string_view key, std::uint64_t x);
    void boolean(std::string_view key, bool x);
    void string(std::string_view key, const std::string& x);
    void vector(std::string_view key, vec3<double> v);
    void vectors(std::string_view key, const std::vector<vec3<double>>& vs);
    void comment(const std::string& text);
    std::string str() const { return text_; }

private:
    void line(std::string_view key, const std::string& value);
    std::string text_;
};

template <class S>
void write_field(toml_writer& w, const field<S>& f, const S& s) {
    if (f.written != nullptr && !f.written(s)) return;
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, double S::*>) w.number(f.key, s.*member);
            else if constexpr (std::is_same_v<M, std::optional<double> S::*>) {
                if (s.*member) w.number(f.key, *(s.*member));
            } else if constexpr (std::is_same_v<M, std::optional<std::uint64_t> S::*>) {
                if (s.*member) w.integer(f.key, *(s.*member));
            } else if constexpr (std::is_same_v<M, std::uint64_t S::*> || std::is_same_v<M, std::uint32_t S::*>)
                w.integer(f.key, s.*member);
            else if constexpr (std::is_same_v<M, std::int64_t S::*>) w.integer(f.key, std::uint64_t(s.*member));
            else if constexpr (std::is_same_v<M, bool S::*>) w.boolean(f.key, s.*member);
            else if constexpr (std::is_same_v<M, std::string S::*>) w.string(f.key, s.*member);
            else if constexpr (std::is_same_v<M, vec3<double> S::*>) w.vector(f.key, s.*member);
            else if constexpr (std::is_same_v<M, text_member<S>>) w.string(f.key, member.get(s));
            else if constexpr (std::is_same_v<M, derived_count<S>>) w.integer(f.key, member(s));
            // monostate: nothing stored to write
        },
        f.member);
}

template <class S>
void write_fields(toml_writer& w, std::span<const field<S>> fields, const S& s) {
    for (const auto& f : fields) write_field(w, f, s);
}

}  // namespace stokesian::settings
