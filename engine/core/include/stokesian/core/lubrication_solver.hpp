#pragma once
// The implicit lubrication scheme: v = mu (I + zeta mu)^-1 F (paper, Eq. (mobilityCorrection)),
// solved matrix-free in every velocity evaluation. Written once over a backend's primitives
// ("ops"), as the integrators are (core/integrator.hpp), so the CPU and CUDA backends run the same
// algorithm with the same arithmetic. Derivation, tolerance and measured iteration counts:
// engine/docs/lubrication.md.
//
// Formulation. F = F_ext + F_int (everything but lubrication), zeta the pair sum of the singular
// lubrication resistances acting on velocity differences (symmetric positive semi-definite), mu the
// mobility (symmetric; positive definite with open boundaries). The velocities solve
//     A v = F,   A = mu^-1 + zeta.
// Method: conjugate gradients on A with mu as the preconditioner. The paper's naive fixed point
// (forces corrected with the previous velocities) is the explicit scheme and diverges once the
// spectral radius of zeta mu exceeds 1 (engine/docs/observables.md), so a Krylov method is
// needed; CG because A is symmetric positive definite whenever mu is: it minimises the error in
// the A-norm over the Krylov space, needs five vectors and one mobility and one lubrication
// product per iteration (GMRES: a growing basis and one dot product per basis vector; BiCGStab:
// two of each and erratic residuals). mu^-1 is never needed: every search direction p (velocity
// space) is mu q for a direction q in force space, so A p = q + zeta p. The preconditioned
// operator mu^1/2 A mu^1/2 = I + mu^1/2 zeta mu^1/2 has all eigenvalues >= 1; for a pair only
// three distinct ones (CG ends in at most 3 iterations), for many bodies its condition number is
// about 1 + rho(zeta mu).
//
// The iterate is kept as the effective force w (the engine's force array: F_ext + F_int + F_lub
// with F_lub = -zeta v), v = mu w. The CG residual r = F - A v = F - w - zeta mu w is exactly the
// residual of (I + zeta mu) w = F. Convergence: the TRUE residual ||F - w - zeta mu w|| <=
// tolerance ||F|| (Euclidean norms over all 3N components), tolerance = sqrt(u_W) (u_W the unit
// roundoff of the working precision; lubrication_tolerance below). A pass of CG stops on its
// recurrence residual; then v = mu w is evaluated afresh (so the velocities are the mobility
// applied to the reported forces, as with the explicit scheme) and the true residual recomputed
// from it. In low precision the recurrence drifts from the true residual, so where the true one
// misses the tolerance CG restarts from it (iterative refinement) until it is met; where the
// working precision cannot get there the solve stops (lubrication_solver_error). The starting guess is the previous
// evaluation's w (zero at the start of a run); it is part of the engine state (the stored forces),
// so checkpoints resume bit for bit.
//
// Breakdown: r . mu r <= 0 or p . A p <= 0 proves that mu (hence A) is not positive definite on the
// Krylov space -- the nearest-image mobility of a periodic box can be indefinite
// (engine/docs/observables.md), and then (I + zeta mu) can be singular. The solver then stops with
// lubrication_solver_error rather than return an unconverged answer, as it does after
// max_iterations without convergence and when refinement cannot meet the tolerance.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "stokesian/core/engine.hpp"

