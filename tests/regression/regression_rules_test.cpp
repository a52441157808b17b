// Tolerance rules (check_rules.hpp) and suite manifests (suite_manifest.hpp): what they accept,
// the one-line errors for what they reject, and which rule applies to which key.
#include <gtest/gtest.h>

#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/suite_manifest.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;
using namespace stokesian::regression;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_check_rules(text, "checks.toml");
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

std::string manifest_error(const std::string& text) {
    try {
        parse_suite_manifest(text, "/suites/s.toml");
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

reference_key key(const std::string& precision, double dt, const std::string& backend_class = "cpu") {
    return {"tetrahedron", "", precision, dt, "euler", backend_class};
}

const char* two_rules = R"(
[[rule]]
scenario = "tetrahedron"
observable = "symmetry.max_abs_y1"
precision = ["hi=ds,int=ds", "hi=ds,int=f32"]
kind = "exact"
derivation = "DWPlusFP sums the four float terms exactly"

[[rule]]
scenario = "tetrahedron"
observable = "symmetry.max_abs_y1"
dt = [0.01]
backend_class = ["cpu"]
kind = "band"
tolerance = 10
derivation = "measured spread"
)";

}  // namespace

TEST(RegressionRules, TheFirstMatchingRuleApplies) {
    const check_rules rules = parse_check_rules(two_rules, "checks.toml");
    ASSERT_EQ(rules.rules.size(), 2u);
    EXPECT_EQ(rules.rules[0].id, "tetrahedron/symmetry.max_abs_y1#1");
    const check_rule* ds = rules.find(key("hi=ds,int=ds", 0.01), "symmetry.max_abs_y1");
    ASSERT_NE(ds, nullptr);
    EXPECT_EQ(ds->kind, tolerance_kind::exact);
    const check_rule* f32 = rules.find(key("hi=f32,int=f32", 0.01), "symmetry.max_abs_y1");
    ASSERT_NE(f32, nullptr);
    EXPECT_EQ(f32->kind, tolerance_kind::band);
    EXPECT_EQ(rules.find(key("hi=f32,int=f32", 0.001), "symmetry.max_abs_y1"), nullptr);
    EXPECT_EQ(rules.find(key("hi=f32,int=f32", 0.01, "gpu"), "symmetry.max_abs_y1"), nullptr);
    EXPECT_EQ(rules.find(key("hi=ds,int=ds", 0.01), "cycle.first_period"), nullptr);
}

TEST(RegressionRules, BadRulesGiveOneLineNamingTheRuleAndKey) {
    const std::string base = "[[rule]]\nscenario = \"tetrahedron\"\nobservable = \"cycle.first_period\"\n";
    EXPECT_NE(error_of(base + "kind = \"relative\"\ntolerance = 1e-4\n").find("rule[0].derivation"), std::string::npos);
    EXPECT_NE(error_of(base + "kind = \"roughly\"\nderivation = \"x\"\n").find("rule[0].kind"), std::string::npos);
    EXPECT_NE(error_of(base + "kind = \"relative\"\nderivation = \"x\"\n").find("tolerance"), std::string::npos);
    EXPECT_NE(error_of(base + "kind = \"band\"\ntolerance = 0.5\nderivation = \"x\"\n").find("factor"),
              std::string::npos);
    EXPECT_NE(error_of(base + "kind = \"exact\"\nderivation = \"x\"\ntolerence = 1\n").find("unknown key"),
              std::string::npos);
    EXPECT_NE(
        error_of("[[rule]]\nscenario = \"t\"\nobservable = \"cycle.periodd\"\nkind = \"exact\"\nderivation = \"x\"\n")
            .find("not a regression observable"),
        std::string::npos);
    EXPECT_NE(error_of("[[rule]\n").find("TOML syntax error"), std::string::npos);
    EXPECT_NE(error_of("x = 1\n").find("unknown top-level key"), std::string::npos);
}

