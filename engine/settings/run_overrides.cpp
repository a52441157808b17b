#include "stokesian/settings/run_overrides.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian::settings {

namespace {

using override_value = decltype(run_override::value);

const field<run_settings>& run_field(std::string_view key) {
    const auto fields = run_fields();
    const auto found = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.key == key; });
    if (found == fields.end()) throw std::invalid_argument("no [run] key '" + std::string(key) + "'");
    return *found;
}

// The table's spelling ("--sample-every"), else "--" and the key with '-' for '_'.
std::string option_name(const field<run_settings>& f) {
    if (!f.cli.option.empty()) return std::string(f.cli.option);
    std::string option = "--" + std::string(f.key);
    std::replace(option.begin(), option.end(), '_', '-');
    return option;
}

// The scenario reader's rules for a string (field_reader.hpp, read_entry): the table's choices, then
// the member's own parser.
void set_text(run_settings& run, const field<run_settings>& f, const std::string& text) {
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, text_member<run_settings>>) {
                member.set(run, text);
            } else if constexpr (std::is_same_v<M, std::string run_settings::*>) {
                const auto& c = f.rule.choices;
                if (!c.empty() && std::find(c.begin(), c.end(), text) == c.end()) {
                    std::string quoted;
                    for (const std::string_view choice : c)
                        quoted.append(quoted.empty() ? "\"" : ", \"").append(choice).append("\"");
                    throw std::invalid_argument("expected one of " + quoted);
                }
                run.*member = text;
            } else {
                throw std::logic_error("[run] key '" + std::string(f.key) + "' is not a text");
            }
        },
        f.member);
}

void assign(run_settings& run, const field<run_settings>& f, const override_value& value) {
    std::visit(
        [&](auto member) {
            using M = decltype(member);
            using S = run_settings;
            if constexpr (std::is_same_v<M, double S::*> || std::is_same_v<M, std::optional<double> S::*>)
                run.*member = std::get<double>(value);
            else if constexpr (std::is_same_v<M, std::optional<std::uint64_t> S::*>)
                run.*member = std::get<std::uint64_t>(value);
            else if constexpr (std::is_same_v<M, bool S::*>) run.*member = std::get<bool>(value);
            else if constexpr (std::is_same_v<M, std::string S::*> || std::is_same_v<M, text_member<S>>) {
                const std::string& text = std::get<std::string>(value);
                try {
                    set_text(run, f, text);
                } catch (const std::invalid_argument& e) {
                    throw input_error("command line", option_name(f), text, e.what());
                }
            } else {
                throw std::invalid_argument("[run] key '" + std::string(f.key) + "' cannot be overridden");
            }
        },
        f.member);
    if (!f.excludes.empty()) {
        std::visit(
            [&](auto member) {
                if constexpr (std::is_same_v<decltype(member), std::optional<double> run_settings::*> ||
                              std::is_same_v<decltype(member), std::optional<std::uint64_t> run_settings::*>)
                    (run.*member).reset();
            },
            run_field(f.excludes).member);
    }
}

// The doc's Markdown as plain text for --help: `dt` -> dt, `a\|b` -> a|b.
std::string plain_text(std::string_view doc) {
    std::string text;
    for (std::size_t k = 0; k < doc.size(); ++k) {
        if (doc[k] == '`') continue;
        if (doc[k] == '\\' && k + 1 < doc.size() && doc[k + 1] == '|') continue;
        text += doc[k];
    }
    return text;
}

// The doc's default as plain text without quotes: `"cpu"` -> cpu.
std::string default_of(const field_doc& doc) {
    std::string text = plain_text(doc.default_text);
    std::erase(text, '"');
    return text;
}

run_option::kind kind_of(const field_member<run_settings>& member) {
    using S = run_settings;
    return std::visit(
        [](auto m) -> run_option::kind {
            using M = decltype(m);
            if constexpr (std::is_same_v<M, double S::*> || std::is_same_v<M, std::optional<double> S::*>)
                return run_option::kind::number;
            else if constexpr (std::is_same_v<M, std::optional<std::uint64_t> S::*>)
                return run_option::kind::step_count;  // the one count of [run]: steps
            else if constexpr (std::is_same_v<M, bool S::*>) return run_option::kind::flag;
            else if constexpr (std::is_same_v<M, std::string S::*> || std::is_same_v<M, text_member<S>>)
                return run_option::kind::text;
            else throw std::invalid_argument("this [run] key cannot be a command-line option");
        },
        member);
}

}  // namespace

std::vector<run_option> run_options() {
    std::vector<run_option> options;
    for (const field<run_settings>& f : run_fields()) {
        if (f.cli.option.empty()) continue;
        run_option o;
        o.key = f.key;
        o.option = f.cli.option;
        o.type = kind_of(f.member);
        o.flag_value = !f.cli.negated;
        if (f.missing.empty()) o.default_text = default_of(f.doc);
        o.default_is_value = f.missing.empty() && f.doc.default_text.starts_with('`');
        o.description = plain_text(f.cli.help.empty() ? f.doc.constraint : f.cli.help);
        o.help = o.description;
        o.help += o.type == run_option::kind::flag
                      ? " (sets run." + std::string(f.key) + " = " + (o.flag_value ? "true" : "false") + ")"
                      : " (overrides run." + std::string(f.key) +
                            (o.default_text.empty() ? "" : "; default " + o.default_text) + ")";
        if (!f.excludes.empty()) o.excludes = run_field(f.excludes).cli.option;
        options.push_back(std::move(o));
    }
    return options;
}

run_option run_option_of(std::string_view key) {
    for (run_option& o : run_options())
        if (o.key == key) return std::move(o);
    throw std::invalid_argument("[run] key '" + std::string(key) + "' has no command-line spelling");
}

void set_run_key(run_settings& run, std::string_view key, const std::string& text) {
    set_text(run, run_field(key), text);
}

void apply_run_overrides(run_settings& run, const std::vector<run_override>& overrides) {
    const auto given = [&](std::string_view key) {
        return std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) { return o.key == key; });
    };
    const bool steps_kept_as_time = given("dt") && !given("time") && !given("steps") && run.steps;
    for (const auto& o : overrides) {
        if (o.key == "dt" && steps_kept_as_time) {
            run.time = double(*run.steps) * run.dt;
            run.steps.reset();
        }
        assign(run, run_field(o.key), o.value);
    }
    try {
        validate_run_settings(run, "command line");
    } catch (const input_error& e) {
        if (!steps_kept_as_time) throw;
        throw input_error(std::string(e.what()) + " (--dt keeps the scenario's run length of " +
                          short_number(*run.time) + " tau_s; give --steps or --time for another)");
    }
}

}  // namespace stokesian::settings
