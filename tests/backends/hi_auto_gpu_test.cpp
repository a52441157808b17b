// --hi-kernel auto and fast on the device (label gpu; skipped without one): whatever auto picks
// (the fused engine for the tetrahedron, for fcc N = 4000 the fused engine or a step-by-step kernel
// by the device's table), the trajectory is
// bit for bit the one of the kernel it names, and of tiling (the default before auto; every exact
// kernel sums in the CPU's order); the engine's description says what was chosen and why; fast
// picks a fast-math kernel and is run to run deterministic (stokesian/backends/hi_kernel_choice.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/frames.hpp"
#include "support/multi_device.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

namespace {

using test_support::expect_bitwise_equal;

struct outcome {
    frame last;
    std::map<std::string, std::string> description;
};

outcome run(engine_config c, const std::string& kernel, const initial_state& s, std::uint64_t steps) {
    c.backend = "cuda";
    c.hi_kernel = kernel;
    auto e = make_engine(c, s);
    e->advance(steps);
    outcome o;
    e->read_frame(o.last);
    o.description = e->description().provenance();
    return o;
}

// auto against the kernel it chose and against tiling, and fast against itself, for one system.
void check_system(const engine_config& c, const initial_state& s, std::uint64_t steps, const std::string& what,
                  const std::string& expected_choice) {
    const outcome automatic = run(c, "auto", s, steps);
    const std::string chosen = automatic.description.at("hi_kernel");
    const std::string& why = automatic.description.at("hi_kernel_choice");
    EXPECT_EQ(why.rfind("auto: " + chosen + " (", 0), 0u) << what << ": " << why;
    if (!expected_choice.empty()) EXPECT_EQ(chosen, expected_choice) << what << ": " << why;
    if (automatic.description.count("hi_math"))  // the step-by-step engine says which arithmetic
        EXPECT_EQ(automatic.description.at("hi_math").find("fast"), std::string::npos) << what << " " << chosen;
    expect_bitwise_equal(automatic.last, run(c, chosen, s, steps).last, what + ": auto (" + chosen + ") vs " + chosen);
    expect_bitwise_equal(automatic.last, run(c, "tiling", s, steps).last, what + ": auto (" + chosen + ") vs tiling");

    const outcome fast = run(c, "fast", s, steps);
    EXPECT_EQ(fast.description.at("hi_kernel").rfind("fast-", 0), 0u) << what;
    EXPECT_EQ(fast.description.at("hi_kernel_choice").rfind("fast: fast-", 0), 0u) << what;
    expect_bitwise_equal(fast.last, run(c, fast.description.at("hi_kernel"), s, steps).last,
                         what + ": fast vs " + fast.description.at("hi_kernel"));
}

// Results do not depend on a tuning cache the user may have: none here.
class HiAutoGpu : public ::testing::Test {
protected:
    void SetUp() override {
        const char* xdg = std::getenv("XDG_CACHE_HOME");
        saved_ = xdg ? std::optional<std::string>(xdg) : std::nullopt;
        dir_ = std::filesystem::temp_directory_path() / "stokesian_hi_auto_gpu_cache";
        std::filesystem::remove_all(dir_);
        ::setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
    }
    void TearDown() override {
        if (saved_) ::setenv("XDG_CACHE_HOME", saved_->c_str(), 1);
        else ::unsetenv("XDG_CACHE_HOME");
        std::filesystem::remove_all(dir_);
    }

private:
    std::optional<std::string> saved_;
    std::filesystem::path dir_;
};

}  // namespace

// The tetrahedron (N = 4, Euler, no lubrication): auto takes the fused engine on every device (the
// fallback table too allows it up to N = 32), bit for bit tiling, in every precision mode.
TEST_F(HiAutoGpu, TetrahedronAutoIsBitwiseTheNamedKernelInEveryMode) {
    REQUIRE_DEVICE();
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    for (precision hi : precisions)
        for (precision in : precisions) {
            engine_config c = make_engine_config(s);
            c.precision = {hi, in};
            check_system(c, s.particles, 2000, "tetrahedron " + to_string(c.precision), "fused");
        }
}

// fcc N = 4000 at n = 0.1 a^-3 in a periodic box (the nightly's fcc_sedimentation without
// lubrication, so device and host agree too): the fused engine where the device's table takes it
// that far (cc 9.0: f32 and f64), a step-by-step kernel elsewhere (cc 9.0: ds); bit for bit tiling
// either way.
TEST_F(HiAutoGpu, Fcc4000AutoIsBitwiseTheNamedKernel) {
    REQUIRE_DEVICE();
    const int cells = 10;
    const double a = fcc_lattice_constant(0.1);
    initial_state s;
    s.positions = fcc_lattice(cells, a);
    s.external_forces.assign(s.positions.size(), {0, 0, -1});
    ASSERT_EQ(s.positions.size(), 4000u);
    for (precision hi : precisions) {
        engine_config c;
        const double edge = cells * a;
        c.system.box = {true, {edge, edge, edge}};
        c.precision = {hi, hi};
        c.dt = 0.001;
        check_system(c, s, 5, "fcc N = 4000 " + to_string(c.precision), "");
    }
}

// Two devices: the fused engine within its bounds measured on two (hi_kernel_table.cpp), with and
// without short-range forces; a step-by-step kernel past them.
TEST_F(HiAutoGpu, AutoOnTwoDevicesIsFusedWithinItsBoundsWithAndWithoutShortRangeForces) {
    REQUIRE_DEVICE();
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "cuda";
    c.hi_kernel = "auto";
    device_context two;
    two.ordinals = {0, 1};
    const backends::registry::resolved r =
        backends::backend_registry().resolve_on(c, s.particles.size(), "the run", device_context{});
    EXPECT_EQ(r.config.hi_kernel, "fused");
    EXPECT_EQ(r.chosen->name, "cuda");
    FAIL_IF_GPUS_WITHHELD(2);
    if (cuda::device_count() < 2) GTEST_SKIP() << "one device: the several-device choice needs two";
    if (const std::string why = cuda::peer_access_refusal({0, 1}); !why.empty())
        GTEST_SKIP() << why << ": the fused engine cannot run on these two";
    const backends::registry::resolved several =
        backends::backend_registry().resolve_on(c, s.particles.size(), "the run", two);
    EXPECT_EQ(several.config.hi_kernel, "fused");
    EXPECT_EQ(several.chosen->name, "cuda");
    c.system.lubrication.enabled = true;
    const backends::registry::resolved lubricated =
        backends::backend_registry().resolve_on(c, s.particles.size(), "the run", two);
    EXPECT_EQ(lubricated.config.hi_kernel, "fused");
    EXPECT_EQ(lubricated.chosen->name, "cuda");
    // Past every bound of the table (hi_kernel_table.cpp: at most 42 592): the step-by-step engine.
    const backends::registry::resolved large = backends::backend_registry().resolve_on(c, 100000, "the run", two);
    EXPECT_NE(large.config.hi_kernel, "fused");
    EXPECT_EQ(large.chosen->name, "cuda");
}