TEST(RegressionRules, TheShippedRulesFileIsValid) {
    const check_rules rules =
        load_check_rules(std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml");
    EXPECT_GT(rules.rules.size(), 20u);
    for (const check_rule& r : rules.rules) {
        EXPECT_GT(r.derivation.size(), 40u) << r.id << ": a tolerance needs its derivation";
        EXPECT_FALSE(r.measured_spread.empty() && r.kind != tolerance_kind::exact) << r.id << ": what was measured?";
    }
}

TEST(SuiteManifest, DefaultsLayerUnderRunsAndPathsAreRelativeToTheManifest) {
    const suite_manifest m = parse_suite_manifest(R"(
[suite]
name = "n"
[defaults]
sample_every = 1.0
threads = 1
cuda_hi_kernel = "fused"
[[run]]
name = "a"
scenario = "../scenarios/tetrahedron.toml"
precision = "int=f32,hi=ds"
dt = 0.01
time = 5170.0
[[run]]
name = "b"
scenario = "/abs/x.toml"
precision = "hi=f64,int=f64"
dt = 0.001
time = 5.0
sample_every = 0.001
scalable = false
)",
                                                  "/suites/s.toml");
    ASSERT_EQ(m.runs.size(), 2u);
    EXPECT_EQ(m.runs[0].scenario, std::filesystem::path("/suites/../scenarios/tetrahedron.toml"));
    EXPECT_EQ(m.runs[0].precision, "hi=ds,int=f32");  // canonical
    EXPECT_EQ(m.runs[0].hi_kernels.at("cuda"), "fused");
    EXPECT_EQ(m.runs[1].scenario, std::filesystem::path("/abs/x.toml"));
    EXPECT_DOUBLE_EQ(m.runs[1].sample_every, 0.001);
    // --scale: whole sample intervals, at least one; unscalable runs keep their length.
    EXPECT_DOUBLE_EQ(scaled_time(m.runs[0], 0.01), 52.0);
    EXPECT_DOUBLE_EQ(scaled_time(m.runs[0], 1e-6), 1.0);
    EXPECT_DOUBLE_EQ(scaled_time(m.runs[1], 0.01), 5.0);
}

TEST(SuiteManifest, BadManifestsGiveOneLine) {
    const std::string run = "[[run]]\nname = \"a\"\nscenario = \"t.toml\"\nprecision = \"hi=ds,int=ds\"\ndt = 0.01\n";
    EXPECT_NE(manifest_error(run).find("run[0].time"), std::string::npos);
    EXPECT_NE(manifest_error(run + "time = 5170.005\n").find("multiple of dt"), std::string::npos);
    EXPECT_NE(manifest_error(run + "time = 1.0\nspeed = 2\n").find("unknown key"), std::string::npos);
    EXPECT_NE(manifest_error(run + "time = 1.0\n" + run + "time = 1.0\n").find("duplicate run name"),
              std::string::npos);
    EXPECT_NE(manifest_error("[[run]]\nname = \"a/b\"\n").find("not a safe file name"), std::string::npos);
    EXPECT_NE(manifest_error(run + "time = 1.0\nrelabel_precision = \"hi=f64,int=f64\"\n").find("negative_control"),
              std::string::npos);
    EXPECT_NE(manifest_error("[suite]\nname = \"x\"\n").find("no [[run]]"), std::string::npos);
    // Own segment boundaries only for a negative control that computes what it is labelled.
    EXPECT_NE(manifest_error(run + "time = 1.0\nsegment_references = \"r\"\n").find("run[0].segment_references"),
              std::string::npos);
    EXPECT_NE(manifest_error(run + "time = 1.0\nnegative_control = \"x\"\nrelabel_precision = \"hi=f64,int=f64\"\n" +
                             "segment_references = \"r\"\n")
                  .find("run[0].segment_references"),
              std::string::npos);
}

TEST(SuiteManifest, ANegativeControlsOwnSegmentReferencesAreResolvedAgainstTheManifest) {
    const suite_manifest m = parse_suite_manifest(
        "[[run]]\nname = \"a\"\nscenario = \"t.toml\"\nprecision = \"hi=ds,int=ds\"\ndt = 0.01\ntime = 1.0\n"
        "negative_control = \"x\"\nsegment_references = \"negative/references\"\n",
        "/suites/m.toml");
    EXPECT_EQ(m.runs[0].segment_references, std::filesystem::path("/suites/negative/references"));
}
