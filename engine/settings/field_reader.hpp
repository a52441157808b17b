#pragma once
// Reads the keys of one logical table into a settings struct through its field table
// (stokesian/settings/field_table.hpp). Every layer's value is checked; the highest one is kept.
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "toml_checker.hpp"

namespace stokesian::settings {

// What the rules of a field may need besides the table itself.
class field_reader {
public:
    explicit field_reader(const section& table, std::size_t particle_count = 0, std::string positions_key = {})
        : table_(&table), particle_count_(particle_count), positions_key_(std::move(positions_key)) {}
    const section& table() const { return *table_; }
    const checker& check() const { return table_->check(); }
    std::size_t particle_count() const { return particle_count_; }
    const std::string& positions_key() const { return positions_key_; }

private:
    const section* table_;
    std::size_t particle_count_;
    std::string positions_key_;
};

// The keys of a field table, for the unknown-key check (derived values are written, not read).
template <class S>
key_list keys_of(std::span<const field<S>> fields, std::span<const std::string_view> tables = {}) {
    key_list keys;
    for (const auto& f : fields)
        if (!std::holds_alternative<derived_count<S>>(f.member)) keys.values.push_back(f.key);
    keys.tables.assign(tables.begin(), tables.end());
    return keys;
}

namespace detail {

inline std::vector<std::string> choice_list(const value_rule& rule) {
    return {rule.choices.begin(), rule.choices.end()};
}

inline std::string text_value(const checker& check, const entry& e, const value_rule& rule) {
    if (!rule.choices.empty()) return check.one_of(e, choice_list(rule));
    return rule.what.empty() ? check.string(e) : check.string(e, std::string(rule.what));
}

// The checked value of one entry, stored into `out` when it is the highest layer's (`out` set).
template <class S>
void read_entry(const field_reader& r, const field<S>& f, const entry& e, S* out) {
    const checker& check = r.check();
    const value_rule& rule = f.rule;
    auto store = [&](auto member, auto value) {
        if (out != nullptr) out->*member = value;
    };
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, double S::*> || std::is_same_v<M, std::optional<double> S::*>) {
                const double x = check.number(e, rule.sign);
                if (rule.unit_interval && !(x > 0.0 && x < 1.0))
                    check.fail(e,
                               "expected a number with 0 < " + std::string(f.key) + " < 1 " + std::string(rule.note));
                store(member, x);
            } else if constexpr (std::is_same_v<M, std::uint64_t S::*> ||
                                 std::is_same_v<M, std::optional<std::uint64_t> S::*> ||
                                 std::is_same_v<M, std::uint32_t S::*> || std::is_same_v<M, std::int64_t S::*>) {
                const std::int64_t n = check.integer(e, rule.min, rule.max);
                using V = std::remove_reference_t<decltype(std::declval<S&>().*member)>;
                if constexpr (std::is_same_v<V, std::optional<std::uint64_t>>)
                    store(member, static_cast<std::uint64_t>(n));
                else store(member, static_cast<V>(n));
            } else if constexpr (std::is_same_v<M, bool S::*>) {
                const bool on = check.boolean(e);
                const std::size_t n = rule.required_particles;
                if (on && n != 0 && r.particle_count() != n)
                    check.fail(e, std::string(f.key) + " = true requires exactly " + std::to_string(n) +
                                      " particles (" + r.positions_key() + " has " +
                                      std::to_string(r.particle_count()) + ")");
                store(member, on);
            } else if constexpr (std::is_same_v<M, std::string S::*>) {
                store(member, text_value(check, e, rule));
            } else if constexpr (std::is_same_v<M, vec3<double> S::*>) {
                const vec3<double> v = check.vector(e);
                if (rule.sign == sign_rule::positive && !(v.x > 0.0 && v.y > 0.0 && v.z > 0.0))
                    check.fail(e, "expected an array of 3 numbers > 0 " + std::string(rule.note));
                store(member, v);
            } else if constexpr (std::is_same_v<M, text_member<S>>) {
                const std::string text = text_value(check, e, rule);
                S scratch{};
                try {
                    member.set(out != nullptr ? *out : scratch, text);
                } catch (const std::invalid_argument& error) {
                    check.fail(e, error.what());
                }
            }
            // monostate: read by the field's `after` rule; derived counts are not read.
        },
        f.member);
}

}  // namespace detail

template <class S>
void read_field(const field_reader& r, const field<S>& f, S& out) {
    if (std::holds_alternative<derived_count<S>>(f.member)) return;
    const section& table = r.table();
    if (!f.missing.empty() && !table.find(f.key)) r.check().fail_missing(table.key(f.key), std::string(f.missing));
    bool highest = true;
    for (const auto& e : table.find_all(f.key)) {
        detail::read_entry(r, f, e, highest ? &out : nullptr);
        highest = false;
    }
    if (f.after != nullptr) f.after(r, out);
}

template <class S>
void read_fields(const field_reader& r, std::span<const field<S>> fields, S& out) {
    for (const auto& f : fields) read_field(r, f, out);
}

}  // namespace stokesian::settings
