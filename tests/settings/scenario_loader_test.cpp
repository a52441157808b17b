// The scenario loader: the shipped scenarios, the corpus of broken inputs (tests/inputs/bad, each
// with a first line "# expect: <part of the message>"), valid edge cases (tests/inputs/good), and
// the resolved configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/physics/mobility.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/bad_scenarios.hpp"
#include "support/build_paths.hpp"
#include "support/scenario_texts.hpp"
#include "support/toml_document.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

const fs::path scenarios_dir = fs::path(::stokesian::test_support::project_source_dir) / "scenarios";
const fs::path inputs_dir = fs::path(::stokesian::test_support::project_source_dir) / "tests" / "inputs";

std::vector<fs::path> toml_files(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The message of the input_error that loading throws ("" when it loads).
std::string load_error(const fs::path& path, const std::string& case_name = {}) {
    try {
        load_scenario(path, case_name);
    } catch (const input_error& e) {
        return e.what();
    }
    return {};
}

std::string parse_error(const std::string& text, const std::string& case_name = {}) {
    try {
        parse_scenario(text, "text.toml", case_name);
    } catch (const input_error& e) {
        return e.what();
    }
    return {};
}

double minimum_image_distance(vec3<double> a, vec3<double> b, const box_settings& box) {
    const vec3<double> d = minimum_image(a - b, box_geometry<double>{box.periodic, box.edges});
    return std::sqrt(dot(d, d));
}

const std::string minimal = test_support::two_sphere_scenario("minimal");

}  // namespace

// ---- shipped scenarios --------------------------------------------------------------------------

TEST(ScenarioLoaderShipped, Tetrahedron) {
    const scenario s = load_scenario(scenarios_dir / "tetrahedron.toml");
    EXPECT_EQ(s.name, "tetrahedron");
    EXPECT_TRUE(s.case_name.empty());
    EXPECT_EQ(s.source_path, scenarios_dir / "tetrahedron.toml");
    EXPECT_NE(s.source_text.find("[particles]"), std::string::npos);
    ASSERT_EQ(s.particles.size(), 4u);
    const std::vector<vec3<double>> expected{{5, 0, 5}, {0, 5, -5}, {-5, 0, 5}, {0, -5, -5}};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(s.particles.positions[i], expected[i]) << i;
        EXPECT_EQ(s.particles.external_forces[i], (vec3<double>{0, 0, -1})) << i;
    }
    EXPECT_TRUE(s.system.box.periodic);
    EXPECT_EQ(s.system.box.edges, (vec3<double>{64, 64, 64}));
    EXPECT_EQ(s.system.radius, 1.0);
    EXPECT_EQ(s.system.self_mobility, 1.0);
    EXPECT_EQ(s.system.tensor, hydrodynamic_tensor::rotne_prager);
    EXPECT_FALSE(s.system.lubrication.enabled);
    EXPECT_EQ(s.system.pair_force.kind, pair_force_kind::none);
    EXPECT_EQ(s.run.dt, 0.01);
    EXPECT_EQ(s.run.total_steps(), 517000u);
    EXPECT_EQ(s.run.sample_interval_steps(), 100u);
    EXPECT_EQ(s.run.precision, reference_precision_mode);
    EXPECT_EQ(s.run.integrator, integrator_kind::euler);
    ASSERT_TRUE(s.observables.cycle.has_value());
    EXPECT_EQ(s.observables.cycle->particle, 0u);
    EXPECT_EQ(s.observables.cycle->component, 0);
    EXPECT_TRUE(s.observables.tetrahedron_symmetry);
    // The symmetry relations of the paper hold at t = 0: y1 = y3 = x2 = x4 = 0, x3 = -x1, z3 = z1, z4 = z2.
    const auto& r = s.particles.positions;
    EXPECT_EQ(r[0].y, 0.0);
    EXPECT_EQ(r[2].y, 0.0);
    EXPECT_EQ(r[1].x, 0.0);
    EXPECT_EQ(r[3].x, 0.0);
    EXPECT_EQ(r[2].x, -r[0].x);
    EXPECT_EQ(r[2].z, r[0].z);
    EXPECT_EQ(r[3].z, r[1].z);
}