namespace stokesian {

// The solve failed (no convergence, breakdown, non-finite values): the run cannot go on.
class lubrication_solver_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// sqrt(u_W): 1.05e-8 for double, 2^-12 = 2.44e-4 for float (engine/docs/lubrication.md: far above
// the rounding floor of the residual in double, at the level float can reach near contact, and the
// error it leaves in v is far below the time step's).
template <class W>
double lubrication_tolerance() {
    return std::sqrt(static_cast<double>(std::numeric_limits<W>::epsilon()) / 2.0);
}

// The tolerance of a precision mode (the working precision follows hi: numeric/precision.hpp).
inline double lubrication_tolerance(precision_mode m) {
    return dispatch_precision(m,
                              []<class Policy>(Policy) { return lubrication_tolerance<typename Policy::working>(); });
}

// Iterative refinement (solve_implicit_lubrication): a refinement pass restarts conjugate gradients
// from the true residual and runs until the recurrence residual is <= lubrication_refinement_target
// times the tolerance (a margin below it for the drift of the recurrence); a pass that does not
// shrink the true residual by lubrication_refinement_progress has reached what the working
// precision can resolve; after max_lubrication_refinements passes the solve stops either way.
// Values and measurements: engine/docs/lubrication.md, section 4.
inline constexpr double lubrication_refinement_target = 0.5;
inline constexpr double lubrication_refinement_progress = 0.5;
inline constexpr std::uint32_t max_lubrication_refinements = 10;

// The vectors of the iteration, named; the backends map them to their storage (3N values of the
// working precision each). solution is the engine's force array.
enum class krylov_vector : std::uint8_t {
    rhs,               // F = F_ext + F_int
    solution,          // w, the effective force
    residual,          // r = F - w - zeta mu w
    preconditioned,    // z = mu r
    direction,         // p (velocity space)
    force_direction,   // q, p = mu q
    operator_product,  // t = A p = q + zeta p (and scratch)
};
inline constexpr int krylov_vector_count = 7;

// Statistics over the solves of one engine (since its construction or restore), for description().
struct lubrication_solver_statistics {
    std::uint64_t evaluations = 0;  // velocity evaluations with the implicit scheme
    std::uint64_t solves = 0;       // those with a lubricated pair (the others are v = mu F)
    std::uint64_t iterations = 0;   // over all solves
    std::uint32_t most_iterations = 0;
    std::uint64_t refined_solves = 0;  // solves that needed at least one refinement pass
    std::uint64_t refinements = 0;     // refinement passes over all solves
    double largest_relative_residual = 0.0;
    lubrication_solve_report last;

    void record(const lubrication_solve_report& r);
    // Adds the scheme, method, tolerance and these statistics to an engine description.
    void describe(std::map<std::string, std::string>& d, const lubrication_settings& s, double tolerance) const;
};

// ops provides, with k, in, out, x, y of type krylov_vector (out never aliases in for the two
// operators; combine may write one of its inputs):
//   ops.mobility_of_solution()          the engine's velocities v <- mu w (accumulator precision)
//   ops.lubrication_of_velocities(out)  out <- -zeta v (the lubrication force of the velocities)
//   ops.apply_mobility(in, out)         out <- mu in, rounded to W
//   ops.apply_lubrication(in, out)      out <- -zeta in
//   ops.combine(out, a, x, b, y)        out <- a x + b y (linear_combination, a and b rounded to W)
//   ops.dot(x, y)                       sum over particles of x_i . y_i (fixed_order: krylov_arithmetic.hpp)
// The right-hand side F must be in rhs and the starting guess in solution. Returns what happened;
// v = mu w is in the engine's velocities. Throws lubrication_solver_error on failure.
template <class Ops>
lubrication_solve_report solve_implicit_lubrication(Ops& ops, std::uint32_t max_iterations, double tolerance) {
    using k = krylov_vector;
    lubrication_solve_report report;
    report.solved = true;
    auto fail = [&](const std::string& what) {
        throw lubrication_solver_error("implicit lubrication solve (" + std::to_string(report.iterations) +
                                       " conjugate-gradient iterations): " + what);
    };
    auto number = [](double x) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3g", x);
        return std::string(text);
    };

