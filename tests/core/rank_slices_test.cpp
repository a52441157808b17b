// The CPU engine across ranks (device_context::ranks; engine/README.md, "Runs across MPI ranks"):
// R engines, one per rank (here: threads, tests/support/thread_ranks.hpp), each summing the HI of
// its target slice and gathering the others', end every step with the state of one engine alone,
// bit for bit -- every precision mode, both CPU loops, every integrator, lubrication (explicit and
// implicit) and short-range forces, and slices that are empty (more ranks than particles).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/thread_ranks.hpp"

using namespace stokesian;

namespace {

scenario load(const std::string& relative) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/" + relative);
}

engine_state run_alone(const engine_config& config, const initial_state& state, std::uint64_t steps) {
    auto e = backends::make_engine(config, device_context{}, state);
    e->advance(steps);
    engine_state s;
    e->save_state(s);
    return s;
}

// Each rank's final state, its engine built, advanced and saved on its own thread.
std::vector<engine_state> run_across(unsigned ranks, const engine_config& config, const initial_state& state,
                                     std::uint64_t steps) {
    test_support::thread_ranks all(ranks);
    std::vector<engine_state> states(ranks);
    std::vector<std::string> errors(ranks);
    std::vector<std::thread> threads;
    for (unsigned r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            try {
                device_context device;
                device.ranks = &all.rank(r);
                auto e = backends::make_engine(config, device, state);
                // Two calls: the engine's state carries over between them as alone.
                e->advance(steps / 2);
                e->advance(steps - steps / 2);
                e->save_state(states[r]);
            } catch (const std::exception& e) {
                errors[r] = e.what();
            }
        });
    for (auto& t : threads) t.join();
    for (unsigned r = 0; r < ranks; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
    return states;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// "" when the states agree word for word.
std::string difference(const engine_state& a, const engine_state& b) {
    if (a.step != b.step) return "step";
    if (!same_bits(a.position_hi, b.position_hi) || !same_bits(a.position_lo, b.position_lo)) return "positions";
    if (!same_bits(a.image, b.image)) return "images";
    if (!same_bits(a.velocity_hi, b.velocity_hi) || !same_bits(a.velocity_lo, b.velocity_lo)) return "velocities";
    if (!same_bits(a.force, b.force)) return "forces";
    if (!same_bits(a.history_hi, b.history_hi) || !same_bits(a.history_lo, b.history_lo)) return "history";
    return "";
}

void expect_ranks_equal_one(const scenario& s, engine_config config, unsigned ranks, std::uint64_t steps,
                            const std::string& what) {
    config.threads = 1;
    const engine_state alone = run_alone(config, s.particles, steps);
    const std::vector<engine_state> each = run_across(ranks, config, s.particles, steps);
    for (unsigned r = 0; r < ranks; ++r)
        EXPECT_EQ(difference(each[r], alone), "") << what << ", " << ranks << " ranks, rank " << r;
}

}  // namespace

TEST(RankSlices, TheTetrahedronAcrossThreeRanksIsOneEngineInEveryPrecisionMode) {
    const scenario s = load("scenarios/tetrahedron.toml");
    for (const precision_mode mode : precision_modes) {
        engine_config config = make_engine_config(s);
        config.precision = mode;
        expect_ranks_equal_one(s, config, 3, 60, to_string(mode));
    }
}

TEST(RankSlices, EveryIntegratorAndTheSymmetricLoop) {
    const scenario s = load("scenarios/tetrahedron.toml");
    for (const integrator_kind k :
         {integrator_kind::euler, integrator_kind::heun, integrator_kind::rk4, integrator_kind::ab2}) {
        engine_config config = make_engine_config(s);
        config.integrator = k;
        config.precision = {precision::ds, precision::f32};
        expect_ranks_equal_one(s, config, 2, 40, std::string(to_string(k)));
        config.hi_kernel = "symmetric";
        expect_ranks_equal_one(s, config, 3, 40, std::string(to_string(k)) + ", symmetric");
    }
}

TEST(RankSlices, APeriodicLatticeWithLubricationAndRepulsion) {
    const scenario s = load("tests/inputs/good/ranks_lattice_lubricated.toml");
    for (const precision_mode mode : paper_precision_modes) {
        engine_config config = make_engine_config(s);
        config.precision = mode;
        expect_ranks_equal_one(s, config, 5, 20, to_string(mode));  // 108 = 22 + 22 + 22 + 21 + 21
    }
}

TEST(RankSlices, TheImplicitLubricationSolveWithMoreRanksThanParticles) {
    // Two particles, three ranks: the last rank's slice is empty; every solve iteration still
    // gathers on every rank.
    const scenario s = load("scenarios/approaching_pairs_implicit.toml");
    for (const precision_mode mode : {reference_precision_mode, precision_mode{precision::ds, precision::f32}}) {
        engine_config config = make_engine_config(s);
        config.precision = mode;
        expect_ranks_equal_one(s, config, 3, 150, to_string(mode));
    }
}

TEST(RankSlices, OneRankIsAlone) {
    single_process alone;
    EXPECT_EQ(my_slice(&alone, 10).end, 10U);
    EXPECT_FALSE(spread(&alone));
    EXPECT_FALSE(spread(nullptr));
}