TEST(ScenarioLoaderShipped, FccSedimentation) {
    const scenario s = load_scenario(scenarios_dir / "fcc_sedimentation.toml");
    ASSERT_EQ(s.particles.size(), 4000u);
    // b = (4/n)^(1/3) rounded to 15 significant bits (core/lattice.hpp): the density stays within
    // 3 * 2^-15 relative of n, and L = 10 b is exact in float.
    const double b = fcc_lattice_constant(0.1);
    const double edge = 10.0 * b;
    EXPECT_NEAR(b, std::cbrt(40.0), std::ldexp(std::cbrt(40.0), -15));
    EXPECT_NEAR(4000.0 / (edge * edge * edge), 0.1, 3 * std::ldexp(0.1, -15));
    EXPECT_EQ(static_cast<double>(static_cast<float>(edge)), edge);
    EXPECT_TRUE(s.system.box.periodic);
    EXPECT_EQ(s.system.box.edges, (vec3<double>{edge, edge, edge}));
    EXPECT_FALSE(s.system.lubrication.enabled);  // the explicit scheme is unstable here (file header)
    EXPECT_EQ(s.run.dt, 0.001);
    EXPECT_EQ(s.run.total_steps(), 100u);
    EXPECT_EQ(s.run.sample_interval_steps(), 10u);
    for (const auto& f : s.particles.external_forces) ASSERT_EQ(f, (vec3<double>{0, 0, -1}));
    for (const auto& r : s.particles.positions)
        for (double x : {r.x, r.y, r.z}) {
            ASSERT_GE(x, -0.5 * edge);
            ASSERT_LT(x, 0.5 * edge);
        }
    // All pairs, minimum image: nearest neighbours at b / sqrt(2), nobody closer than 2a.
    const double nearest_expected = (edge / 10.0) / std::sqrt(2.0);
    double nearest = std::numeric_limits<double>::infinity();
    const auto& r = s.particles.positions;
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = i + 1; j < r.size(); ++j)
            nearest = std::min(nearest, minimum_image_distance(r[i], r[j], s.system.box));
    EXPECT_NEAR(nearest, nearest_expected, 1e-12 * nearest_expected);
    EXPECT_GT(nearest, 2.0);
    EXPECT_LT(nearest, 3.0);  // inside the lubrication range, as the file's header says
}

TEST(ScenarioLoaderShipped, ApproachingPairsCases) {
    const fs::path path = scenarios_dir / "approaching_pairs.toml";
    const scenario head_on = load_scenario(path);
    EXPECT_EQ(head_on.case_name, "head_on");
    EXPECT_FALSE(head_on.system.box.periodic);
    EXPECT_TRUE(head_on.system.lubrication.enabled);
    EXPECT_EQ(head_on.system.pair_force.kind, pair_force_kind::none);
    EXPECT_EQ(head_on.run.dt, 0.001);
    ASSERT_EQ(head_on.particles.size(), 2u);
    EXPECT_EQ(head_on.particles.positions[0], (vec3<double>{-1.25, 0, 0}));
    EXPECT_EQ(head_on.particles.positions[1], (vec3<double>{1.25, 0, 0}));
    EXPECT_EQ(head_on.particles.external_forces[0], (vec3<double>{1, 0, 0}));
    EXPECT_EQ(head_on.particles.external_forces[1], (vec3<double>{-1, 0, 0}));
    EXPECT_NE(head_on.description.find("; case head_on: Equal and opposite"), std::string::npos) << head_on.description;

    const scenario explicit_head_on = load_scenario(path, "head_on");
    EXPECT_EQ(explicit_head_on.particles.external_forces[0], head_on.particles.external_forces[0]);

    const scenario oblique = load_scenario(path, "oblique");
    EXPECT_EQ(oblique.case_name, "oblique");
    EXPECT_EQ(oblique.particles.positions[0], (vec3<double>{-1.25, 0, 0}));
    EXPECT_EQ(oblique.particles.external_forces[0], (vec3<double>{1, 0, 0.5}));
    EXPECT_EQ(oblique.particles.external_forces[1], (vec3<double>{-1, 0, -0.5}));
    EXPECT_EQ(oblique.run.total_steps(), head_on.run.total_steps());

    const std::string error = load_error(path, "nope");
    EXPECT_EQ(error.rfind(path.string(), 0), 0u) << error;
    EXPECT_NE(error.find("no case 'nope'"), std::string::npos) << error;
    EXPECT_NE(error.find("available cases: head_on, oblique"), std::string::npos) << error;
}

