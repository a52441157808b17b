#pragma once
// Integrators are replaceable parts: each is a function template over the backend's step
// primitives ("ops"), so the CPU and CUDA backends share them.
//
//   ops.drift()                    r <- r + dt v                       (Euler's update)
//   ops.update_forces()            F <- F_ext + sum_j F_int - sum_j zeta_sing . (v_i - v_j), v the
//                                  current velocities (the "previous" ones of the explicit scheme)
//   ops.update_velocities()        v <- mu . F
//   ops.begin_step()               remember r_n, the images and k[0] = v_n
//   ops.store_stage(s)             k[s] <- v                           (s = 1, 2, 3)
//   ops.drift_from_start(c, m)     r <- r_n + dt sum_{s<m} c[s] k[s]   (in the position precision)
//   ops.drift_with_history(c0, c1) r <- r + dt (c0 v + c1 v_prev)      (Adams-Bashforth)
//   ops.remember_velocity()        v_prev <- v;  ops.has_history(): v_prev is set
//
// A velocity evaluation is update_forces() then update_velocities(). The paper's explicit
// lubrication (forces from the previous velocities) carries over: each evaluation uses the latest
// velocity estimate, so Heun's corrector and each Runge-Kutta stage correct the forces with the
// preceding stage's velocities. Costs per step, in evaluations: euler 1, heun 2, rk4 4, ab2 1.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stokesian {

enum class integrator_kind : std::uint8_t { euler, heun, rk4, ab2 };

std::string_view to_string(integrator_kind k) noexcept;
integrator_kind parse_integrator(std::string_view name);  // throws std::invalid_argument
// Velocity evaluations per step (the compute cost of a step relative to Euler's).
int evaluations_per_step(integrator_kind k) noexcept;

template <class Ops>
void evaluate_velocities(Ops& ops) {
    ops.update_forces();
    ops.update_velocities();
}

// The paper's scheme (Section 3.1): explicit Euler, first order.
struct explicit_euler {
    template <class Ops>
    static void step(Ops& ops) {
        ops.drift();
        evaluate_velocities(ops);
    }
};

// An explicit Runge-Kutta step from the rows of its Butcher tableau: row s holds the weights of the
// s + 1 stage velocities known when stage s + 2 starts (k[0] = v_n, left by the previous step); the
// last row is the update to r_{n+1}. Each row drifts from r_n and evaluates the velocities there.
template <std::size_t Stages, class Ops>
void explicit_runge_kutta_step(Ops& ops, const double (&rows)[Stages][Stages]) {
    ops.begin_step();
    for (std::size_t s = 0; s < Stages; ++s) {
        if (s > 0) ops.store_stage(static_cast<int>(s));
        ops.drift_from_start(rows[s], static_cast<int>(s + 1));
        evaluate_velocities(ops);
    }
}

// Heun (explicit trapezoidal rule), second order: predictor r* = r + dt k1, k2 = v(r*),
// r_{n+1} = r_n + dt (k1 + k2)/2.
struct heun {
    template <class Ops>
    static void step(Ops& ops) {
        static constexpr double rows[2][2] = {{1.0}, {0.5, 0.5}};
        explicit_runge_kutta_step(ops, rows);
    }
};

// The classical fourth-order Runge-Kutta method.
struct runge_kutta_4 {
    template <class Ops>
    static void step(Ops& ops) {
        static constexpr double rows[4][4] = {
            {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}, {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0}};
        explicit_runge_kutta_step(ops, rows);
    }
};

// Two-step Adams-Bashforth, second order: r_{n+1} = r_n + dt (3/2 v_n - 1/2 v_{n-1}). The first
// step of a run (no v_{n-1} yet) is an Euler step.
struct adams_bashforth_2 {
    template <class Ops>
    static void step(Ops& ops) {
        if (ops.has_history()) ops.drift_with_history(1.5, -0.5);
        else ops.drift();
        ops.remember_velocity();
        evaluate_velocities(ops);
    }
};

template <class Ops>
void integrate_step(integrator_kind kind, Ops& ops) {
    switch (kind) {
        case integrator_kind::euler: explicit_euler::step(ops); break;
        case integrator_kind::heun: heun::step(ops); break;
        case integrator_kind::rk4: runge_kutta_4::step(ops); break;
        case integrator_kind::ab2: adams_bashforth_2::step(ops); break;
    }
}

}  // namespace stokesian
