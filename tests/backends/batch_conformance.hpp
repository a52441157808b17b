#pragma once
// The batch engine (stokesian/core/batch.hpp) on every registered backend that runs batches
// (capabilities::batches), one body per behaviour, parametrised over (backend x precision mode)
// (support/backend_modes.hpp). Included by batch_conformance_test.cpp (the host backends, label
// quick) and batch_conformance_gpu_test.cpp (the device backends, label gpu).
//   BatchConformance (every mode): perturbed tetrahedra with two time steps, each member bit for
//     bit the member run alone on the backend's batch kernel and on the CPU.
//   LubricatedBatchConformance (the paper's modes): short-range forces, different forces per member
//     and larger systems, each member bit for bit its run alone on the backend's batch kernel.
//   BatchReproducibility ({ds, f32}): two runs of a 1024-member batch, bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/conformance_instantiation.hpp"
#include "support/frames.hpp"
#include "support/sphere_systems.hpp"

class BatchConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class LubricatedBatchConformance : public testing::TestWithParam<stokesian::test_support::backend_mode> {};
class BatchReproducibility : public testing::TestWithParam<stokesian::test_support::backend_mode> {};

namespace stokesian::test_support::batch_conformance {

// The mode the reproducibility is checked in.
inline constexpr precision_mode reproducibility_modes[] = {{precision::ds, precision::f32}};

inline scenario example_scenario(const char* name, const std::string& case_name = {}) {
    return load_scenario(std::string(project_source_dir) + "/scenarios/" + name, case_name);
}

// `base` on the parameter's backend and mode, with the kernel a batch takes (empty: the backend's
// own choice, make_batch_engine).
inline engine_config batch_on(engine_config base, const backend_mode& p) {
    engine_config c = on_backend(base, p);
    c.hi_kernel = "";
    return c;
}

// The run of one member alone on the kernel the backend's batches run (capabilities::batch_kernel;
// empty: the batch's configuration).
inline engine_config alone(engine_config batch, const batch_member& m) {
    const backends::backend* b = backends::backend_registry().find(batch.backend);
    if (b != nullptr && !b->can.batch_kernel.empty()) batch.hi_kernel = b->can.batch_kernel;
    batch.dt = m.dt;
    return batch;
}

// The same member alone on the CPU's all-pairs loop, one thread.
inline engine_config alone_on_the_cpu(engine_config batch, const batch_member& m) {
    batch.backend = "cpu";
    batch.hi_kernel = "all-pairs";
    batch.threads = 1;
    batch.dt = m.dt;
    return batch;
}

}  // namespace stokesian::test_support::batch_conformance

// Without short-range forces a step is +, -, *, /, sqrt in a fixed order (IEEE build): each member
// of a batch is its run alone on the backend's batch kernel and on the CPU, bit for bit. Two batches:
// 8 members advanced 150 + 57 steps, 64 members advanced 300 + 200 (two calls: the state carries over).
TEST_P(BatchConformance, TetrahedraAreBitwiseTheirSoloRuns) {
    using namespace stokesian;
    using namespace stokesian::test_support::batch_conformance;
    const scenario s = example_scenario("tetrahedron.toml");
    engine_config c = batch_on(make_engine_config(s), GetParam());
    c.threads = 3;
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    struct batch_case {
        std::size_t members;
        double amplitude;
        unsigned seed;
        std::uint64_t first, second;
    };
    for (const batch_case& k : {batch_case{8, 0.3, 11, 150, 57}, batch_case{64, 0.4, 21, 300, 200}}) {
        const std::vector<batch_member> members =
            test_support::perturbed_copies(s.particles, k.members, k.amplitude, {0.01, 0.005}, k.seed);
        auto batch = make_batch_engine(c, members);
        ASSERT_EQ(batch->systems(), members.size());
        batch->advance(k.first);
        batch->advance(k.second);
        const std::uint64_t steps = k.first + k.second;
        EXPECT_EQ(batch->step(), steps);
        std::vector<frame> frames;
        batch->read_frames(frames);
        ASSERT_EQ(frames.size(), members.size());
        engine_config solo = c;
        solo.threads = 1;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const std::string what = to_string(c.precision) + ", " + std::to_string(members.size()) +
                                     " members, member " + std::to_string(m);
            const frame own = test_support::frame_after(alone(solo, members[m]), members[m].state, steps);
            ASSERT_EQ(frames[m].time, own.time) << what;
            test_support::expect_bitwise_equal(frames[m], own, "batch vs alone, " + what);
            test_support::expect_bitwise_equal(
                frames[m], test_support::frame_after(alone_on_the_cpu(solo, members[m]), members[m].state, steps),
                "batch vs cpu alone, " + what);
        }
    }
}