// ---- broken inputs ------------------------------------------------------------------------------

TEST(ScenarioLoaderBadInputs, EveryFileFailsWithItsMessage) {
    const auto corpus = test_support::bad_scenarios();
    EXPECT_GE(corpus.size(), 40u);
    for (const auto& [path, expected] : corpus) {
        SCOPED_TRACE(path.filename().string());
        ASSERT_FALSE(expected.empty()) << "first line must be '# expect: ...'";
        std::string message;
        try {
            load_scenario(path);
            ADD_FAILURE() << "loaded without error";
            continue;
        } catch (const input_error& e) {
            message = e.what();
        } catch (const std::exception& e) {
            ADD_FAILURE() << "threw something other than input_error: " << e.what();
            continue;
        }
        EXPECT_NE(message.find(expected), std::string::npos) << "message: " << message;
        EXPECT_EQ(message.rfind(path.string(), 0), 0u) << "message does not start with the path: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "message is not one line: " << message;
    }
}

TEST(ScenarioLoaderBadInputs, MissingFile) {
    const fs::path path = inputs_dir / "no_such_scenario.toml";
    EXPECT_EQ(load_error(path), path.string() + ": cannot read the scenario file (No such file or directory)");
}

TEST(ScenarioLoaderBadInputs, SyntaxErrorNamesLineAndColumn) {
    const std::string error = parse_error("[scenario]\nname = \"x\"\nbroken = = 1\n");
    EXPECT_EQ(error.rfind("text.toml:3:", 0), 0u) << error;
    EXPECT_NE(error.find(": TOML syntax error: "), std::string::npos) << error;
}

TEST(ScenarioLoaderBadInputs, CaseRequestedWithoutCases) {
    const std::string error = parse_error(minimal, "head_on");
    EXPECT_NE(error.find("case 'head_on' was requested, but the file defines no [cases]"), std::string::npos) << error;
}

TEST(ScenarioLoaderBadInputs, LongValuesAreShortened) {
    std::string text = minimal;
    std::string forces = "forces = [";
    for (int i = 0; i < 40; ++i) forces += "[0.0, 0.0, -1.0], ";
    forces += "]";
    const std::string single = "force = [0.0, 0.0, -1.0]";
    text.replace(text.find(single), single.size(), forces);
    const std::string error = parse_error(text);
    EXPECT_NE(error.find("40 forces for 2 particles"), std::string::npos) << error;
    EXPECT_NE(error.find("...:"), std::string::npos) << error;
    EXPECT_LT(error.size(), 200u) << error;
}

// ---- valid edge cases ---------------------------------------------------------------------------

TEST(ScenarioLoaderGoodInputs, EveryFileLoads) {
    const auto files = toml_files(inputs_dir / "good");
    EXPECT_GE(files.size(), 5u);
    for (const auto& path : files) EXPECT_EQ(load_error(path), "") << path.filename();
}

TEST(ScenarioLoaderGoodInputs, ViscosityGivesStokesMobility) {
    const scenario s = load_scenario(inputs_dir / "good" / "viscosity.toml");
    EXPECT_EQ(s.system.radius, 2.0);
    EXPECT_DOUBLE_EQ(s.system.self_mobility, 1.0 / (6.0 * std::numbers::pi * 0.0530516 * 2.0));
    EXPECT_EQ(s.system.self_mobility, stokes_self_mobility(0.0530516, 2.0));
}

TEST(ScenarioLoaderGoodInputs, UpperBoundaryIsWrapped) {
    const scenario s = load_scenario(inputs_dir / "good" / "position_at_half_edge.toml");
    ASSERT_EQ(s.particles.size(), 2u);
    EXPECT_EQ(s.particles.positions[0], (vec3<double>{-20.0, 0.0, -20.0}));  // written as (20, 0, 20)
    EXPECT_EQ(s.particles.positions[1], (vec3<double>{-20.0, 5.0, 0.0}));    // -L/2 stays
}

TEST(ScenarioLoaderGoodInputs, IntegersWhereNumbersAreExpected) {
    const scenario s = load_scenario(inputs_dir / "good" / "integers_for_floats.toml");
    EXPECT_EQ(s.run.dt, 1.0);
    EXPECT_EQ(s.run.total_steps(), 100u);
    EXPECT_EQ(s.run.sample_interval_steps(), 5u);
    EXPECT_EQ(s.system.box.edges, (vec3<double>{40, 40, 40}));
    EXPECT_EQ(s.particles.positions[1], (vec3<double>{3, 0, 0}));
    EXPECT_EQ(s.particles.external_forces[0], (vec3<double>{0, 0, -1}));
    EXPECT_EQ(s.run.sample_every, 5.0);
}

