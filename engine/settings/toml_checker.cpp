#include "toml_checker.hpp"

#include <algorithm>
#include <cmath>

#include "stokesian/core/errors.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {
// An integer or floating-point node as a double (TOML integers are accepted wherever a number is).
double as_double(const toml::node& node) {
    if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
    return node.as_floating_point()->get();
}
}  // namespace

void checker::fail(const std::string& key, const std::string& value, const std::string& expected) const {
    throw input_error(file_, key, value, expected);
}
void checker::fail(const entry& e, const std::string& expected) const { fail(e.key, written(*e.node), expected); }
void checker::fail_missing(const std::string& key, const std::string& expected) const {
    fail(key, "", "required key is missing (expected " + expected + ")");
}

double checker::number(const entry& e, sign_rule rule, const std::string& what) const {
    const std::string rule_text = rule == sign_rule::positive ? " > 0" : rule == sign_rule::non_negative ? " >= 0" : "";
    if (!e.node->is_number()) fail(e, "expected " + what + rule_text);
    const double x = as_double(*e.node);
    if (!std::isfinite(x)) fail(e, "expected a finite number" + rule_text);
    if (rule == sign_rule::positive && !(x > 0.0)) fail(e, "expected " + what + " > 0");
    if (rule == sign_rule::non_negative && !(x >= 0.0)) fail(e, "expected " + what + " >= 0");
    return x;
}

std::int64_t checker::integer(const entry& e, std::int64_t minimum, std::int64_t maximum) const {
    const std::string range = maximum == std::numeric_limits<std::int64_t>::max()
                                  ? " >= " + std::to_string(minimum)
                                  : " in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]";
    std::int64_t value = 0;
    if (const auto* i = e.node->as_integer()) {
        value = i->get();
    } else if (const auto* f = e.node->as_floating_point()) {
        const double x = f->get();
        // 2^63 is exactly representable; anything from there on does not fit.
        if (!std::isfinite(x) || x != std::floor(x) || std::fabs(x) >= 0x1p63) fail(e, "expected an integer" + range);
        value = static_cast<std::int64_t>(x);
    } else {
        fail(e, "expected an integer" + range);
    }
    if (value < minimum || value > maximum) fail(e, "expected an integer" + range);
    return value;
}

std::string checker::string(const entry& e, const std::string& what) const {
    if (!e.node->is_string()) fail(e, "expected " + what);
    return e.node->as_string()->get();
}

bool checker::boolean(const entry& e) const {
    if (!e.node->is_boolean()) fail(e, "expected true or false");
    return e.node->as_boolean()->get();
}

std::string checker::one_of(const entry& e, const std::vector<std::string>& choices) const {
    std::string quoted;
    for (const auto& c : choices) quoted += (quoted.empty() ? "\"" : ", \"") + c + "\"";
    const std::string expected = "expected one of " + quoted;
    if (!e.node->is_string()) fail(e, expected);
    const std::string value = e.node->as_string()->get();
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) fail(e, expected);
    return value;
}

vec3<double> checker::vector(const entry& e) const {
    const auto* array = e.node->as_array();
    const std::string expected = "expected an array of 3 numbers";
    if (array == nullptr || array->size() != 3) fail(e, expected);
    double c[3];
    for (std::size_t k = 0; k < 3; ++k) {
        const toml::node& component = *array->get(k);
        if (!component.is_number()) fail(e, expected);
        c[k] = as_double(component);
        if (!std::isfinite(c[k])) fail(e, "expected an array of 3 finite numbers");
    }
    return {c[0], c[1], c[2]};
}

const toml::table& checker::table(const entry& e) const {
    if (!e.node->is_table()) fail(e, "expected a table");
    return *e.node->as_table();
}

section::section(const checker& check, std::string name, std::vector<layer> layers, const key_list& keys)
    : check_(&check), name_(std::move(name)), layers_(std::move(layers)), keys_(keys) {
    for (const auto& l : layers_) {
        for (const auto& [key, node] : *l.table) {
            const std::string_view k = key.str();
            const bool is_value = std::find(keys_.values.begin(), keys_.values.end(), k) != keys_.values.end();
            const bool is_table = std::find(keys_.tables.begin(), keys_.tables.end(), k) != keys_.tables.end();
            const std::string full = dotted(l.prefix, k);
            if (is_table && !node.is_table()) check.fail(full, written(node), "expected a table");
            if (!is_value && !is_table) {
                std::vector<std::string> known;
                for (auto v : keys_.values) known.emplace_back(v);
                for (auto t : keys_.tables) known.emplace_back(std::string(t) + " (table)");
                const std::string where = name_.empty() ? "the top level" : "[" + name_ + "]";
                check.fail("", "",
                           std::string(node.is_table() ? "unknown table '" : "unknown key '") + full + "' (" + where +
                               " accepts " + (known.empty() ? "nothing" : joined(known)) + ")");
            }
        }
    }
}

std::string section::dotted(const std::string& prefix, std::string_view key) {
    return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

std::optional<entry> section::find(std::string_view k) const {
    for (auto l = layers_.rbegin(); l != layers_.rend(); ++l)
        if (const toml::node* n = l->table->get(k)) return entry{n, dotted(l->prefix, k)};
    return std::nullopt;
}
std::vector<entry> section::find_all(std::string_view k) const {
    std::vector<entry> all;
    for (auto l = layers_.rbegin(); l != layers_.rend(); ++l)
        if (const toml::node* n = l->table->get(k)) all.push_back({n, dotted(l->prefix, k)});
    return all;
}
std::optional<entry> section::exclusive(std::string_view a, std::string_view b) const {
    for (auto l = layers_.rbegin(); l != layers_.rend(); ++l) {
        const toml::node* na = l->table->get(a);
        const toml::node* nb = l->table->get(b);
        if (na != nullptr && nb != nullptr)
            check_->fail(dotted(l->prefix, b), written(*nb), "set only one of " + key(a) + " and " + key(b));
        if (na != nullptr) return entry{na, dotted(l->prefix, a)};
        if (nb != nullptr) return entry{nb, dotted(l->prefix, b)};
    }
    return std::nullopt;
}

section section::sub(std::string_view k, const key_list& keys) const {
    std::vector<layer> sub_layers;
    for (const auto& l : layers_)
        if (const toml::node* n = l.table->get(k))
            sub_layers.push_back({&check_->table({n, dotted(l.prefix, k)}), dotted(l.prefix, k)});
    return section(*check_, key(k), std::move(sub_layers), keys);
}

std::optional<double> section::number(std::string_view k, sign_rule rule) const {
    std::optional<double> result;
    for (const auto& e : find_all(k)) {
        const double x = check_->number(e, rule);
        if (!result) result = x;
    }
    return result;
}
std::optional<bool> section::boolean(std::string_view k) const {
    std::optional<bool> result;
    for (const auto& e : find_all(k)) {
        const bool b = check_->boolean(e);
        if (!result) result = b;
    }
    return result;
}

}  // namespace stokesian::settings
