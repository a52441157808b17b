// Every [run] key is one command-line option generated from the run table (settings::run_options();
// tools/cli/options_run.cpp builds the options), read by the key's one parser: the scenario file and
// the command line take the same spellings and apply the same default. Iterates over the table, so a
// key added without an option, or a text key without spellings below, fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"
#include "stokesian/settings/run_overrides.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/scenario_reference.hpp"
#include "support/scenario_texts.hpp"

using namespace stokesian;

namespace {

// Two spheres, [run] last: a key is appended to it.
const std::string run_key_pair_without_run = test_support::two_sphere_scenario("pair");

// Spellings each text key is tried with, accepted and refused ones: the scenario file and the
// command line must agree on every one.
const std::map<std::string, std::vector<std::string>> text_key_spellings{
    {"backend", {"cpu", "auto", "cuda", "gpu", "cuda-fused", "CPU", ""}},
    {"precision", {"hi=ds,int=f32", "int=f32,hi=ds", "ds/f32", "f64", "hi=f16,int=f32", "paper", "all", "hi=ds", ""}},
    {"hi_kernel", {"auto", "fast", "all-pairs", "symmetric", ""}},
    {"devices", {"0", "0,1", "all", "1, 0", "-1", "0,0", "x", ""}},
    {"integrator", {"euler", "heun", "rk4", "ab2", "RK4", ""}},
};

// The keys of the reference's [run] table, generated from the run table ("| `dt` | ...").
std::vector<std::string> reference_run_keys() {
    std::vector<std::string> keys;
    std::istringstream rows(settings::scenario_key_table("run"));
    for (std::string row; std::getline(rows, row);)
        if (row.rfind("| `", 0) == 0) keys.push_back(row.substr(3, row.find('`', 3) - 3));
    return keys;
}

// The resolved configuration of the pair with `run`, or the one-line refusal.
struct resolved_or_refused {
    std::string resolved, refusal;
};

resolved_or_refused from_scenario_file(const std::string& key, const std::string& toml_value) {
    try {
        return {resolved_configuration(
                    parse_scenario(run_key_pair_without_run + key + " = " + toml_value + "\n", "x.toml")),
                ""};
    } catch (const input_error& e) {
        return {"", e.what()};
    }
}

resolved_or_refused from_command_line(const settings::run_override& given) {
    scenario s = parse_scenario(run_key_pair_without_run, "x.toml");
    try {
        settings::apply_run_overrides(s.run, {given});
        return {resolved_configuration(s), ""};
    } catch (const input_error& e) {
        return {"", e.what()};
    }
}

// The table's default as the override it states, where it is a value (`"cpu"`, `1.0`); none for a
// default in words ("the multiple of dt closest to 1 tau_s", "one device (ordinal 0)"). A value
// the option cannot read fails.
std::optional<settings::run_override> default_as_override(const settings::run_option& o) {
    using kind = settings::run_option::kind;
    if (!o.default_is_value || o.type == kind::flag) return std::nullopt;
    if (o.type == kind::text) return settings::run_override{o.key, o.default_text};
    if (o.type == kind::step_count) {
        if (const auto n = read_step_count(o.default_text)) return settings::run_override{o.key, *n};
    } else if (const auto x = read_number(o.default_text)) {
        return settings::run_override{o.key, *x};
    }
    ADD_FAILURE() << o.key << ": the default '" << o.default_text << "' is not a value of the option";
    return std::nullopt;
}

}  // namespace

// Each key of the [run] table (as the reference lists them) has exactly one option, named in its
// reference row; no two keys share an option.
TEST(RunKeyOptions, EveryRunKeyHasExactlyOneOption) {
    const std::vector<settings::run_option> options = settings::run_options();
    const std::vector<std::string> keys = reference_run_keys();
    ASSERT_FALSE(keys.empty());
    const std::string rows = settings::scenario_key_table("run");
    std::set<std::string> names;
    for (const std::string& key : keys) {
        std::size_t count = 0;
        for (const settings::run_option& o : options)
            if (o.key == key) ++count;
        EXPECT_EQ(count, 1u) << "[run] key '" << key << "' has " << count
                             << " command-line options; give it a `cli` spelling in engine/settings/run_table.cpp";
    }
    EXPECT_EQ(options.size(), keys.size());
    for (const settings::run_option& o : options) {
        EXPECT_TRUE(names.insert(std::string(o.option)).second) << o.option << " names two keys";
        EXPECT_NE(rows.find("(command line: `" + std::string(o.option) + "`"), std::string::npos) << o.key;
        EXPECT_EQ(settings::run_option_of(o.key).option, o.option);
    }
    EXPECT_THROW((void)settings::run_option_of("total_steps"), std::invalid_argument);  // derived, not read
}

// A text key takes the same spellings in the scenario file and on the command line (one parser):
// both accept it and resolve to the same configuration, or both refuse it.
TEST(RunKeyOptions, TheScenarioFileAndTheCommandLineTakeTheSameSpellings) {
    for (const settings::run_option& o : settings::run_options()) {
        if (o.type != settings::run_option::kind::text) continue;
        const auto spellings = text_key_spellings.find(std::string(o.key));
        if (spellings == text_key_spellings.end()) {
            ADD_FAILURE() << "text key '" << o.key << "': list spellings to try in text_key_spellings";
            continue;
        }
        std::size_t accepted = 0, refused = 0;
        for (const std::string& text : spellings->second) {
            const resolved_or_refused file = from_scenario_file(std::string(o.key), "\"" + text + "\"");
            const resolved_or_refused line = from_command_line({o.key, text});
            EXPECT_EQ(file.refusal.empty(), line.refusal.empty())
                << o.key << " = \"" << text << "\": file: " << file.refusal << "; command line: " << line.refusal;
            EXPECT_EQ(file.resolved, line.resolved) << o.key << " = \"" << text << "\"";
            // The command line names the option, the file the key; both say what the key expects.
            if (!line.refusal.empty()) {
                EXPECT_NE(line.refusal.find("key '" + std::string(o.option) + "'"), std::string::npos) << line.refusal;
                EXPECT_NE(file.refusal.find("key 'run." + std::string(o.key) + "'"), std::string::npos) << file.refusal;
            }
            (line.refusal.empty() ? accepted : refused) += 1;
        }
        EXPECT_GT(accepted, 0u) << o.key;  // the list tries both kinds
        EXPECT_GT(refused, 0u) << o.key;
    }
}

// The default an option states (its help, the reference's row) is what a run without the key has:
// given explicitly it changes nothing.
TEST(RunKeyOptions, TheStatedDefaultIsTheValueWithoutTheKey) {
    const std::string without = resolved_configuration(parse_scenario(run_key_pair_without_run, "x.toml"));
    std::size_t checked = 0;
    for (const settings::run_option& o : settings::run_options()) {
        const std::optional<settings::run_override> stated = default_as_override(o);
        if (!o.default_text.empty() && o.type != settings::run_option::kind::flag)  // not required
            EXPECT_NE(o.help.find("default " + o.default_text), std::string::npos) << o.help;
        if (!stated) continue;
        const resolved_or_refused given = from_command_line(*stated);
        EXPECT_EQ(given.refusal, "") << o.key << ": the stated default '" << o.default_text << "' is refused";
        EXPECT_EQ(given.resolved, without)
            << o.key << ": the stated default '" << o.default_text << "' differs from a run without the key";
        ++checked;
    }
    // backend, precision, hi_kernel, integrator, min_separation at least.
    EXPECT_GE(checked, 5u);
}
