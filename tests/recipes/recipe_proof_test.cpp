// The recipe proof (ci/recipe-proof): one test with each addition this build made by following
// engine/README.md's recipes (a precision mode, a tensor, a backend, a scenario key), from this
// folder and through the recipes' extension points alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/scenario_reference.hpp"

using namespace stokesian;

namespace {

// Four particles on integer positions in an open box, pulled down; a = mu0 = 1, dt = 1/2.
struct configuration {
    engine_config config;
    initial_state particles;
};

configuration four_particles(hydrodynamic_tensor tensor = hydrodynamic_tensor::rotne_prager) {
    configuration c;
    c.config.system.tensor = tensor;
    c.config.dt = 0.5;
    c.config.threads = 1;
    c.particles.positions = {{-2.0, 0.0, 0.0}, {2.0, 0.0, 0.0}, {0.0, 3.0, 0.0}, {0.0, 0.0, 4.0}};
    c.particles.external_forces.assign(4, {0.0, 0.0, -1.0});
    return c;
}

// v_i = F_i + sum_{j != i} |r_i - r_j|^2 F_j: the test-only tensor's sum, exact for these integers.
std::vector<double> squared_distance_velocities(const initial_state& s) {
    std::vector<double> v;
    for (std::size_t i = 0; i < s.size(); ++i) {
        vec3<double> sum = s.external_forces[i];
        for (std::size_t j = 0; j < s.size(); ++j) {
            const vec3<double> r = s.positions[i] - s.positions[j];
            if (j != i) sum = sum + (r.x * r.x + r.y * r.y + r.z * r.z) * s.external_forces[j];
        }
        v.insert(v.end(), {sum.x, sum.y, sum.z});
    }
    return v;
}

// mu F of the registered backend `name` for the configuration and its forces.
std::vector<double> mobility_times_force(const std::string& name, const configuration& s) {
    const backends::backend* b = backends::backend_registry().find(name);
    auto mu = b->make_mobility(s.config.system, s.particles.positions, device_context{}, 1);
    std::vector<double> force, velocity(3 * s.particles.size());
    for (const vec3<double>& f : s.particles.external_forces) force.insert(force.end(), {f.x, f.y, f.z});
    mu->apply(force, velocity);
    return velocity;
}

frame after_steps(precision_mode mode, std::uint64_t steps) {
    configuration s = four_particles();
    s.config.precision = mode;
    auto e = make_engine(s.config, s.particles);
    e->advance(steps);
    frame f;
    e->read_frame(f);
    return f;
}

}  // namespace

// Precision mode: t64 (precision_t64.hpp) is in the list, its modes parse, and the CPU backend
// (instantiated for every mode of the list) steps it with the bits of f64, whose types it has.
TEST(RecipeProof, TheTestOnlyPrecisionModeRunsAsF64) {
    ASSERT_NE(std::find(precisions.begin(), precisions.end(), precision::t64), precisions.end());
    EXPECT_EQ(precision_modes.size(), precisions.size() * precisions.size());
    const precision_mode t64 = parse_precision_mode("hi=t64,int=t64");
    EXPECT_EQ(t64, (precision_mode{precision::t64, precision::t64}));
    const frame mine = after_steps(t64, 3), f64 = after_steps(reference_precision_mode, 3);
    EXPECT_EQ(mine.step, 3u);
    EXPECT_EQ(mine.position, f64.position);
    EXPECT_NE(mine.position, four_particles().particles.positions);
}

// A precision the measured kernel tables have no row of: auto takes the rows of devices of no
// measured class (every precision of the list has one there) instead of failing.
TEST(RecipeProof, AutoChoosesAKernelForTheTestOnlyPrecision) {
    backends::kernel_query q;
    q.particles = 4000;
    q.hi = precision::t64;
    q.periodic = true;
    q.device_name = "NVIDIA H100 80GB HBM3";
    q.compute_capability = "9.0";
    q.request = backends::kernel_request::automatic;
    q.candidates = {{"tiling", "ordered-split"}, {"fast-split"}};
    const backends::kernel_choice c = backends::choose_cuda_kernel(q, nullptr);
    EXPECT_EQ(c.kernel, "tiling") << c.reason;
    EXPECT_NE(c.reason.find("no row of hi=t64"), std::string::npos) << c.reason;
}