    const double rhs_norm = std::sqrt(ops.dot(k::rhs, k::rhs));
    if (!std::isfinite(rhs_norm)) fail("non-finite forces");
    if (rhs_norm == 0.0) {
        // No force: w = v = 0 exactly (0 w + 0 F with F = 0).
        ops.combine(k::solution, 0.0, k::rhs, 0.0, k::rhs);
        ops.mobility_of_solution();
        return report;
    }
    // r = F - w - zeta mu w, with v = mu w the engine's velocities.
    auto residual_of_solution = [&] {
        ops.mobility_of_solution();
        ops.lubrication_of_velocities(k::operator_product);
        ops.combine(k::residual, 1.0, k::rhs, -1.0, k::solution);
        ops.combine(k::residual, 1.0, k::residual, 1.0, k::operator_product);
        return std::sqrt(ops.dot(k::residual, k::residual)) / rhs_norm;
    };
    const std::string indefinite =
        ": the mobility is not positive definite on the Krylov space (a periodic box's "
        "nearest-image mobility can be indefinite, engine/docs/lubrication.md)";
    // One pass of conjugate gradients from the residual in `residual` (relative size `relative`)
    // until the recurrence residual is <= target.
    auto conjugate_gradients = [&](double relative, double target) {
        ops.apply_mobility(k::residual, k::preconditioned);
        double rz = ops.dot(k::residual, k::preconditioned);
        ops.combine(k::direction, 1.0, k::preconditioned, 0.0, k::preconditioned);
        ops.combine(k::force_direction, 1.0, k::residual, 0.0, k::residual);
        for (;;) {
            if (!(rz > 0.0)) fail(std::isfinite(rz) ? "r . mu r = " + number(rz) + indefinite : "non-finite r . mu r");
            if (report.iterations == max_iterations)
                fail("no convergence within physics.lubrication.max_iterations = " + std::to_string(max_iterations) +
                     " (relative residual " + number(relative) + ", tolerance " + number(tolerance) + ")");
            ++report.iterations;
            // t = A p = q + zeta p
            ops.apply_lubrication(k::direction, k::operator_product);
            ops.combine(k::operator_product, 1.0, k::force_direction, -1.0, k::operator_product);
            const double pap = ops.dot(k::direction, k::operator_product);
            if (!(pap > 0.0)) fail(std::isfinite(pap) ? "p . A p = " + number(pap) + indefinite : "non-finite p . A p");
            const double alpha = rz / pap;
            ops.combine(k::solution, 1.0, k::solution, alpha, k::force_direction);
            ops.combine(k::residual, 1.0, k::residual, -alpha, k::operator_product);
            relative = std::sqrt(ops.dot(k::residual, k::residual)) / rhs_norm;
            if (relative <= target) return;
            ops.apply_mobility(k::residual, k::preconditioned);
            const double rz_next = ops.dot(k::residual, k::preconditioned);
            const double beta = rz_next / rz;
            rz = rz_next;
            ops.combine(k::direction, 1.0, k::preconditioned, beta, k::direction);
            ops.combine(k::force_direction, 1.0, k::residual, beta, k::force_direction);
        }
    };

    report.initial_relative_residual = residual_of_solution();
    if (!std::isfinite(report.initial_relative_residual)) fail("non-finite residual of the starting guess");
    report.relative_residual = report.initial_relative_residual;
    // The first pass stops at the recurrence residual <= tolerance; the true residual of its w
    // (recomputed, as the velocities v = mu w are) decides. Where it meets the tolerance the
    // solve ends there -- exactly the iteration without refinement, bit for bit. Where it does
    // not (the recurrence drifted from the true residual: low precision), iterative refinement:
    // restart conjugate gradients from the true residual, aiming at a recurrence residual of
    // refinement_target * tolerance, until the true residual meets the tolerance. No progress
    // (the true residual does not shrink by refinement_progress in a pass), max_refinements
    // passes or max_iterations in all: the solve stops, it never returns an unconverged answer.
    for (std::uint32_t pass = 0; report.relative_residual > tolerance; ++pass) {
        const double before = report.relative_residual;
        report.refinements = pass;
        conjugate_gradients(before, pass == 0 ? tolerance : lubrication_refinement_target * tolerance);
        report.relative_residual = residual_of_solution();
        if (!std::isfinite(report.relative_residual)) fail("non-finite true residual");
        if (report.relative_residual <= tolerance) break;
        const bool stalled = pass > 0 && !(report.relative_residual <= lubrication_refinement_progress * before);
        if (stalled || pass == max_lubrication_refinements)
            fail("true relative residual ||F - w - zeta mu w|| / ||F|| = " + number(report.relative_residual) +
                 " above the tolerance " + number(tolerance) + " after " + std::to_string(pass) + " refinement passes" +
                 (stalled ? " (the last one reduced it from " + number(before) + " only)" : std::string()) +
                 "; the working precision cannot resolve this solve (engine/docs/lubrication.md)");
    }
    return report;
}

}  // namespace stokesian
