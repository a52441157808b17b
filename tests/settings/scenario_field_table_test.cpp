// The field tables of the scenario format (stokesian/settings/): the key reference of
// docs/reference/scenario-file.md is the generated one, a key added to a table is read, written and
// documented, and command-line overrides go through the [run] table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/run_overrides.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/scenario_reference.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

const std::string reference_path =
    std::string(::stokesian::test_support::project_source_dir) + "/docs/reference/scenario-file.md";

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string minimal_pair = R"(
[scenario]
name = "pair"
[box]
boundary = "open"
[particles]
positions = [[-2.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
force = [0.0, 0.0, -1.0]
[run]
dt = 0.01
steps = 100
)";

std::string output_error_of(const std::string& text) {
    try {
        (void)parse_scenario(text, "x.toml");
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// STOKESIAN_UPDATE_DOCS=1 rewrites the reference's generated tables instead of failing.
TEST(ScenarioReference, ReferenceTablesAreTheGeneratedOnes) {
    const std::string reference = read_file(reference_path);
    ASSERT_FALSE(reference.empty()) << "cannot read " << reference_path;
    const std::string generated = settings::with_generated_key_tables(reference);
    if (std::getenv("STOKESIAN_UPDATE_DOCS") != nullptr && generated != reference)
        std::ofstream(reference_path) << generated;
    EXPECT_EQ(reference, generated) << "docs/reference/scenario-file.md's key tables differ from the field tables; "
                                       "run with STOKESIAN_UPDATE_DOCS=1 to rewrite them";
    for (const auto& name : settings::scenario_table_names())
        EXPECT_NE(reference.find("<!-- scenario-keys: " + name + " -->"), std::string::npos) << name;
}

TEST(ScenarioReference, EveryReadKeyHasARowAndDerivedCountsHaveNone) {
    const std::string run = settings::scenario_key_table("run");
    for (const char* key : {"`dt`", "`time`", "`steps`", "`sample_every`", "`precision`", "`checkpoint_every`"})
        EXPECT_NE(run.find(key), std::string::npos) << key;
    EXPECT_EQ(run.find("total_steps"), std::string::npos);
    EXPECT_THROW((void)settings::scenario_key_table("no_such_table"), std::invalid_argument);
}

TEST(ScenarioOutputAuthor, IsReadWrittenAndDocumented) {
    const scenario plain = parse_scenario(minimal_pair, "x.toml");
    EXPECT_EQ(plain.output.author, "");
    // [output] is written for every run; an author the scenario did not set is no value (the reader
    // refuses an empty name), so the table then holds none.
    const toml::table unset = toml::parse(resolved_configuration(plain));
    ASSERT_TRUE(unset["output"].is_table()) << resolved_configuration(plain);
    EXPECT_TRUE(unset["output"].as_table()->empty()) << resolved_configuration(plain);

    const scenario authored = parse_scenario(minimal_pair + "[output]\nauthor = \"Grace Hopper\"\n", "x.toml");
    EXPECT_EQ(authored.output.author, "Grace Hopper");
    const toml::table written = toml::parse(resolved_configuration(authored));
    EXPECT_EQ(written["output"]["author"].value_or(std::string()), "Grace Hopper");
    EXPECT_NE(settings::scenario_key_table("output").find("| `author` | string |"), std::string::npos);
}

TEST(ScenarioOutputAuthor, BadValuesAreOneLineErrorsNamingTheKey) {
    EXPECT_EQ(output_error_of(minimal_pair + "[output]\nauthor = 7\n"),
              "x.toml: key 'output.author' = 7: expected a string");
    EXPECT_EQ(output_error_of(minimal_pair + "[output]\nauthor = \"\"\n"),
              "x.toml: key 'output.author' = \"\": expected a non-empty name");
    EXPECT_NE(output_error_of(minimal_pair + "[output]\nauthor = \"two\\nlines\"\n").find("control characters"),
              std::string::npos);
    EXPECT_NE(output_error_of(minimal_pair + "[output]\nauthor = \"" + std::string(257, 'a') + "\"\n")
                  .find("at most 256 bytes"),
              std::string::npos);
    EXPECT_NE(output_error_of(minimal_pair + "[output]\nname = \"x\"\n")
                  .find("unknown key 'output.name' ([output] accepts author)"),
              std::string::npos);
}

TEST(RunOverrides, GoThroughTheRunTable) {
    run_settings run = parse_scenario(minimal_pair, "x.toml").run;
    settings::apply_run_overrides(run, {{"precision", std::string("hi=ds,int=f32")}, {"time", 2.0}});
    EXPECT_EQ(to_string(run.precision), "hi=ds,int=f32");
    EXPECT_EQ(run.time, 2.0);
    EXPECT_FALSE(run.steps.has_value());  // time replaces steps
    settings::apply_run_overrides(run, {{"steps", std::uint64_t{50}}, {"write_trajectory", false}});
    EXPECT_EQ(run.steps, 50u);
    EXPECT_FALSE(run.time.has_value());
    EXPECT_FALSE(run.write_trajectory);
}

// One spelling for the scenario file and the command line: run.precision takes what --precision
// takes, and the HI kernel's default request is spelled "auto" only (no empty string).
TEST(RunOverrides, TheScenarioFileSpellsPrecisionAndKernelAsTheCommandLine) {
    const std::string run_table = minimal_pair.substr(0, minimal_pair.find("[run]"));
    const auto run_of = [&](const std::string& keys) {
        return parse_scenario(run_table + "[run]\ndt = 0.01\nsteps = 100\n" + keys, "x.toml").run;
    };
    EXPECT_EQ(run_of("precision = \"ds/f32\"\n").precision, (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(run_of("precision = \"f32\"\n").precision, (precision_mode{precision::f32, precision::f32}));
    run_settings run = run_of("");
    settings::apply_run_overrides(run, {{"precision", std::string("ds/f32")}});
    EXPECT_EQ(run.precision, (precision_mode{precision::ds, precision::f32}));

    EXPECT_EQ(run_of("").hi_kernel, "auto");
    try {
        (void)run_of("hi_kernel = \"\"\n");
        FAIL() << "accepted an empty hi_kernel";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("key 'run.hi_kernel' = \"\": expected auto, fast or a kernel"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(settings::apply_run_overrides(run, {{"hi_kernel", std::string()}}), input_error);
}

TEST(RunOverrides, DtAloneKeepsTheRunLengthInTime) {
    run_settings run = parse_scenario(minimal_pair, "x.toml").run;  // 100 steps of 0.01
    settings::apply_run_overrides(run, {{"dt", 0.001}});
    ASSERT_TRUE(run.time.has_value());
    EXPECT_DOUBLE_EQ(*run.time, 1.0);
    EXPECT_EQ(run.total_steps(), 1000u);
}

TEST(RunOverrides, BadValuesNameTheOption) {
    run_settings run = parse_scenario(minimal_pair, "x.toml").run;
    try {
        settings::apply_run_overrides(run, {{"precision", std::string("hi=f16")}});
        FAIL() << "accepted hi=f16";
    } catch (const input_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("command line: key '--precision'", 0), 0u) << e.what();
    }
    EXPECT_THROW(settings::apply_run_overrides(run, {{"sample_every", 0.015}}), input_error);  // not k dt
    EXPECT_THROW(settings::apply_run_overrides(run, {{"no_such_key", 1.0}}), std::invalid_argument);
}

// The [run] keys with a command-line spelling in the table, as the command line builds its option
// group from them (tools/cli/options_run.cpp): of the member's kind, exclusive where the keys are,
// applied through the table, and named in the reference's row.
TEST(RunOptions, ComeFromTheRunTable) {
    const std::vector<settings::run_option> options = settings::run_options();
    const auto find = [&](std::string_view key) -> const settings::run_option* {
        for (const auto& o : options)
            if (o.key == key) return &o;
        return nullptr;
    };
    using kind = settings::run_option::kind;
    const struct {
        const char *key, *option;
        kind type;
        const char* excludes;
    } expected[] = {{"dt", "--dt", kind::number, ""},
                    {"time", "--time", kind::number, "--steps"},
                    {"steps", "--steps", kind::step_count, "--time"},
                    {"sample_every", "--sample-every", kind::number, ""},
                    {"precision", "--precision", kind::text, ""},
                    {"backend", "--backend", kind::text, ""},
                    {"hi_kernel", "--hi-kernel", kind::text, ""},
                    {"integrator", "--integrator", kind::text, ""},
                    {"write_trajectory", "--no-trajectory", kind::flag, ""},
                    {"checkpoint_every", "--checkpoint-every", kind::number, ""},
                    {"min_separation", "--min-separation", kind::number, ""},
                    {"devices", "--devices", kind::text, ""}};
    const std::string reference_rows = settings::scenario_key_table("run");
    for (const auto& e : expected) {
        const settings::run_option* o = find(e.key);
        ASSERT_NE(o, nullptr) << e.key;
        EXPECT_EQ(o->option, e.option);
        EXPECT_EQ(o->type, e.type) << e.key;
        EXPECT_EQ(o->excludes, e.excludes) << e.key;
        EXPECT_NE(o->help.find("run." + std::string(e.key)), std::string::npos) << o->help;
        EXPECT_EQ(o->help.find('`'), std::string::npos) << "Markdown in --help: " << o->help;
        EXPECT_NE(reference_rows.find("(command line: `" + std::string(e.option) + "`"), std::string::npos) << e.key;
    }
    EXPECT_FALSE(find("write_trajectory")->flag_value);  // --no-trajectory sets false

    // Every option's key takes a value of its kind through apply_run_overrides (the command's path).
    for (const settings::run_option& o : options) {
        run_settings run = parse_scenario(minimal_pair, "x.toml").run;
        settings::run_override given{o.key, 0.01};  // a multiple of dt = 0.01: a valid time or interval
        if (o.type == kind::step_count) given.value = std::uint64_t{7};
        if (o.type == kind::flag) given.value = o.flag_value;
        if (o.type == kind::text) {
            if (o.key != "integrator") continue;  // a text key takes its own values
            given.value = std::string("heun");
        }
        EXPECT_NO_THROW(settings::apply_run_overrides(run, {given})) << o.key;
    }
}
