#pragma once
// Checks of the implicit lubrication scheme (engine/docs/lubrication.md) shared by the CPU tests
// (tests/cli/quick_implicit_lubrication_test.cpp, tests/core/implicit_lubrication_test.cpp)
// and the conformance bodies on every backend (tests/backends/implicit_lubrication_conformance.hpp):
// an approaching pair tracked step by step against the lubrication law, and a many-body cluster
// against a dense solve. Every bound is derived where it is used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/lubrication_solver.hpp"
#include "stokesian/observables/mobility_matrix.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/physics/interactions.hpp"
#include "support/dense_solve.hpp"

namespace stokesian::testing_support {

// The unit roundoff of the solver's working precision for a mode's hi precision (ds works in float).
inline double working_unit_roundoff(precision hi) {
    return hi == precision::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

// ---------------------------------------------------------------------------------------------
// The approaching pair, every step.

struct pair_track {
    std::vector<double> time, gap, speed;  // s = r/a - 2, w = e . (v_0 - v_1) = dr/dt
    std::vector<double> relative_speed;    // |v_0 - v_1| (>= |w|; more with a transverse motion)
    std::vector<double> predicted_speed;   // the implicit law at the same positions (predict_pair_approach)
    std::vector<double> decay_rate;        // lambda = -w*/(a s) of the law
    std::vector<std::uint32_t> iterations;
    std::vector<double> residual;  // true relative residual of the solve
    std::vector<bool> solved;
    std::vector<vec3<double>> position0, position1;
};

// Runs `steps` steps, reading a frame after each (and at step 0).
inline pair_track track_pair(const engine_config& c, const initial_state& s, std::uint64_t steps) {
    pair_track t;
    auto e = make_engine(c, s);
    frame f;
    for (std::uint64_t k = 0;; ++k) {
        e->read_frame(f);
        const vec3<double> r01 = f.position[0] - f.position[1];
        const double r = std::sqrt(dot(r01, r01));
        const vec3<double> unit = (1.0 / r) * r01;
        t.time.push_back(f.time);
        t.gap.push_back(r / c.system.radius - 2.0);
        t.speed.push_back(dot(unit, f.velocity[0] - f.velocity[1]));
        t.relative_speed.push_back(std::sqrt(dot(f.velocity[0] - f.velocity[1], f.velocity[0] - f.velocity[1])));
        const pair_approach_prediction q =
            predict_pair_approach(f.position[0], f.position[1], s.external_forces[0], s.external_forces[1], c.system);
        t.predicted_speed.push_back(q.separation_speed);
        t.decay_rate.push_back(q.decay_rate);
        t.iterations.push_back(f.lubrication.iterations);
        t.residual.push_back(f.lubrication.relative_residual);
        t.solved.push_back(f.lubrication.solved);
        t.position0.push_back(f.position[0]);
        t.position1.push_back(f.position[1]);
        if (k == steps) break;
        e->advance(1);
    }
    return t;
}

// The law ds/dt = w*(s) = -lambda(s) a s for the head-on pair (forces +-F along x), integrated by
// classical RK4 with `substeps` steps per dt, evaluated at every multiple of dt.
inline std::vector<double> law_gaps(const system_parameters& system, double force, double s0, double dt,
                                    std::uint64_t steps, int substeps = 10) {
    const auto speed = [&](double s) {
        const double half = system.radius * (1.0 + 0.5 * s);
        return predict_pair_approach({-half, 0, 0}, {half, 0, 0}, {force, 0, 0}, {-force, 0, 0}, system)
                   .separation_speed /
               system.radius;
    };
    std::vector<double> out{s0};
    double s = s0;
    const double h = dt / substeps;
    for (std::uint64_t k = 0; k < steps; ++k) {
        for (int j = 0; j < substeps; ++j) {
            const double k1 = speed(s), k2 = speed(s + 0.5 * h * k1), k3 = speed(s + 0.5 * h * k2),
                         k4 = speed(s + h * k3);
            s += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
        }
        out.push_back(s);
    }
    return out;
}

// Least-squares slope of y against x.
inline double slope(const std::vector<double>& x, const std::vector<double>& y) {
    const double n = double(x.size());
    double mx = 0, my = 0;
    for (std::size_t k = 0; k < x.size(); ++k) mx += x[k], my += y[k];
    mx /= n, my /= n;
    double sxy = 0, sxx = 0;
    for (std::size_t k = 0; k < x.size(); ++k) sxy += (x[k] - mx) * (y[k] - my), sxx += (x[k] - mx) * (x[k] - mx);
    return sxy / sxx;
}

// The head-on pair of scenarios/approaching_pairs_implicit.toml (s0 = 0.5, F = +-1 along x, open
// box, a = mu0 = 1) with the implicit scheme follows the lubrication law to below s = 1e-4 without
// overlap. `u` is the unit roundoff of the working precision (2^-53 for hi=f64).
inline void expect_head_on_follows_the_law(const pair_track& t, const system_parameters& system, double dt,
                                           double tolerance, double u) {
    const std::size_t n = t.gap.size();
    ASSERT_GT(n, 10u);

    // (1) No overlap, no bounce: the gap stays positive and closes monotonically, w < 0 every step.
    //     Euler gives s_{n+1} = s_n (1 - dt lambda_n) with dt lambda_n <= 4 dt = 0.004 < 1, so it cannot
    //     overshoot to s <= 0; a scheme that did would fail here.
    for (std::size_t k = 0; k < n; ++k) {
        ASSERT_GT(t.gap[k], 0.0) << "overlap at t = " << t.time[k];
        ASSERT_LT(t.speed[k], 0.0) << "the pair stopped approaching at t = " << t.time[k] << ", s = " << t.gap[k];
        if (k > 0) ASSERT_LT(t.gap[k], t.gap[k - 1]) << "t = " << t.time[k];
    }
    // ... and it gets below 1e-4 (the law: at t = 2.92; the run lasts 3 tau_s).
    EXPECT_LT(t.gap.back(), 1e-4);

    // (2) Every step's velocities are the implicit solution at the same positions. The solver stops at
    //     a true relative residual rho of (I + zeta mu) w = F; along the line of centres the error of
    //     w is (mu0 - mu_par)/(1 + 2 m zeta) times the residual's relative component, <= rho ||F||, and
    //     w* = 2 m F/(1 + 2 m zeta) with ||F|| = sqrt(2) F, so |w/w* - 1| <= rho/sqrt(2) <= rho. Rounding:
    //     the difference v_0 - v_1 of two mobility sums of size |w| loses 2u (1 + mu_par)/m <= 9u, zeta
    //     (division, log, one subtraction) 4u on either side, the residual's evaluation 3u, the
    //     prediction another 13u: < 32u; 64u is used. A wrong solve (no preconditioner, a lost factor)
    //     is off by O(1); the explicit scheme by up to (2 m zeta)^n.
    std::size_t solved = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (!t.solved[k]) continue;
        ++solved;
        EXPECT_LE(t.residual[k], tolerance) << "t = " << t.time[k];
        EXPECT_NEAR(t.speed[k] / t.predicted_speed[k], 1.0, t.residual[k] + 64 * u)
            << "t = " << t.time[k] << ", s = " << t.gap[k];
        // A pair has three distinct eigenvalues of the preconditioned operator I + mu^1/2 zeta mu^1/2 (1,
        // 1 + 2 m zeta, 1 + 2 m_perp zeta_perp): conjugate gradients end within 3 iterations in exact
        // arithmetic; head-on only the squeeze mode is excited, so 1 would do.
        EXPECT_LE(t.iterations[k], 3u) << "t = " << t.time[k];
    }
    EXPECT_EQ(solved, n) << "every evaluation has the pair within s < 1 and must be solved";

    // (3) The trajectory against the law integrated independently (RK4, dt/10). Explicit Euler on
    //     d ln s/dt = -lambda(s) errs per step by ln(1 - dt lambda) + dt lambda, |.| <= (dt lambda)^2/2
    //     (1 + dt lambda), which adds up to E(t) = sum_k (dt lambda_k)^2/2 (1 + dt lambda_k). A
    //     perturbation of ln s grows at -d lambda/d ln s >= 0 (lambda rises as s falls), by at most
    //     exp(int |d lambda|/lambda) = lambda(s(t))/lambda(s0) over the run. Bound: |ln s - ln s_law|
    //     <= E(t) lambda(s(t))/lambda(s0) + the solver's rho per step (summed, dt lambda rho).
    const std::vector<double> law = law_gaps(system, 1.0, t.gap.front(), dt, n - 1);
    double accumulated = 0.0;
    for (std::size_t k = 1; k < n; ++k) {
        const double step = dt * t.decay_rate[k - 1];
        accumulated += 0.5 * step * step * (1.0 + step) + step * (t.residual[k - 1] + 64 * u);
        const double bound = accumulated * t.decay_rate[k] / t.decay_rate.front() + 16 * u / t.gap[k];
        ASSERT_NEAR(std::log(t.gap[k]), std::log(law[k]), bound) << "t = " << t.time[k];
    }

    // (4) The near-contact law. As s -> 0, w* = -2 m F/(1 + 2 m zeta) with zeta -> 1/(4s): ds/dt ->
    //     -4 mu0 F s/a, s ~ exp(-t/tau), tau = a/(4 mu0 F) = 0.25 tau_s. Exactly, lambda = 4/(1 + 2s/m -
    //     0.9 s ln s) (engine/docs/observables.md), so on s in [1e-4, 1e-3] (m >= 0.375) 4 - lambda <=
    //     4 (2e-3/0.375 + 0.9e-3 ln 1e3) = 0.046; Euler's observed rate -ln(1 - dt lambda)/dt exceeds
    //     lambda by <= dt lambda^2/2 (1 + dt lambda) = 0.0081. The fitted slope of ln s thus lies in
    //     [4 - 0.046, 4 + 0.0081]. A factor 2 in the squeeze term gives 2 or 8; no lubrication, contact
    //     in finite time (the rate diverges).
    std::vector<double> times, logs;
    for (std::size_t k = 0; k < n; ++k)
        if (t.gap[k] >= 1e-4 && t.gap[k] <= 1e-3) times.push_back(t.time[k]), logs.push_back(std::log(t.gap[k]));
    ASSERT_GT(times.size(), 100u);
    const double fitted = -slope(times, logs);
    EXPECT_GE(fitted, 4.0 - 0.046);
    EXPECT_LE(fitted, 4.0 + 0.0081);
    std::printf(
        "[ law ] fitted decay rate on s in [1e-4, 1e-3]: %.6f (tau = %.6f tau_s; leading order 4, 0.25); "
        "final gap %.4g at t = %.4g\n",
        fitted, 1.0 / fitted, t.gap.back(), t.time.back());
}

// ---------------------------------------------------------------------------------------------
// A cluster with many lubricated pairs against a dense solve.

// Twelve spheres in an open box, six close pairs (gaps 0.004 ... 0.25) arranged in a bent chain so
// that the pairs also feel each other, forces exactly representable in float. rho(zeta mu) ~ 10^2:
// the explicit scheme diverges from the first step.
// An engine restored from a checkpoint after `first` steps and advanced `second` more ends bit for
// bit where one advanced first + second steps without a stop does: positions, velocities, forces
// and the last solve's iteration count and residual (the solver's starting guess is engine state).
inline void expect_restored_run_is_bitwise(const engine_config& c, const initial_state& s, std::uint64_t first,
                                           std::uint64_t second) {
    auto whole = make_engine(c, s);
    whole->advance(first + second);
    auto head = make_engine(c, s);
    head->advance(first);
    engine_state saved;
    head->save_state(saved);
    auto tail = make_engine(c, s);
    tail->restore_state(saved);
    tail->advance(second);
    frame a, b;
    whole->read_frame(a);
    tail->read_frame(b);
    ASSERT_EQ(a.step, b.step);
    for (std::size_t i = 0; i < s.positions.size(); ++i) {
        EXPECT_EQ(a.position[i], b.position[i]) << i;
        EXPECT_EQ(a.velocity[i], b.velocity[i]) << i;
        EXPECT_EQ(a.force[i], b.force[i]) << i;
    }
    EXPECT_EQ(a.lubrication.iterations, b.lubrication.iterations);
    EXPECT_EQ(a.lubrication.relative_residual, b.lubrication.relative_residual);
}

inline initial_state lubricated_cluster() {
    initial_state s;
    const double gaps[] = {0.004, 0.03, 0.25, 0.01, 0.1, 0.06};
    double x = 0.0;
    for (int p = 0; p < 6; ++p) {
        const double z = 0.5 * (p % 2), y = 0.25 * p;  // not collinear
        s.positions.push_back({x, y, z});
        s.positions.push_back({x + 2.0 + gaps[p], y + 0.0, z});
        x += 2.0 + gaps[p] + 2.0 + 0.125 + 0.0625 * p;  // the next pair 0.125 ... 0.44 a further on
    }
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        s.external_forces.push_back({i % 2 ? -1.0 : 1.0, 0.25 * double(i % 3) - 0.25, -0.5 + 0.125 * double(i % 5)});
    return s;
}

struct dense_reference {
    std::vector<double> velocity;         // v* = (I + mu R)^-1 mu F, 3N
    double mobility_norm = 0.0;           // Gershgorin bound >= lambda_max(mu)
    double resistance_norm = 0.0;         // Gershgorin bound >= lambda_max(R)
    double spectral_radius = 0.0;         // rho(R mu) by power iteration
    double force_norm = 0.0;              // ||F||
    double lubrication_force_norm = 0.0;  // ||R v*||
    double smallest_gap = 0.0;
    // Per particle: sum over its lubricated pairs of the largest resistance the two-body model
    // evaluates (the exact one, with the far field's <= 5/mu0), 0 for the paper's model.
    std::vector<double> evaluated_resistance;
};

// The implicit solution at the given (engine-rounded) positions, in double: mu from
// mobility_matrix(), R column by column from lubrication_pair_force() on unit velocities of one sphere.
inline dense_reference dense_implicit_solution(const std::vector<vec3<double>>& positions,
                                               const std::vector<vec3<double>>& forces,
                                               const system_parameters& system) {
    const std::size_t n = 3 * positions.size();
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    const dense_matrix mu = mobility_matrix(positions, system);
    std::vector<double> resistance(n * n, 0.0);  // F_lub = -R v, R(row, col) at [col * n + row]
    const vec3<double> unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    dense_reference out;
    out.smallest_gap = INFINITY;
    out.evaluated_resistance.assign(positions.size(), 0.0);
    for (std::size_t i = 0; i < positions.size(); ++i)
        for (std::size_t j = 0; j < positions.size(); ++j) {
            if (i == j) continue;
            const vec3<double> rij = minimum_image(positions[i] - positions[j], p.box);
            if (!in_lubrication_range(rij, p.lubrication)) continue;
            out.smallest_gap = std::min(out.smallest_gap, std::sqrt(dot(rij, rij)) / system.radius - 2.0);
            if (system.lubrication.model == lubrication_model::two_body) {
                // What the model's evaluation may get wrong beyond the gap: ~64u of the resistances it
                // subtracts (expect_cluster_matches_dense_solve), per pair, summed by rows.
                const two_body_modes<double> exact = exact_pair_resistance(
                    std::max(std::sqrt(dot(rij, rij)) / system.radius - 2.0, system.lubrication.min_gap));
                out.evaluated_resistance[i] +=
                    (std::max({exact.x_sum, exact.x_difference, exact.y_sum, exact.y_difference}) + 5.0) /
                    system.self_mobility;
            }
            for (int c = 0; c < 3; ++c) {
                // d F_lub,i / d v_i (diagonal block) and d F_lub,i / d v_j: the force on i of a unit
                // velocity of i alone, and of j alone (the paper's model: exactly minus the first).
                const vec3<double> fi = lubrication_pair_force(positions[i], positions[j], unit[c], {}, p);
                const vec3<double> fj = lubrication_pair_force(positions[i], positions[j], {}, unit[c], p);
                const double col_i[3] = {fi.x, fi.y, fi.z}, col_j[3] = {fj.x, fj.y, fj.z};
                for (int row = 0; row < 3; ++row) {
                    resistance[(3 * i + c) * n + 3 * i + row] -= col_i[row];
                    resistance[(3 * j + c) * n + 3 * i + row] -= col_j[row];
                }
            }
        }
    std::vector<double> system_matrix(n * n), rhs(n, 0.0), f(n);
    for (std::size_t k = 0; k < positions.size(); ++k)
        f[3 * k] = forces[k].x, f[3 * k + 1] = forces[k].y, f[3 * k + 2] = forces[k].z;
    for (std::size_t i = 0; i < n; ++i) {
        double row_mu = 0.0, row_r = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            double mr = 0.0;
            for (std::size_t k = 0; k < n; ++k) mr += mu(i, k) * resistance[j * n + k];
            system_matrix[j * n + i] = (i == j ? 1.0 : 0.0) + mr;
            rhs[i] += mu(i, j) * f[j];
            row_mu += std::fabs(mu(i, j));
            row_r += std::fabs(resistance[j * n + i]);
        }
        out.mobility_norm = std::max(out.mobility_norm, row_mu);
        out.resistance_norm = std::max(out.resistance_norm, row_r);
        out.force_norm += f[i] * f[i];
    }
    out.force_norm = std::sqrt(out.force_norm);
    out.velocity = test_support::dense_solve(system_matrix, rhs, n);
    for (std::size_t i = 0; i < n; ++i) {
        double g = 0.0;
        for (std::size_t j = 0; j < n; ++j) g += resistance[j * n + i] * out.velocity[j];
        out.lubrication_force_norm += g * g;
    }
    out.lubrication_force_norm = std::sqrt(out.lubrication_force_norm);
    // rho(R mu): R mu is similar to mu^1/2 R mu^1/2 (symmetric, >= 0), so power iteration converges to
    // its largest eigenvalue from below; 500 iterations of a 36 x 36 matrix are plenty here.
    std::vector<double> x(n, 1.0), y(n);
    for (int it = 0; it < 500; ++it) {
        std::vector<double> z(n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) z[i] += mu(i, j) * x[j];
        double norm = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            y[i] = 0.0;
            for (std::size_t j = 0; j < n; ++j) y[i] += resistance[j * n + i] * z[j];
            norm += y[i] * y[i];
        }
        norm = std::sqrt(norm);
        double xnorm = 0.0;
        for (double v : x) xnorm += v * v;
        out.spectral_radius = norm / std::sqrt(xnorm);
        for (std::size_t i = 0; i < n; ++i) x[i] = y[i] / norm;
    }
    return out;
}

