#pragma once
// Reading a scenario's TOML with checks. The first problem ends the load with one input_error line
// "FILE: key 'K' = V: expected ...". A logical table (e.g. [run]) is read through its layers: the
// top-level table and a case's table ([cases.X.run]) are looked up in turn rather than merged, so
// that an error names the key where the offending value was written ('cases.oblique.run.dt').
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "stokesian/numeric/vec3.hpp"
#include "stokesian/settings/field_table.hpp"

namespace stokesian::settings {

// One TOML table that contributes to a logical section: the top-level [run], or [cases.X.run].
struct layer {
    const toml::table* table;
    std::string prefix;  // dotted key of the table in the file
};

// A value found in a section, with the dotted key it was written under.
struct entry {
    const toml::node* node;
    std::string key;
};

class checker {
public:
    explicit checker(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& expected) const;
    [[noreturn]] void fail(const entry& e, const std::string& expected) const;
    [[noreturn]] void fail_missing(const std::string& key, const std::string& expected) const;

    double number(const entry& e, sign_rule rule, const std::string& what = "a number") const;
    // Integers; a float with an integral value (1e5) is accepted as well.
    std::int64_t integer(const entry& e, std::int64_t minimum,
                         std::int64_t maximum = std::numeric_limits<std::int64_t>::max()) const;
    std::string string(const entry& e, const std::string& what = "a string") const;
    bool boolean(const entry& e) const;
    std::string one_of(const entry& e, const std::vector<std::string>& choices) const;
    vec3<double> vector(const entry& e) const;
    const toml::table& table(const entry& e) const;

private:
    std::string file_;
};

// The keys a logical table accepts: values and sub-tables.
struct key_list {
    std::vector<std::string_view> values;
    std::vector<std::string_view> tables;
};

// A logical table of the scenario, seen through its layers (lowest priority first). Constructing
// it checks that every key written in any layer is known.
class section {
public:
    section(const checker& check, std::string name, std::vector<layer> layers, const key_list& keys);

    static std::string dotted(const std::string& prefix, std::string_view key);
    std::string key(std::string_view k) const { return dotted(name_, k); }
    const std::string& name() const { return name_; }
    bool present() const { return !layers_.empty(); }
    const checker& check() const { return *check_; }

    // The value with the highest priority, if any.
    std::optional<entry> find(std::string_view k) const;
    // Every written value of the key, highest first (lower layers too, so that they are checked).
    std::vector<entry> find_all(std::string_view k) const;
    // Of two mutually exclusive keys, the one set by the highest layer that sets either (a case
    // that sets `steps` overrides a top-level `time`). Both in one layer is an error.
    std::optional<entry> exclusive(std::string_view a, std::string_view b) const;
    section sub(std::string_view k, const key_list& keys) const;

    // Typed look-ups: every layer's value is checked, the highest one is returned.
    std::optional<double> number(std::string_view k, sign_rule rule) const;
    std::optional<bool> boolean(std::string_view k) const;

private:
    const checker* check_;
    std::string name_;
    std::vector<layer> layers_;
    key_list keys_;
};

}  // namespace stokesian::settings
