// The tolerance rules file (check_rules.hpp, format in reference_data/README.md): every key checked,
// the first problem is one input_error line naming the file and the rule.
#include "stokesian/regression/check_rules.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <toml++/toml.h>

#include "observable_catalogue.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/settings/field_table.hpp"
#include "stokesian/settings/text_input.hpp"
#include "stokesian/settings/toml_parsing.hpp"

namespace stokesian::regression {

namespace {

const std::map<std::string, tolerance_kind>& kind_names() {
    static const std::map<std::string, tolerance_kind> names{
        {"exact", tolerance_kind::exact},
        {"absolute", tolerance_kind::absolute},
        {"relative", tolerance_kind::relative},
        {"ci_overlap", tolerance_kind::ci_overlap},
        {"band", tolerance_kind::band},
        {"expected_failure_window", tolerance_kind::expected_failure_window},
        {"not_before", tolerance_kind::not_before}};
    return names;
}

constexpr std::string_view backend_classes[] = {"cpu", "gpu"};

void set_kind(check_rule& r, const std::string& text) {
    const auto parsed = parse_tolerance_kind(text);
    if (!parsed)
        throw std::invalid_argument(
            "expected exact, absolute, relative, ci_overlap, band, expected_failure_window or not_before");
    r.kind = *parsed;
}

// The keys of a [[rule]], in the order they are read (reference_data/README.md documents them).
const settings::field<check_rule> rule_fields[] = {
    {.key = "id", .member = &check_rule::id},
    {.key = "scenario", .member = &check_rule::scenario, .missing = "required"},
    {.key = "observable", .member = &check_rule::observable, .missing = "required"},
    {.key = "case", .member = &check_rule::cases},
    {.key = "precision", .member = &check_rule::precisions},
    {.key = "dt", .member = &check_rule::dts},
    {.key = "backend_class",
     .member = &check_rule::backend_classes,
     .rule = {.choices = backend_classes, .what = "expected \"cpu\" or \"gpu\""}},
    {.key = "kind",
     .member = settings::text_member<check_rule>{[](const check_rule& r) { return to_string(r.kind); }, set_kind},
     .missing = "required"},
    {.key = "tolerance", .member = &check_rule::tolerance},
    {.key = "window", .member = &check_rule::window},
    {.key = "before_loss", .member = &check_rule::before_loss},
    {.key = "until", .member = &check_rule::until},
    {.key = "against", .member = &check_rule::against},
    {.key = "measured_spread", .member = &check_rule::measured_spread},
    {.key = "derivation", .member = &check_rule::derivation, .missing = "required"},
};

std::string accepted_keys() {
    std::string keys;
    for (const auto& f : rule_fields) keys.append(keys.empty() ? "" : ", ").append(f.key);
    return keys;
}

class rule_reader {
public:
    rule_reader(const toml::table& table, std::string origin, std::string where)
        : table_(table), origin_(std::move(origin)), where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& expected) const {
        throw input_error(origin_, where_ + (key.empty() ? "" : "." + key), value, expected);
    }

    // One key through its field, with the checks and messages of the rules format; nothing
    // written leaves the struct's default.
    void read(const settings::field<check_rule>& f, check_rule& r) {
        const std::string key(f.key);
        seen_.insert(key);
        const toml::node* node = table_.get(key);
        if (node == nullptr) {
            if (!f.missing.empty()) fail(key, "", "missing (required)");
            return;
        }
        std::visit(
            [&](auto member) {
                using M = decltype(member);
                using S = check_rule;
                if constexpr (std::is_same_v<M, std::string S::*> || std::is_same_v<M, settings::text_member<S>>) {
                    const auto* s = node->as_string();
                    if (s == nullptr) fail(key, "", "expected a string");
                    if constexpr (std::is_same_v<M, std::string S::*>) {
                        r.*member = s->get();
                    } else {
                        try {
                            member.set(r, s->get());
                        } catch (const std::invalid_argument& e) {
                            fail(key, s->get(), e.what());
                        }
                    }
                } else if constexpr (std::is_same_v<M, std::vector<std::string> S::*>) {
                    const auto* array = node->as_array();
                    if (array == nullptr) fail(key, "", "expected an array of strings");
                    for (const toml::node& item : *array) {
                        const auto* s = item.as_string();
                        if (s == nullptr) fail(key, "", "expected an array of strings");
                        (r.*member).push_back(s->get());
                    }
                    const auto& choices = f.rule.choices;
                    for (const std::string& text : r.*member)
                        if (!choices.empty() && std::find(choices.begin(), choices.end(), text) == choices.end())
                            fail(key, text, std::string(f.rule.what));
                } else if constexpr (std::is_same_v<M, std::vector<double> S::*>) {
                    const auto* array = node->as_array();
                    if (array == nullptr) fail(key, "", "expected an array of numbers");
                    for (const toml::node& item : *array) {
                        const std::optional<double> x = item.value<double>();
                        if (!x || !std::isfinite(*x) || *x <= 0.0)
                            fail(key, "", "expected an array of positive numbers");
                        (r.*member).push_back(*x);
                    }
                } else if constexpr (std::is_same_v<M, double S::*>) {
                    const std::optional<double> x = node->value<double>();
                    if (!x || !std::isfinite(*x)) fail(key, "", "expected a finite number");
                    r.*member = *x;
                } else if constexpr (std::is_same_v<M, bool S::*>) {
                    const auto* b = node->as_boolean();
                    if (b == nullptr) fail(key, "", "expected true or false");
                    r.*member = b->get();
                }
            },
            f.member);
    }

