#include "options_precision.hpp"

#include <algorithm>
#include <stdexcept>

#include "option_values.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/port/port_check.hpp"
#include "stokesian/settings/run_overrides.hpp"

namespace stokesian::cli {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// The items of a list, one mode or keyword each: a hi= token and the int= token next to it (either
// order) are one mode; every other token is one (ds/f32, f64, paper, all), read by the scenario
// key's own reader (parse_precision_mode).
std::vector<std::string> precision_items(std::string_view text) {
    std::vector<std::string> items;
    for (const std::string& group : split_list(text, ";")) {
        const std::vector<std::string> tokens = split_list(group, ", \t");
        for (std::size_t k = 0; k < tokens.size(); ++k) {
            const std::string& t = tokens[k];
            const bool pair = k + 1 < tokens.size() && ((starts_with(t, "hi=") && starts_with(tokens[k + 1], "int=")) ||
                                                        (starts_with(t, "int=") && starts_with(tokens[k + 1], "hi=")));
            items.push_back(pair ? t + "," + tokens[++k] : t);
        }
    }
    return items;
}

// One mode, by run.precision's parser.
precision_mode parse_item(const std::string& item, const std::string& option) {
    run_settings scratch;
    try {
        settings::set_run_key(scratch, "precision", item);
    } catch (const std::invalid_argument& e) {
        throw input_error("command line", option, item, e.what());
    }
    return scratch.precision;
}

std::vector<precision_mode> paper_modes() {
    std::vector<precision_mode> modes{reference_precision_mode};
    for (const precision_mode m : paper_precision_modes)
        if (m != reference_precision_mode) modes.push_back(m);
    return modes;
}

void add_once(std::vector<precision_mode>& modes, const std::vector<precision_mode>& more) {
    for (const precision_mode m : more)
        if (std::find(modes.begin(), modes.end(), m) == modes.end()) modes.push_back(m);
}

std::vector<precision_mode> parse_list(std::string_view text, const std::string& option) {
    std::vector<precision_mode> modes;
    for (const std::string& item : precision_items(text)) {
        if (item == "paper") {
            add_once(modes, paper_modes());
        } else if (item == "all") {
            add_once(modes, port::all_precision_modes());
        } else {
            add_once(modes, {parse_item(item, option)});
        }
    }
    if (modes.empty()) throw input_error("command line", option, std::string(text), "no precision mode given");
    return modes;
}

// CLI11 reports its own exceptions (main(): one line, exit 2); ours become one of them.
template <class F>
void as_parse_error(F&& f) {
    try {
        f();
    } catch (const input_error& e) {
        throw CLI::ValidationError(e.what());
    }
}

}  // namespace

std::vector<precision_mode> parse_precision_list(std::string_view text, const std::string& option) {
    return parse_list(text, option);
}

precision_mode parse_one_precision(std::string_view text, const std::string& option) {
    const std::vector<std::string> items = precision_items(text);
    if (items.size() == 1 && items.front() != "paper" && items.front() != "all")
        return parse_item(items.front(), option);
    if (items.empty()) return parse_item(std::string(text), option);
    throw input_error("command line", option, std::string(text),
                      "one precision mode here, not a list (" + precision_mode_spellings() + ")");
}

CLI::Option* add_precision_list_option(CLI::App& cmd, std::vector<precision_mode>& modes,
                                       const std::string& default_help) {
    const settings::run_option spec = settings::run_option_of("precision");
    const std::string name(spec.option);
    const std::string help = spec.description +
                             "; several separated by ';' or given again; 'paper' (the reference and the paper's " +
                             std::to_string(paper_precision_modes.size() - 1) + "), 'all' (all " +
                             std::to_string(precision_modes.size()) + ") (" + default_help + ")";
    // The first occurrence replaces the default; further ones add to it.
    auto given = std::make_shared<bool>(false);
    auto* option = cmd.add_option_function<std::vector<std::string>>(
        name,
        [&modes, given, name](const std::vector<std::string>& texts) {
            as_parse_error([&] {
                if (!*given) modes.clear();
                *given = true;
                for (const std::string& text : texts) add_once(modes, parse_list(text, name));
            });
        },
        help);
    // One value per use, so a positional after it stays one.
    return option->type_size(1)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
}

}  // namespace stokesian::cli