TEST(ScenarioLoaderGoodInputs, AllowOverlap) {
    const scenario s = load_scenario(inputs_dir / "good" / "allow_overlap.toml");
    EXPECT_EQ(s.particles.size(), 3u);
    EXPECT_EQ(s.particles.positions[0], s.particles.positions[1]);
}

TEST(ScenarioLoaderGoodInputs, OpenBoxFarApart) {
    const scenario s = load_scenario(inputs_dir / "good" / "open_box.toml");
    EXPECT_FALSE(s.system.box.periodic);
    EXPECT_EQ(s.particles.positions[1], (vec3<double>{1e6, -1e6, 3e5}));
    EXPECT_EQ(s.system.tensor, hydrodynamic_tensor::oseen);
    EXPECT_EQ(s.run.precision, (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(s.run.backend, "auto");
    EXPECT_EQ(s.run.hi_kernel, "tiled");
    EXPECT_FALSE(s.run.write_trajectory);
    // Default sampling: the multiple of dt closest to 1 tau_s.
    EXPECT_EQ(s.run.sample_interval_steps(), 3u);
}

TEST(ScenarioLoaderGoodInputs, CasesOverrideByLayer) {
    const fs::path path = inputs_dir / "good" / "cases_override.toml";
    const scenario base = load_scenario(path);  // the first case in file order, not alphabetical
    EXPECT_EQ(base.case_name, "zeta");
    EXPECT_EQ(base.run.total_steps(), 100u);
    EXPECT_EQ(base.system.self_mobility, 1.0);
    EXPECT_TRUE(base.system.lubrication.enabled);

    const scenario alpha = load_scenario(path, "alpha");
    // steps in the case replaces the top-level time; viscosity replaces self_mobility.
    EXPECT_TRUE(alpha.run.steps.has_value());
    EXPECT_FALSE(alpha.run.time.has_value());
    EXPECT_EQ(alpha.run.total_steps(), 7u);
    EXPECT_EQ(alpha.system.self_mobility, stokes_self_mobility(0.1, 1.0));
    // Deep merge: the case sets min_gap only, enabled comes from the top level.
    EXPECT_TRUE(alpha.system.lubrication.enabled);
    EXPECT_EQ(alpha.system.lubrication.min_gap, 1e-3);
    // A case's [particles] replaces the top-level table wholesale.
    ASSERT_EQ(alpha.particles.size(), 3u);
    EXPECT_EQ(alpha.particles.external_forces[2], (vec3<double>{0, 0, -2}));
    EXPECT_EQ(alpha.run.dt, base.run.dt);
}

TEST(ScenarioLoaderGoodInputs, PerturbedLatticeIsReproducible) {
    const fs::path path = inputs_dir / "good" / "lattice_perturbed.toml";
    const scenario a = load_scenario(path);
    const scenario b = load_scenario(path);
    ASSERT_EQ(a.particles.size(), 4u * 27u);
    const double edge = a.system.box.edges.x;
    EXPECT_EQ(edge, 3.0 * fcc_lattice_constant(0.05));
    const auto perfect = fcc_lattice(3, edge / 3.0);
    double largest_shift = 0.0;
    for (std::size_t i = 0; i < a.particles.size(); ++i) {
        EXPECT_EQ(a.particles.positions[i], b.particles.positions[i]);
        const auto& r = a.particles.positions[i];
        for (double x : {r.x, r.y, r.z}) {
            EXPECT_GE(x, -0.5 * edge);
            EXPECT_LT(x, 0.5 * edge);
        }
        largest_shift = std::max(largest_shift, minimum_image_distance(r, perfect[i], a.system.box));
    }
    EXPECT_GT(largest_shift, 0.0);
    EXPECT_LE(largest_shift, 0.2 * std::sqrt(3.0) + 1e-12);
}

// ---- resolved configuration, engine config, run settings ------------------------------------------

TEST(ScenarioLoaderResolved, ParsesBackWithEveryResolvedValue) {
    const scenario s = load_scenario(inputs_dir / "good" / "viscosity.toml");
    const std::string text = resolved_configuration(s);
    toml::table doc;
    ASSERT_NO_THROW(doc = toml::parse(text)) << text;
    EXPECT_EQ(doc["scenario"]["name"].value<std::string>(), s.name);
    EXPECT_EQ(doc["particles"]["count"].value<std::int64_t>(), 2);
    EXPECT_EQ(doc["physics"]["self_mobility"].value<double>(), s.system.self_mobility);  // exact round trip
    EXPECT_EQ(doc["physics"]["radius"].value<double>(), 2.0);
    EXPECT_EQ(doc["physics"]["tensor"].value<std::string>(), "rotne-prager");
    EXPECT_EQ(doc["physics"]["lubrication"]["min_gap"].value<double>(), 1e-6);  // a default
    EXPECT_EQ(doc["run"]["total_steps"].value<std::int64_t>(), static_cast<std::int64_t>(s.run.total_steps()));
    EXPECT_EQ(doc["run"]["precision"].value<std::string>(), "hi=f64,int=f64");
    EXPECT_TRUE(doc["particles"]["positions_fnv1a64"].is_string());
    EXPECT_NE(text.find("min_gap = 1e-06\n"), std::string::npos) << text;  // shortest round-trip form
}

TEST(ScenarioLoaderResolved, ShowsComputedEdgesAndCase) {
    const scenario fcc = load_scenario(scenarios_dir / "fcc_sedimentation.toml");
    const toml::table doc = toml::parse(resolved_configuration(fcc));
    EXPECT_EQ(doc["particles"]["count"].value<std::int64_t>(), 4000);
    EXPECT_EQ(doc["box"]["edges"][0].value<double>(), fcc.system.box.edges.x);
    EXPECT_EQ(doc["box"]["boundary"].value<std::string>(), "periodic");
    EXPECT_FALSE(doc["particles"]["positions"]);  // too many to list; count and fingerprint instead
    EXPECT_EQ(doc["particles"]["force"][2].value<double>(), -1.0);

    const scenario pair = load_scenario(scenarios_dir / "approaching_pairs.toml", "oblique");
    const toml::table pair_doc = toml::parse(resolved_configuration(pair));
    EXPECT_EQ(pair_doc["scenario"]["case"].value<std::string>(), "oblique");
    EXPECT_EQ(pair_doc["particles"]["forces"][0][2].value<double>(), 0.5);
    EXPECT_EQ(pair_doc["particles"]["positions"][1][0].value<double>(), 1.25);
    EXPECT_FALSE(pair_doc["box"]["edges"]);
}

TEST(ScenarioLoaderResolved, EngineConfig) {
    std::string text = minimal;
    text += "precision = \"hi=ds,int=f32\"\nbackend = \"auto\"\nhi_kernel = \"naive\"\n";
    const scenario s = parse_scenario(text, "text.toml");
    const engine_config c = make_engine_config(s);
    EXPECT_EQ(c.precision, (precision_mode{precision::ds, precision::f32}));
    EXPECT_EQ(c.backend, "auto");
    EXPECT_EQ(c.hi_kernel, "naive");
    EXPECT_EQ(c.dt, 0.01);
    EXPECT_EQ(c.threads, 0u);
    EXPECT_EQ(c.integrator, integrator_kind::euler);
    EXPECT_EQ(c.system.box.periodic, s.system.box.periodic);
    EXPECT_EQ(c.system.radius, s.system.radius);
}

TEST(ScenarioLoaderRunSettings, StepsAndSampling) {
    run_settings r;
    r.dt = 0.01;
    r.time = 5170.0;
    r.sample_every = 1.0;
    EXPECT_EQ(r.total_steps(), 517000u);
    EXPECT_EQ(r.sample_interval_steps(), 100u);
    r.time.reset();
    r.steps = 42;
    EXPECT_EQ(r.total_steps(), 42u);
    r.sample_every = 0.001;  // below dt: every step
    EXPECT_EQ(r.sample_interval_steps(), 1u);
    // Time within 1e-9 relative of a multiple of dt is accepted and rounded.
    const scenario s =
        parse_scenario(minimal.substr(0, minimal.find("steps")) + "time = 0.30000000000000004\n", "t.toml");
    EXPECT_EQ(s.run.total_steps(), 30u);
}
