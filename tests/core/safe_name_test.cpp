// Names that become file names (issue #18.2, stokesian/core/safe_name.hpp): the one rule, and its
// use on load (scenario names and case names: tests/inputs/bad/scenario_name_*.toml and
// case_name_*.toml; suite run names) and on reading back from a file (checkpoints, reference
// files; result files: tests/cli/quick_output_safety_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/regression/reference_store.hpp"
#include "stokesian/regression/suite_manifest.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/scenario_texts.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

template <class F>
std::string input_error_of(F&& f) {
    try {
        f();
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

class SafeNames : public test_support::scratch_directory_test {
protected:
    SafeNames() : scratch_directory_test("stokesian_safe_name") {}
};

}  // namespace

TEST(SafeName, LettersDigitsDotUnderscoreDashPlusAndNothingThatLeavesTheDirectory) {
    for (const char* good : {"tetrahedron", "fcc_sedimentation_f64-f64", "tetrahedron_ds-f32_dt0.001", "a+b", "x.y",
                             "euler_dt1e+20_ds-f32", "A9"})
        EXPECT_EQ(unsafe_name_reason(good), "") << good;
    const std::string nul("a\0b", 3);
    for (const std::string& bad :
         {std::string(""), std::string("."), std::string(".."), std::string("../x"), std::string("../../x"),
          std::string("/tmp/x"), std::string("a/b"), nul, std::string(".hidden"), std::string("-rf"),
          std::string("a b"), std::string("a\\b"), std::string("nicht-ASCII: \xc8\x98"), std::string("tab\there"),
          std::string(max_safe_name_length + 1, 'a')})
        EXPECT_NE(unsafe_name_reason(bad), "") << quoted_printable(bad);
    EXPECT_EQ(unsafe_name_reason(std::string(max_safe_name_length, 'a')), "");
}

TEST(SafeName, MessagesAreOneLineWithControlCharactersEscaped) {
    const std::string nul("a\0b\n", 4);
    const std::string message = input_error_of([&] { require_safe_name(nul, "f.toml", "scenario.name"); });
    EXPECT_EQ(message,
              "f.toml: key 'scenario.name' = \"a\\x00b\\x0a\": not a safe file name: it contains NUL "
              "(allowed: letters, digits, '.', '_', '-', '+')");
    const std::string long_name = input_error_of([&] { require_safe_name(std::string(100000, '/'), "f", "k"); });
    EXPECT_LT(long_name.size(), 400u) << "a huge name is not echoed whole";
}

TEST(SafeName, ScenarioAndCaseNamesAreCheckedOnLoad) {
    EXPECT_EQ(input_error_of([] { parse_scenario(test_support::two_sphere_scenario("ok_name"), "s.toml"); }), "");
    for (const std::string& bad : {std::string("../../x"), std::string("/tmp/x"), std::string("a\\u0000b")}) {
        const std::string message =
            input_error_of([&] { parse_scenario(test_support::two_sphere_scenario(bad), "s.toml"); });
        EXPECT_NE(message.find("s.toml: key 'scenario.name'"), std::string::npos) << bad << ": " << message;
        EXPECT_NE(message.find("not a safe file name"), std::string::npos) << bad << ": " << message;
    }
    const std::string with_case = test_support::two_sphere_scenario("ok") + "\n[cases.\"a/b\".run]\ndt = 0.02\n";
    EXPECT_NE(input_error_of([&] { parse_scenario(with_case, "s.toml"); }).find("a case name must be a safe file name"),
              std::string::npos);
}

TEST(SafeName, SuiteRunNamesFollowTheSameRule) {
    const std::string run = "scenario = \"t.toml\"\nprecision = \"hi=ds,int=ds\"\ndt = 0.01\ntime = 1.0\n";
    for (const char* bad : {"..", "-x", "a/b", ".x"}) {
        const std::string manifest = "[[run]]\nname = \"" + std::string(bad) + "\"\n" + run;
        EXPECT_NE(input_error_of([&] {
                      regression::parse_suite_manifest(manifest, "suite.toml");
                  }).find("not a safe file name"),
                  std::string::npos)
            << bad;
    }
    EXPECT_EQ(
        input_error_of([&] { regression::parse_suite_manifest("[[run]]\nname = \"a+b\"\n" + run, "suite.toml"); }), "");
}

TEST_F(SafeNames, ACheckpointWhoseStoredScenarioHasAnUnsafeNameIsRefused) {
    // scenario_from_checkpoint rebuilds `stokesian run --resume OUTPUT`'s scenario, whose name
    // gives the output's neighbours their names.
    io::run_checkpoint c;
    c.run = run_record(parse_scenario(test_support::two_sphere_scenario("fine"), "s.toml"));
    EXPECT_EQ(input_error_of([&] { scenario_from_checkpoint(c, dir_ / "x.checkpoint"); }), "");
    c.run["scenario_text"] = test_support::two_sphere_scenario("../../escaped");
    const std::string message = input_error_of([&] { scenario_from_checkpoint(c, dir_ / "x.checkpoint"); });
    EXPECT_NE(message.find("not a safe file name"), std::string::npos) << message;
}

TEST_F(SafeNames, AReferenceFileWithAnUnsafeScenarioNameIsRefused) {
    regression::reference_set set;
    set.scenario = "../outside";
    const fs::path file = dir_ / "r.h5";
    regression::write_reference_file(file, set);
    const std::string message = input_error_of([&] { regression::read_reference_file(file); });
    EXPECT_NE(message.find("not a safe file name"), std::string::npos) << message;
    EXPECT_EQ(message.rfind(file.string(), 0), 0u) << message;
}
