// Checkpoints at the engine level: a checkpoint of another mode or size is refused. A restored
// engine continues bit for bit on every backend: tests/backends/engine_resume_conformance.hpp.
#include <gtest/gtest.h>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

TEST(EngineState, MismatchedCheckpointsAreRejected) {
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    engine_config c = make_engine_config(s);
    auto e = make_engine(c, s.particles);
    engine_state st;
    e->save_state(st);
    c.precision = {precision::ds, precision::ds};
    auto other = make_engine(c, s.particles);
    EXPECT_THROW(other->restore_state(st), std::invalid_argument);
    st.precision = c.precision;
    st.position_hi.pop_back();
    EXPECT_THROW(other->restore_state(st), std::invalid_argument);
}