    bool has(std::string_view key) const { return table_.get(key) != nullptr; }

    void reject_unknown_keys() const {
        for (const auto& [key, value] : table_)
            if (!seen_.contains(std::string(key.str())))
                fail(std::string(key.str()), "", "unknown key (a rule accepts " + accepted_keys() + ")");
    }

private:
    const toml::table& table_;
    std::string origin_, where_;
    std::set<std::string> seen_;
};

bool known_observable(const std::string& name) {
    const auto& catalogue = observable_catalogue();
    return std::any_of(catalogue.begin(), catalogue.end(), [&](const catalogue_entry& e) { return e.name == name; });
}

check_rule read_rule(const toml::table& table, const std::string& origin, std::size_t index) {
    rule_reader in(table, origin, "rule[" + std::to_string(index) + "]");
    check_rule r;
    for (const auto& f : rule_fields) {
        in.read(f, r);
        // The rules across keys, right after the later key of each.
        if (f.key == "observable" && !known_observable(r.observable))
            in.fail("observable", r.observable, "not a regression observable (see reference_data/README.md)");
        if (f.key == "tolerance" && !in.has("tolerance") && r.kind != tolerance_kind::exact &&
            r.kind != tolerance_kind::expected_failure_window)
            in.fail("tolerance", "", "missing (required unless kind = exact or expected_failure_window)");
        if (f.key == "window") {
            if (r.kind == tolerance_kind::expected_failure_window &&
                (r.window.size() != 2 || !(r.window[0] < r.window[1])))
                in.fail("window", "", "expected [earliest, latest] with 0 < earliest < latest (tau_s)");
            if (r.kind != tolerance_kind::expected_failure_window && !r.window.empty())
                in.fail("window", "", "only for kind = expected_failure_window");
            if (r.tolerance < 0.0) in.fail("tolerance", std::to_string(r.tolerance), "expected a number >= 0");
            if (r.kind == tolerance_kind::band && r.tolerance < 1.0)
                in.fail("tolerance", std::to_string(r.tolerance), "a band is a factor >= 1");
        }
        if (f.key == "until" && in.has("until") && r.until <= 0.0)
            in.fail("until", std::to_string(r.until), "expected a time > 0 (tau_s)");
    }
    in.reject_unknown_keys();
    return r;
}

}  // namespace

std::string to_string(tolerance_kind k) {
    for (const auto& [name, kind] : kind_names())
        if (kind == k) return name;
    return "unknown";
}

std::optional<tolerance_kind> parse_tolerance_kind(const std::string& name) {
    const auto it = kind_names().find(name);
    if (it == kind_names().end()) return std::nullopt;
    return it->second;
}

bool check_rule::matches(const reference_key& key, const std::string& observable_name) const {
    auto any_or_contains = [](const std::vector<std::string>& list, const std::string& value) {
        return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
    };
    if (scenario != key.scenario || observable != observable_name) return false;
    if (!any_or_contains(cases, key.case_name) || !any_or_contains(precisions, key.precision) ||
        !any_or_contains(backend_classes, key.backend_class))
        return false;
    // dt as written in the file and as stored in the result: the same decimal, the same double.
    return dts.empty() || std::find(dts.begin(), dts.end(), key.dt) != dts.end();
}

const check_rule* check_rules::find(const reference_key& key, const std::string& observable_name) const {
    for (const check_rule& r : rules)
        if (r.matches(key, observable_name)) return &r;
    return nullptr;
}

check_rules parse_check_rules(const std::string& text, const std::string& origin) {
    const toml::table root = parse_toml(text, origin);
    check_rules out;
    out.source = origin;
    for (const auto& [key, value] : root)
        if (key.str() != "rule")
            throw input_error(origin, std::string(key.str()), "",
                              "unknown top-level key (the file holds [[rule]] tables)");
    const toml::array* rules = root["rule"].as_array();
    if (rules == nullptr || rules->empty()) throw input_error(origin, "rule", "", "no [[rule]] tables");
    std::map<std::string, int> per_observable;
    std::set<std::string> ids;
    for (std::size_t k = 0; k < rules->size(); ++k) {
        const toml::table* table = rules->get(k)->as_table();
        if (table == nullptr) throw input_error(origin, "rule[" + std::to_string(k) + "]", "", "expected a table");
        check_rule r = read_rule(*table, origin, k);
        const std::string base = r.scenario + "/" + r.observable;
        const int n = ++per_observable[base];
        if (r.id.empty()) r.id = base + "#" + std::to_string(n);
        if (!ids.insert(r.id).second)
            throw input_error(origin, "rule[" + std::to_string(k) + "].id", r.id, "duplicate id");
        out.rules.push_back(std::move(r));
    }
    return out;
}

check_rules load_check_rules(const std::filesystem::path& path) {
    return parse_check_rules(read_text_input(path, "the rules file"), path.string());
}

}  // namespace stokesian::regression
