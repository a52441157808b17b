// Checkpoints at the engine level: save_state/restore_state continue a run bit for bit.
#include <gtest/gtest.h>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {
void expect_same(const frame& a, const frame& b, const std::string& what) {
    ASSERT_EQ(a.step, b.step) << what;
    for (std::size_t i = 0; i < a.position.size(); ++i) {
        ASSERT_EQ(a.position[i], b.position[i]) << what << " particle " << i;
        ASSERT_EQ(a.velocity[i], b.velocity[i]) << what << " particle " << i;
        ASSERT_EQ(a.force[i], b.force[i]) << what << " particle " << i;
        ASSERT_EQ(a.image[i], b.image[i]) << what << " particle " << i;
    }
}
}  // namespace

TEST(EngineState, ResumedCpuRunIsBitwiseTheUninterruptedOneInEveryMode) {
    // The approaching pair: lubrication uses the previous velocities, which the state must carry.
    const scenario s = load_scenario(
        std::string(::stokesian::test_support::project_source_dir) + "/scenarios/approaching_pairs.toml", "oblique");
    for (precision hi : {precision::f32, precision::ds, precision::f64})
        for (precision in : {precision::f32, precision::ds, precision::f64}) {
            engine_config c = make_engine_config(s);
            c.precision = {hi, in};
            c.threads = 1;
            auto straight = make_engine(c, s.particles);
            straight->advance(300);
            frame expected;
            straight->read_frame(expected);

            auto first = make_engine(c, s.particles);
            first->advance(120);
            engine_state saved;
            first->save_state(saved);
            auto second = make_engine(c, s.particles);  // a fresh engine, as after a restart
            second->restore_state(saved);
            second->advance(180);
            frame resumed;
            second->read_frame(resumed);
            expect_same(expected, resumed, to_string(c.precision));
        }
}

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
