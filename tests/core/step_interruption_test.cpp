// A signal inside a long step (engine_config::interrupt, engine/docs/reliability.md): the CPU
// engine abandons the step within one target particle's HI sum, goes back to the state it had when
// advance() began, and continues from there bit for bit as if it had never been interrupted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "support/sphere_systems.hpp"

using namespace stokesian;

namespace {

// n non-overlapping spheres (centres >= 2.1 a apart) in a periodic box at n = 0.05 a^-3, sedimenting.
initial_state suspension(std::size_t n, double edge) { return test_support::random_spheres(n, edge, 2.1, 7); }

engine_config config_for(double edge, integrator_kind integrator) {
    engine_config c;
    c.system.box = {true, {edge, edge, edge}};
    c.system.pair_force = {pair_force_kind::exponential, 1.0, 0.1, 2.5};
    c.integrator = integrator;
    c.dt = 0.001;
    c.threads = 2;
    return c;
}

void expect_same_state(const engine_state& a, const engine_state& b, const std::string& what) {
    EXPECT_EQ(a.step, b.step) << what;
    EXPECT_TRUE(a.position_hi == b.position_hi && a.position_lo == b.position_lo) << what << ": positions";
    EXPECT_TRUE(a.image == b.image) << what << ": images";
    EXPECT_TRUE(a.velocity_hi == b.velocity_hi && a.velocity_lo == b.velocity_lo) << what << ": velocities";
    EXPECT_TRUE(a.force == b.force) << what << ": forces";
    EXPECT_TRUE(a.history_hi == b.history_hi) << what << ": history";
}

}  // namespace

TEST(StepInterruption, ASignalInsideAStepStopsWithinOneTargetSumAndLeavesTheLastCompleteState) {
    // Sizes just above the engine's threshold for interruptible steps (N^2 x evaluations per step
    // > 1e7 pair terms, cpu_engine_impl.hpp): Runge-Kutta 4 (four evaluations) and Adams-Bashforth
    // 2 (one, and a history that must be restored too).
    for (const auto& [integrator, n] :
         {std::pair{integrator_kind::rk4, std::size_t(1600)}, std::pair{integrator_kind::ab2, std::size_t(3200)}}) {
        const double edge = std::cbrt(double(n) / 0.05);
        const initial_state particles = suspension(n, edge);
        const std::string what = std::string(to_string(integrator));
        std::atomic<int> signal{0};
        engine_config config = config_for(edge, integrator);
        config.interrupt = &signal;
        const auto interrupted = make_engine(config, particles);
        const auto reference = make_engine(config_for(edge, integrator), particles);
        interrupted->advance(1);  // Adams-Bashforth has its history from here on
        reference->advance(1);
        engine_state before;
        interrupted->save_state(before);

        // A million steps cannot end before the signal 0.2 s in: it lands inside some step.
        using clock = std::chrono::steady_clock;
        clock::time_point raised;
        std::thread raiser([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            raised = clock::now();
            signal.store(15);
        });
        int caught = 0;
        try {
            interrupted->advance(1'000'000);
        } catch (const step_interrupted& e) {
            caught = e.signal();
        }
        const auto stopped = clock::now();
        raiser.join();
        ASSERT_EQ(caught, 15) << what;
        // After the signal: the target sums in flight (n <= 3200 pair terms each, < 0.2 ms at the
        // slowest rate measured here, 1.7e7 terms/s on a loaded 2-core machine), the pool's join and
        // the O(n) restore. 0.5 s leaves room for a preempted thread on a loaded machine (a few
        // scheduler quanta); a step of this system is not bounded by it (the old code's wait).
        EXPECT_LT(std::chrono::duration<double>(stopped - raised).count(), 0.5) << what;

        engine_state after;
        interrupted->save_state(after);
        expect_same_state(after, before, what + ": the state of the call's start");
        EXPECT_EQ(interrupted->step(), 1u) << what;

        // It continues as if never interrupted.
        signal.store(0);
        interrupted->advance(1);
        reference->advance(1);
        engine_state a, b;
        interrupted->save_state(a);
        reference->save_state(b);
        expect_same_state(a, b, what + ": a step after the interruption");
    }
}

TEST(StepInterruption, ASignalDuringConstructionThrowsFromMakeEngine) {
    std::atomic<int> signal{2};
    const std::size_t n = 200;
    const double edge = std::cbrt(double(n) / 0.05);
    engine_config config = config_for(edge, integrator_kind::euler);
    config.interrupt = &signal;
    try {
        make_engine(config, suspension(n, edge));
        FAIL() << "the initial velocity evaluation ignored the signal";
    } catch (const step_interrupted& e) {
        EXPECT_EQ(e.signal(), 2);
    }
}