// The engine's velocities (frame f, after a solve that reported the relative residual rho) against
// the dense solution v* at the frame's positions (engine/docs/lubrication.md, "Accuracy"). The
// engine returns w (its forces, f.force) and v = fl(mu w) = mu w + d; rho is ||F - w - zeta v|| /
// ||F|| evaluated in the working precision W (unit roundoff u). With A = mu^-1 + zeta,
//     v - v* = A^-1 (A v - F) = A^-1 mu^-1 d - A^-1 (F - w - zeta v) = (I + mu zeta)^-1 d - A^-1 r,
// r the exact residual of (w, v). A^-1 = (mu^-1 + zeta)^-1 <= mu (Loewner order, zeta >= 0), so
// ||A^-1 r|| <= lambda_max(mu) ||r||; (I + mu zeta)^-1 = mu^1/2 (I + mu^1/2 zeta mu^1/2)^-1 mu^-1/2 has
// 2-norm <= sqrt(kappa(mu)). Roundings:
//  - r against its computed value: v rounded to W (u |zeta| |v|), the pair sums of zeta v (a few u
//    per term), two vector combinations: <= 8u (||F|| + ||w|| + L_R ||v||), L_R >= ||zeta|| (Gershgorin);
//  - d: 3N terms mu_ij w_j, tensors in W (4u each) summed in the accumulator (no worse than W):
//    ||d|| <= (3N + 4) u L_mu ||w||, L_mu >= lambda_max(mu) (Gershgorin);
//  - the gap in zeta comes from W coordinates: s = r/a - 2 errs by <= 8u (r <= 3a) absolute, each
//    resistance by a relative 8u/s_min + 4u, which moves v by <= L_mu (8u/s_min + 4u) ||zeta v*||;
//  - the two-body model (r up to 5.5a: the gap errs by <= 8u 5.5/3) subtracts the far field from
//    the exact resistance: its error is relative to those, not to zeta (the log 3u times
//    d ln R/d ln s <= 1, Clenshaw's 13 terms <= 3 13u of the series' size, the modes, taper and
//    products a few u more: < 64u of R_exact + R_far per mode), which moves v by <= L_mu 64u E ||v*||,
//    E the largest row sum of those resistances (dense_reference::evaluated_resistance).
// In double all of this is ~1e-12 against the 1e-8 tolerance; in float the tolerance (2.4e-4)
// still dominates.
inline void expect_cluster_matches_dense_solve(const frame& f, const std::vector<vec3<double>>& forces,
                                               const system_parameters& system, double u, const std::string& what) {
    const dense_reference ref = dense_implicit_solution(f.position, forces, system);
    const double n3 = 3.0 * double(f.position.size());
    double w_norm = 0.0, v_norm = 0.0;
    for (std::size_t i = 0; i < f.position.size(); ++i)
        w_norm += dot(f.force[i], f.force[i]), v_norm += dot(f.velocity[i], f.velocity[i]);
    w_norm = std::sqrt(w_norm), v_norm = std::sqrt(v_norm);
    const double lambda_min = smallest_eigenvalue(mobility_matrix(f.position, system));
    ASSERT_GT(lambda_min, 0.0) << what << ": an open cluster's RPY mobility is positive definite";
    const double residual_rounding = 8 * u * (ref.force_norm + w_norm + ref.resistance_norm * v_norm);
    const double mobility_rounding = (n3 + 4) * u * ref.mobility_norm * w_norm;
    const bool two_body = system.lubrication.model == lubrication_model::two_body;
    const double gap_rounding = two_body ? 8 * u * 5.5 / 3.0 : 8 * u;
    const double evaluation =
        two_body ? 64 * u * *std::max_element(ref.evaluated_resistance.begin(), ref.evaluated_resistance.end()) * v_norm
                 : 0.0;
    const double bound = ref.mobility_norm * (f.lubrication.relative_residual * ref.force_norm + residual_rounding) +
                         std::sqrt(ref.mobility_norm / lambda_min) * mobility_rounding +
                         ref.mobility_norm * (gap_rounding / ref.smallest_gap + 4 * u) * ref.lubrication_force_norm +
                         ref.mobility_norm * evaluation;
    double error = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < f.position.size(); ++i)
        for (int c = 0; c < 3; ++c) {
            const double engine = c == 0 ? f.velocity[i].x : c == 1 ? f.velocity[i].y : f.velocity[i].z;
            const double d = engine - ref.velocity[3 * i + c];
            error += d * d;
            norm += ref.velocity[3 * i + c] * ref.velocity[3 * i + c];
        }
    error = std::sqrt(error), norm = std::sqrt(norm);
    EXPECT_TRUE(f.lubrication.solved) << what;
    EXPECT_LE(error, bound) << what << ": ||v - v*|| = " << error << " of ||v*|| = " << norm;
    // Failable in the other direction too: the lubrication changes v by O(1), far above the bound.
    EXPECT_LT(bound, 0.05 * norm) << what;
    std::printf(
        "[ %s ] rho(zeta mu) = %.4g, s_min = %.4g, iterations %u, residual %.3g, ||v - v*|| = %.3g "
        "(bound %.3g, ||v*|| = %.4g)\n",
        what.c_str(), ref.spectral_radius, ref.smallest_gap, f.lubrication.iterations, f.lubrication.relative_residual,
        error, bound, norm);
}

// Conjugate gradients on an SPD operator with condition number kappa reduce the energy norm of the
// error by 2 ((sqrt k - 1)/(sqrt k + 1))^k; the preconditioned operator I + mu^1/2 zeta mu^1/2 has
// eigenvalues in [1, 1 + rho(zeta mu)], so kappa <= 1 + rho. For a relative residual `tolerance`
// (residual and energy norms differ by at most sqrt(kappa)) k <= ceil(sqrt(kappa)/2 ln(2 sqrt(kappa)/tolerance))
// iterations suffice in exact arithmetic.
inline std::uint32_t cg_iteration_bound(double spectral_radius, double tolerance) {
    const double kappa = 1.0 + spectral_radius;
    return static_cast<std::uint32_t>(std::ceil(0.5 * std::sqrt(kappa) * std::log(2.0 * std::sqrt(kappa) / tolerance)));
}

}  // namespace stokesian::testing_support
