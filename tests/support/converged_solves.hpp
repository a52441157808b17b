#pragma once
// Runs an engine with the implicit lubrication scheme step by step and checks every solve
// (engine/docs/lubrication.md section 4): its true residual meets the tolerance -- as the engine
// evaluates it, and recomputed in double within the rounding of the engine's evaluation
// (lubrication_residual.hpp) -- or the run stops with lubrication_solver_error naming the true
// relative residual. Used by the conformance body on every backend
// (tests/backends/implicit_lubrication_conformance.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "support/lubrication_residual.hpp"

namespace stokesian::testing_support {

// The precision modes the implicit-solver tests cover: double, double-single and single accumulation.
inline const precision_mode implicit_solver_modes[] = {
    {precision::f64, precision::f64}, {precision::ds, precision::ds}, {precision::f32, precision::f32}};

// An open box with the implicit lubrication scheme, in `mode` at `dt` on `backend`.
inline engine_config implicit_lubrication_config(const precision_mode& mode, double dt, const std::string& backend) {
    engine_config c;
    c.system.box.periodic = false;
    c.system.lubrication.enabled = true;
    c.system.lubrication.scheme = lubrication_scheme::implicit_solve;
    c.precision = mode;
    c.dt = dt;
    c.backend = backend;
    return c;
}

struct checked_run {
    std::uint64_t last_step = 0;  // the last step whose solve was checked
    std::string stop;             // the solver's message, empty if the run completed
    std::uint64_t refined_solves = 0;
    double largest = 0.0, largest_in_double = 0.0, smallest_gap = INFINITY;
};

// F = s.external_forces (no pair force), a frame after every step.
inline checked_run run_checking_every_solve(const engine_config& c, const initial_state& s, std::uint64_t steps,
                                            const std::string& what) {
    const double tolerance = lubrication_tolerance(c.precision);
    auto e = make_engine(c, s);
    frame f;
    checked_run out;
    for (std::uint64_t step = 0;; ++step) {
        e->read_frame(f);
        out.last_step = step;
        EXPECT_TRUE(f.lubrication.solved) << what << " step " << step;
        const double_residual r = residual_in_double(f, s.external_forces, c.system, c.precision.hi);
        EXPECT_LE(f.lubrication.relative_residual, tolerance) << what << " step " << step;
        EXPECT_LE(r.relative, tolerance + r.rounding_allowance)
            << what << " step " << step << ": engine " << f.lubrication.relative_residual << ", smallest gap "
            << r.smallest_gap;
        out.largest = std::max(out.largest, f.lubrication.relative_residual);
        out.largest_in_double = std::max(out.largest_in_double, r.relative);
        out.smallest_gap = std::min(out.smallest_gap, r.smallest_gap);
        if (step == steps) break;
        try {
            e->advance(1);
        } catch (const lubrication_solver_error& error) {
            out.stop = error.what();
            break;
        }
    }
    const auto description = e->description().details;
    const auto refined = description.find("lubrication_refined_solves");
    EXPECT_NE(refined, description.end()) << what << ": the engine reports its refined solves";
    if (refined != description.end()) out.refined_solves = std::stoull(refined->second);
    if (!out.stop.empty())
        EXPECT_NE(out.stop.find("true relative residual ||F - w - zeta mu w|| / ||F|| = "), std::string::npos)
            << what << ": " << out.stop;
    std::printf(
        "[ %s ] %s after step %llu: largest true residual %.3g (in double %.3g, tolerance %.3g), smallest gap "
        "%.3g, refined solves %llu%s%s\n",
        what.c_str(), out.stop.empty() ? "completed" : "stopped", static_cast<unsigned long long>(out.last_step),
        out.largest, out.largest_in_double, tolerance, out.smallest_gap,
        static_cast<unsigned long long>(out.refined_solves), out.stop.empty() ? "" : ": ", out.stop.c_str());
    return out;
}

}  // namespace stokesian::testing_support
