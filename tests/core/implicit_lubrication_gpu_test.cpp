// The implicit lubrication scheme and the CUDA backend's fused path (label gpu; skipped without a
// device): the fused engine refuses the scheme. The scheme on every backend (the head-on pair's law
// and the CPU's gaps, every solve's true residual, the dense solve, the resume):
// tests/backends/implicit_lubrication_conformance.hpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/require_device.hpp"

TEST(ImplicitLubricationGpu, FusedPathRefusesTheImplicitScheme) {
    using namespace stokesian;
    REQUIRE_DEVICE();
    const scenario s = load_scenario(
        std::filesystem::path(test_support::project_source_dir) / "scenarios" / "approaching_pairs_implicit.toml",
        "head_on");
    engine_config c = make_engine_config(s);
    c.backend = "cuda";
    c.hi_kernel = "fused";
    EXPECT_THROW(make_engine(c, s.particles), input_error);  // one line on run.hi_kernel, exit 2
}
