// The CPU batch engine (stokesian/core/batch.hpp): its threads, its description, auto, the batches it
// rejects. Each member bit for bit its run alone, on every backend that batches:
// tests/backends/batch_conformance.hpp.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/numeric/precision_traits.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/frames.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;
using test_support::perturbed_copies;

namespace {

scenario load(const char* name, const std::string& case_name = {}) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/" + name, case_name);
}

using test_support::expect_bitwise_equal;

}  // namespace

TEST(CpuBatch, ResultDoesNotDependOnTheNumberOfThreads) {
    const scenario s = load("tetrahedron.toml");
    const std::vector<batch_member> members = perturbed_copies(s.particles, 13, 0.5, {0.01, 0.02}, 3);
    engine_config c = make_engine_config(s);
    c.precision = {precision::ds, precision::f32};
    c.backend = "cpu";
    std::vector<frame> reference;
    for (unsigned threads : {1u, 2u, 5u}) {
        c.threads = threads;
        auto batch = make_batch_engine(c, members);
        batch->advance(300);
        std::vector<frame> frames;
        batch->read_frames(frames);
        if (reference.empty()) {
            reference = frames;
            continue;
        }
        for (std::size_t k = 0; k < members.size(); ++k)
            expect_bitwise_equal(frames[k], reference[k],
                                 std::to_string(threads) + " threads, member " + std::to_string(k));
    }
}

TEST(CpuBatch, DescribesItself) {
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "cpu";
    c.threads = 2;
    auto batch = make_batch_engine(c, perturbed_copies(s.particles, 4, 0.1, {0.01, 0.01}, 1));
    const auto d = batch->description().provenance();
    EXPECT_EQ(d.at("backend"), "cpu");
    EXPECT_EQ(d.at("systems"), "4");
    EXPECT_EQ(d.at("particles_per_system"), "4");
    EXPECT_EQ(d.at("threads"), "2");
    EXPECT_EQ(d.at("precision"), to_string(c.precision));
    EXPECT_EQ(batch->step(), 0u);
}

// "auto": CUDA where a device is, otherwise the CPU (with a notice); either way a working batch.
TEST(CpuBatch, AutoRunsOnWhateverBackendIsThere) {
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "auto";
    c.threads = 1;
    auto batch = make_batch_engine(c, perturbed_copies(s.particles, 3, 0.1, {0.01, 0.02}, 4));
    const std::string backend = batch->description().backend;
    EXPECT_TRUE(backend == "cpu" || backend == "cuda") << backend;
    batch->advance(10);
    std::vector<frame> frames;
    batch->read_frames(frames);
    ASSERT_EQ(frames.size(), 3u);
    EXPECT_EQ(frames[1].time, 10 * 0.02);
}

TEST(CpuBatch, RejectsBadBatches) {
    const scenario s = load("tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "cpu";
    EXPECT_THROW(make_batch_engine(c, {}), std::invalid_argument);

    std::vector<batch_member> members = perturbed_copies(s.particles, 3, 0.1, {0.01, 0.01}, 2);
    members[2].state.positions.pop_back();  // N = 3 next to N = 4
    members[2].state.external_forces.pop_back();
    EXPECT_THROW(make_batch_engine(c, members), std::invalid_argument);

    members = perturbed_copies(s.particles, 2, 0.1, {0.01, 0.01}, 2);
    members[1].state.external_forces.pop_back();  // one force missing
    EXPECT_THROW(make_batch_engine(c, members), std::invalid_argument);

    members = perturbed_copies(s.particles, 2, 0.1, {0.01, 0.0}, 2);  // dt = 0
    EXPECT_THROW(make_batch_engine(c, members), std::invalid_argument);

    members = perturbed_copies(s.particles, 2, 0.1, {0.01, 0.01}, 2);
    members[0].state = {};  // no particles
    members[1].state = {};
    EXPECT_THROW(make_batch_engine(c, members), std::invalid_argument);

    members = perturbed_copies(s.particles, 2, 0.1, {0.01, 0.01}, 2);
    c.backend = "tpu";
    EXPECT_THROW(make_batch_engine(c, members), std::invalid_argument);

    // The message names the offending member and both sizes.
    c.backend = "cpu";
    members[1].state.positions.push_back({20, 20, 20});
    members[1].state.external_forces.push_back({0, 0, -1});
    try {
        make_batch_engine(c, members);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("member 1 has 5 particles"), std::string::npos) << e.what();
    }
}