// Short-range forces (lubrication; the pair's log may differ between a device and the host, so the
// runs alone are the backend's own): both cases of the approaching pairs as members (different
// forces per member, two time steps), 5 oblique pairs (a member count that leaves warps of a
// device's last block idle), 17 periodic systems of N = 12 (a device's block kernel). The runs alone
// use every core (threads = 0) against the batch's two: the result must not depend on it.
TEST_P(LubricatedBatchConformance, LubricatedBatchesAreBitwiseTheirSoloRuns) {
    using namespace stokesian;
    using namespace stokesian::test_support::batch_conformance;
    const scenario head_on = example_scenario("approaching_pairs.toml", "head_on");
    const scenario oblique = example_scenario("approaching_pairs.toml", "oblique");
    struct batch_case {
        std::string what;
        engine_config config;
        std::vector<batch_member> members;
        std::uint64_t steps;
    };
    std::vector<batch_case> cases;
    {
        std::vector<batch_member> members =
            test_support::perturbed_copies(head_on.particles, 3, 0.05, {0.001, 0.002}, 5);
        const std::vector<batch_member> more =
            test_support::perturbed_copies(oblique.particles, 4, 0.05, {0.002, 0.001}, 6);
        members.insert(members.end(), more.begin(), more.end());
        cases.push_back({"3 head-on and 4 oblique pairs", make_engine_config(head_on), members, 250});
    }
    cases.push_back({"5 oblique pairs", make_engine_config(oblique),
                     test_support::perturbed_copies(oblique.particles, 5, 0.05, {0.001, 0.002}, 4), 250});
    {
        engine_config c;
        c.system.box = {true, {30, 30, 30}};
        c.system.lubrication.enabled = true;
        cases.push_back({"17 systems of N = 12", c,
                         test_support::perturbed_copies(test_support::random_spheres(12, 30.0, 3.0, 2), 17, 0.2,
                                                        {0.001, 0.0005}, 8),
                         150});
    }
    for (batch_case& k : cases) {
        engine_config c = batch_on(k.config, GetParam());
        c.threads = 2;
        if (const std::string why = test_support::skip_reason(c, k.members.front().state.size()); !why.empty())
            GTEST_SKIP() << why;
        const std::string what = k.what + ", " + to_string(c.precision);
        auto batch = make_batch_engine(c, k.members);
        batch->advance(k.steps);
        std::vector<frame> frames;
        batch->read_frames(frames);
        ASSERT_EQ(frames.size(), k.members.size()) << what;
        engine_config solo = c;
        solo.threads = 0;
        for (std::size_t m = 0; m < k.members.size(); ++m)
            test_support::expect_bitwise_equal(
                frames[m], test_support::frame_after(alone(solo, k.members[m]), k.members[m].state, k.steps),
                what + ", member " + std::to_string(m));
    }
}

// Two runs of 1024 perturbed tetrahedra, 1000 steps: bit for bit.
TEST_P(BatchReproducibility, RunsAreBitwiseReproducible) {
    using namespace stokesian;
    using namespace stokesian::test_support::batch_conformance;
    const scenario s = example_scenario("tetrahedron.toml");
    const std::vector<batch_member> members = test_support::perturbed_copies(s.particles, 1024, 0.5, {0.01, 0.005}, 77);
    const engine_config c = batch_on(make_engine_config(s), GetParam());
    if (const std::string why = test_support::skip_reason(c, s.particles.size()); !why.empty()) GTEST_SKIP() << why;
    std::vector<frame> a, b;
    for (std::vector<frame>* out : {&a, &b}) {
        auto batch = make_batch_engine(c, members);
        batch->advance(1000);
        batch->read_frames(*out);
    }
    ASSERT_EQ(a.size(), members.size());
    ASSERT_EQ(b.size(), members.size());
    for (std::size_t k = 0; k < members.size(); ++k)
        test_support::expect_bitwise_equal(a[k], b[k], "run-to-run, member " + std::to_string(k));
}
