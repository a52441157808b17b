#include "options_run.hpp"

#include <algorithm>
#include <stdexcept>

#include "option_values.hpp"
#include "stokesian/core/errors.hpp"

namespace stokesian::cli {

namespace {

using kind = settings::run_option::kind;

std::vector<settings::run_option> requested(const std::vector<std::string_view>& keys) {
    std::vector<settings::run_option> all = settings::run_options();
    if (keys.empty()) return all;
    std::vector<settings::run_option> chosen;
    for (const std::string_view key : keys) {
        const auto found = std::find_if(all.begin(), all.end(), [&](const auto& o) { return o.key == key; });
        if (found == all.end())
            throw std::logic_error("[run] key '" + std::string(key) + "' has no command-line spelling");
        chosen.push_back(*found);
    }
    return chosen;
}

// `text` read by the parser of `key` as the scenario file reads it; CLI11 reports the refusal
// (main(): one line, exit code 2).
void check_text(std::string_view key, const std::string& option, const std::string& text) {
    run_settings scratch;
    try {
        settings::set_run_key(scratch, key, text);
    } catch (const std::invalid_argument& e) {
        throw CLI::ValidationError(input_error("command line", option, text, e.what()).what());
    }
}

}  // namespace

CLI::Option* add_run_key_list_option(CLI::App& cmd, std::string_view key, std::vector<std::string>& items,
                                     const std::string& default_help) {
    const settings::run_option spec = settings::run_option_of(key);
    const std::string name(spec.option);
    auto given = std::make_shared<bool>(false);
    return cmd
        .add_option_function<std::vector<std::string>>(
            name,
            [&items, given, key = spec.key, name](const std::vector<std::string>& texts) {
                if (!*given) items.clear();
                *given = true;
                for (const std::string& text : texts)
                    for (const std::string& item : split_list(text, ", \t")) {
                        check_text(key, name, item);
                        if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
                    }
                if (items.empty())
                    throw CLI::ValidationError(input_error("command line", name, "", "empty list").what());
            },
            spec.description + "; several, comma-separated (" + default_help + ")")
        ->type_size(1)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
}

std::vector<settings::run_override> run_key_options::overrides() const {
    std::vector<settings::run_override> out;
    for (const auto& s : slots_) {
        const settings::run_option& o = s->spec;
        switch (o.type) {
            case kind::number:
                if (s->number) out.push_back({o.key, *s->number});
                break;
            case kind::step_count:
                if (s->text) out.push_back({o.key, step_count_option(*s->text, std::string(o.option))});
                break;
            case kind::text:
                if (s->text) out.push_back({o.key, *s->text});
                break;
            case kind::flag:
                if (s->flag) out.push_back({o.key, o.flag_value});
                break;
        }
    }
    return out;
}

std::optional<double> run_key_options::number(std::string_view key) const {
    for (const auto& s : slots_)
        if (s->spec.key == key) return s->number;
    return std::nullopt;
}

std::optional<std::string> run_key_options::text(std::string_view key) const {
    for (const auto& s : slots_)
        if (s->spec.key == key) return s->text;
    return std::nullopt;
}

std::shared_ptr<const run_key_options> add_run_key_options(CLI::App& cmd, const std::string& description,
                                                           const std::vector<std::string_view>& keys) {
    auto options = std::make_shared<run_key_options>();
    CLI::Option_group* group = cmd.add_option_group("run keys", description);
    std::vector<CLI::Option*> added;
    for (settings::run_option& spec : requested(keys)) {
        auto s = std::make_unique<run_key_options::slot>();
        s->spec = std::move(spec);
        const std::string name(s->spec.option);
        const std::string& help = s->spec.help;
        switch (s->spec.type) {
            case kind::number: added.push_back(group->add_option(name, s->number, help)); break;
            // Read as text: a step count is checked by step_count_option (CLI11 takes "-1" for 2^64 - 1).
            case kind::step_count: added.push_back(group->add_option(name, s->text, help)); break;
            case kind::text:
                added.push_back(group->add_option_function<std::string>(
                    name,
                    [slot = s.get(), name](const std::string& text) {
                        check_text(slot->spec.key, name, text);
                        slot->text = text;
                    },
                    help));
                break;
            case kind::flag: added.push_back(group->add_flag(name, s->flag, help)); break;
        }
        options->slots_.push_back(std::move(s));
    }
    for (std::size_t k = 0; k < added.size(); ++k) {
        const std::string_view excludes = options->slots_[k]->spec.excludes;
        for (std::size_t j = 0; j < added.size(); ++j)
            if (!excludes.empty() && options->slots_[j]->spec.option == excludes) added[k]->excludes(added[j]);
    }
    return options;
}

}  // namespace stokesian::cli
