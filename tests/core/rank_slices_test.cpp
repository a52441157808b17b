// The CPU engine across ranks (device_context::ranks; engine/README.md, "Runs across MPI ranks"):
// R engines, one per rank (here: threads, tests/support/thread_ranks.hpp), each summing the HI of
// its target slice and gathering the others', end every step with the state of one engine alone,
// bit for bit -- every precision mode, both CPU loops, every integrator, lubrication (explicit and
// implicit) and short-range forces, and slices that are empty (more ranks than particles). The
// bodies are conformance tests (tests/README.md): every registered host backend that splits its
// targets over ranks (capabilities::ranks) in every mode of the one mode list it runs.
#include <gtest/gtest.h>

#include <algorithm>
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
#include "support/backend_modes.hpp"
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

// The registered host backends that split their targets over ranks, with every mode they run.
std::vector<test_support::backend_mode> ranked_backend_modes() {
    std::vector<test_support::backend_mode> list =
        test_support::registered_backend_modes(test_support::backend_place::host);
    std::erase_if(list, [](const test_support::backend_mode& p) {
        const backends::backend* b = backends::backend_registry().find(p.backend);
        return b == nullptr || !b->can.ranks;
    });
    return list;
}

// `s`'s engine on the parameter's backend and mode; skips where the backend refuses it.
class RankSlicesConformance : public testing::TestWithParam<test_support::backend_mode> {
protected:
    engine_config config_for(const scenario& s) const {
        return test_support::on_backend(make_engine_config(s), GetParam());
    }
};

}  // namespace

TEST_P(RankSlicesConformance, TheTetrahedronAcrossThreeRanksIsOneEngine) {
    const scenario s = load("scenarios/tetrahedron.toml");
    const engine_config config = config_for(s);
    if (const std::string why = test_support::skip_reason(config, s.particles.size()); !why.empty())
        GTEST_SKIP() << why;
    expect_ranks_equal_one(s, config, 3, 60, to_string(config.precision));
}
INSTANTIATE_TEST_SUITE_P(OnTheHost, RankSlicesConformance, testing::ValuesIn(ranked_backend_modes()),
                         test_support::backend_mode_name);

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

// The paper's modes.
class RankSlicesPaperModes : public RankSlicesConformance {};

TEST_P(RankSlicesPaperModes, APeriodicLatticeWithLubricationAndRepulsion) {
    const scenario s = load("tests/inputs/good/ranks_lattice_lubricated.toml");
    const engine_config config = config_for(s);
    if (const std::string why = test_support::skip_reason(config, s.particles.size()); !why.empty())
        GTEST_SKIP() << why;
    expect_ranks_equal_one(s, config, 5, 20, to_string(config.precision));  // 108 = 22 + 22 + 22 + 21 + 21
}
INSTANTIATE_TEST_SUITE_P(OnTheHost, RankSlicesPaperModes,
                         testing::ValuesIn(test_support::in_modes(ranked_backend_modes(), paper_precision_modes)),
                         test_support::backend_mode_name);

// The reference and a mixed mode.
class RankSlicesImplicitSolve : public RankSlicesConformance {};

TEST_P(RankSlicesImplicitSolve, TheImplicitLubricationSolveWithMoreRanksThanParticles) {
    // Two particles, three ranks: the last rank's slice is empty; every solve iteration still
    // gathers on every rank.
    const scenario s = load("scenarios/approaching_pairs_implicit.toml");
    const engine_config config = config_for(s);
    if (const std::string why = test_support::skip_reason(config, s.particles.size()); !why.empty())
        GTEST_SKIP() << why;
    expect_ranks_equal_one(s, config, 3, 150, to_string(config.precision));
}
constexpr precision_mode implicit_solve_modes[] = {reference_precision_mode, {precision::ds, precision::f32}};
INSTANTIATE_TEST_SUITE_P(OnTheHost, RankSlicesImplicitSolve,
                         testing::ValuesIn(test_support::in_modes(ranked_backend_modes(), implicit_solve_modes)),
                         test_support::backend_mode_name);

TEST(RankSlices, OneRankIsAlone) {
    single_process alone;
    EXPECT_EQ(my_slice(&alone, 10).end, 10U);
    EXPECT_FALSE(spread(&alone));
    EXPECT_FALSE(spread(nullptr));
}
