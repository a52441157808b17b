#pragma once
// Checkpoints at the engine level (save_state/restore_state) on every registered backend, one body
// per behaviour, parametrised over (backend x HI kernel x precision mode) or (backend x mode)
// (support/backend_modes.hpp). Included by engine_resume_conformance_test.cpp (the host backends,
// label quick) and engine_resume_conformance_gpu_test.cpp (the device backends, label gpu).
//   EngineResumeConformance (every kernel of every backend, every mode): a fresh engine restored
//     from a checkpoint continues the run bit for bit.
//   CpuCheckpointConformance (every backend but the CPU, every mode): a CPU checkpoint of the
//     tetrahedron (no short-range forces: the backends agree bit for bit, step_conformance.hpp)
//     resumed on the backend continues the CPU's run bit for bit.
#include <gtest/gtest.h>

#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/frames.hpp"

class EngineResumeConformance : public testing::TestWithParam<stokesian::test_support::backend_kernel_mode> {};
class CpuCheckpointConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};

// The oblique approaching pair (lubrication uses the previous velocities, which the state must
// carry): 300 steps straight against 120, a checkpoint, a fresh engine (as after a restart) and 180.
TEST_P(EngineResumeConformance, ARestoredEngineContinuesBitForBit) {
    using namespace stokesian;
    const scenario s =
        load_scenario(std::string(test_support::project_source_dir) + "/scenarios/approaching_pairs.toml", "oblique");
    engine_config base = make_engine_config(s);
    base.threads = 1;
    const engine_config c = test_support::on_backend(base, GetParam());
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    const frame expected = test_support::frame_after(c, s.particles, 300);
    auto first = make_engine(c, s.particles);
    first->advance(120);
    engine_state saved;
    first->save_state(saved);
    auto second = make_engine(c, s.particles);
    second->restore_state(saved);
    second->advance(180);
    frame resumed;
    second->read_frame(resumed);
    test_support::expect_bitwise_equal(expected, resumed, c.backend + " " + c.hi_kernel + " " + to_string(c.precision));
}

// The tetrahedron: 200 steps on the CPU, its checkpoint restored on the backend, 300 more: the CPU's
// 500 steps bit for bit.
TEST_P(CpuCheckpointConformance, ACpuCheckpointResumesBitForBit) {
    using namespace stokesian;
    const scenario t = load_scenario(std::string(test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    const engine_config c = test_support::on_backend(make_engine_config(t), GetParam());
    if (const std::string why = test_support::skip_reason(c, t.particles.size()); !why.empty()) GTEST_SKIP() << why;
    engine_config cpu = c;
    cpu.backend = "cpu";
    cpu.hi_kernel = "";
    const frame expected = test_support::frame_after(cpu, t.particles, 500);
    auto on_cpu = make_engine(cpu, t.particles);
    on_cpu->advance(200);
    engine_state saved;
    on_cpu->save_state(saved);
    auto resumed_engine = make_engine(c, t.particles);
    resumed_engine->restore_state(saved);
    resumed_engine->advance(300);
    frame resumed;
    resumed_engine->read_frame(resumed);
    test_support::expect_bitwise_equal(expected, resumed,
                                       "CPU checkpoint resumed on " + c.backend + " " + to_string(c.precision));
}