// Tensor: recipe-squared-distance (tensor_recipe_squared_distance.hpp) is a spelling the scenario
// key `tensor` accepts (the registered names, parse_tensor) and the CPU backend's HI sum,
// instantiated for every registered tensor, evaluates it: the exact sum.
TEST(RecipeProof, TheTestOnlyTensorIsASpellingTheCpuBackendEvaluates) {
    EXPECT_EQ(parse_tensor("recipe-squared-distance"), hydrodynamic_tensor::recipe_squared_distance);
    EXPECT_EQ(to_string(hydrodynamic_tensor::recipe_squared_distance), "recipe-squared-distance");
    const configuration s = four_particles(hydrodynamic_tensor::recipe_squared_distance);
    EXPECT_NE(std::find(registered_tensor_names.begin(), registered_tensor_names.end(), "recipe-squared-distance"),
              registered_tensor_names.end());
    EXPECT_EQ(mobility_times_force("cpu", s), squared_distance_velocities(s.particles));
}

// Backend: "recipe" (recipe/, recipe_registration.cpp) is registered with its capabilities, computes
// mu F by its own sum and steps by name through make_engine.
TEST(RecipeProof, TheTestOnlyBackendIsRegisteredWithItsCapabilitiesAndComputesMuF) {
    const backends::registry& r = backends::backend_registry();
    ASSERT_NE(r.find("recipe"), nullptr) << r.names();
    EXPECT_TRUE(r.accepts("recipe"));
    const configuration s = four_particles(hydrodynamic_tensor::recipe_squared_distance);
    const std::vector<double> v = squared_distance_velocities(s.particles);
    EXPECT_EQ(mobility_times_force("recipe", s), v);

    engine_config c = s.config;
    c.backend = "recipe";
    auto e = make_engine(c, s.particles);
    EXPECT_EQ(e->description().backend, "recipe");
    e->advance(1);
    frame f;
    e->read_frame(f);
    for (std::size_t i = 0; i < s.particles.size(); ++i) {  // r + dt v, exact: dt = 1/2, integers
        EXPECT_EQ(f.position[i].x, s.particles.positions[i].x + 0.5 * v[3 * i]) << i;
        EXPECT_EQ(f.position[i].z, s.particles.positions[i].z + 0.5 * v[3 * i + 2]) << i;
    }
    // Its capabilities, which auto and suites read: hi=f64,int=f64 alone, pair-form tensors.
    const backends::capabilities& can = r.find("recipe")->can;
    EXPECT_EQ(can.refusal(c, s.particles.size()), "");
    c.precision = {precision::f32, precision::f32};
    EXPECT_NE(can.refusal(c, s.particles.size()).find("does not run precision hi=f32,int=f32"), std::string::npos)
        << can.refusal(c, s.particles.size());
}

// Scenario key: [output] recipe_note (output_key_recipe_note.hpp) is read from TOML, written into the
// resolved configuration's [output] (which is always written) only when set, refused in one line naming it for a value of another type,
// and has its row in the generated [output] table of the reference.
TEST(RecipeProof, TheTestOnlyScenarioKeyIsReadWrittenAndDocumented) {
    const std::string pair =
        "[scenario]\nname = \"pair\"\n[box]\nboundary = \"open\"\n[particles]\n"
        "positions = [[-2.0, 0.0, 0.0], [2.0, 0.0, 0.0]]\nforce = [0.0, 0.0, -1.0]\n"
        "[run]\ndt = 0.5\nsteps = 2\n";
    const scenario plain = parse_scenario(pair, "x.toml");
    EXPECT_EQ(plain.output.recipe_note, "");
    EXPECT_EQ(resolved_configuration(plain).find("recipe_note"), std::string::npos);

    const scenario noted = parse_scenario(pair + "[output]\nrecipe_note = \"proven\"\n", "x.toml");
    EXPECT_EQ(noted.output.recipe_note, "proven");
    const std::string resolved = resolved_configuration(noted);
    EXPECT_NE(resolved.find("\n[output]\nrecipe_note = \"proven\"\n"), std::string::npos) << resolved;

    try {
        (void)parse_scenario(pair + "[output]\nrecipe_note = 7\n", "x.toml");
        ADD_FAILURE() << "recipe_note = 7 accepted";
    } catch (const input_error& e) {
        EXPECT_STREQ(e.what(), "x.toml: key 'output.recipe_note' = 7: expected a string");
    }

    const std::string row = "| `recipe_note` | string | none |";
    EXPECT_NE(settings::scenario_key_table("output").find(row), std::string::npos);
    std::ifstream in(STOKESIAN_SOURCE_DIR "/docs/reference/scenario-file.md");
    std::stringstream reference;
    reference << in.rdbuf();
    ASSERT_NE(reference.str().find("<!-- scenario-keys: output -->"), std::string::npos);
    EXPECT_EQ(reference.str().find(row), std::string::npos);  // the default build's reference: without it
    EXPECT_NE(settings::with_generated_key_tables(reference.str()).find(row), std::string::npos);
}
