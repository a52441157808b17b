#pragma once
// The physical system as the scenario defines it, in double precision and reduced units:
// lengths in a, forces in F, time in tau_s = a / (mu0 F). Backends convert it to their working
// precision with make_interaction_parameters<W>().
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/core/ewald_setup.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/interactions.hpp"

namespace stokesian {

// How the lubrication forces enter the velocities (engine/docs/lubrication.md):
//  - explicit_update: the paper's scheme (Section 3.1), forces corrected with the previous
//    velocities, F <- F - zeta (v_i - v_j); unstable once the spectral radius of zeta mu exceeds 1
//    (for a pair below s_c = 0.282, independently of dt);
//  - implicit_solve: v = mu (I + zeta mu)^-1 F, the paper's Eq. (mobilityCorrection), solved every
//    velocity evaluation by preconditioned conjugate gradients (core/lubrication_solver.hpp).
enum class lubrication_scheme : std::uint8_t { explicit_update, implicit_solve };

std::string_view to_string(lubrication_scheme s) noexcept;           // "explicit" | "implicit"
lubrication_scheme parse_lubrication_scheme(std::string_view name);  // throws std::invalid_argument

// What the lubrication adds (engine/docs/lubrication.md; the enum: physics/lubrication.hpp):
//  - paper: the paper's Eq. (lubrication), the leading singular Jeffrey-Onishi terms on v_i - v_j,
//    cut off at s = 1;
//  - two_body: the exact torque-free two-sphere resistance minus the inverse of the tensor's
//    two-body mobility (physics/two_body_lubrication.hpp), so that an isolated pair moves as two
//    real spheres; implicit scheme and the Rotne-Prager tensor only (lubrication_model_refusal).
std::string_view to_string(lubrication_model m) noexcept;          // "paper" | "two-body"
lubrication_model parse_lubrication_model(std::string_view name);  // throws std::invalid_argument

struct lubrication_settings {
    bool enabled = false;
    double min_gap = 1e-6;                                            // floor of the gap s in the resistance functions
    lubrication_scheme scheme = lubrication_scheme::explicit_update;  // the paper's, for fidelity
    lubrication_model model = lubrication_model::paper;               // the paper's, for fidelity
    // Conjugate-gradient iterations allowed per solve (implicit scheme): more is a failed run.
    std::uint32_t max_iterations = 1000;

    bool implicit() const { return enabled && scheme == lubrication_scheme::implicit_solve; }
};

struct pair_force_settings {
    pair_force_kind kind = pair_force_kind::none;
    double strength = 0.0;  // F0 / F
    double range = 0.1;     // lambda / a
    double cutoff = 2.5;    // r_c / a
};

struct box_settings {
    bool periodic = false;
    vec3<double> edges{0.0, 0.0, 0.0};  // L / a (periodic only)
};

// The Ewald sum of tensor "rpy-ewald" ([physics.ewald]; core/ewald_setup.hpp).
struct ewald_settings {
    double tolerance = 1e-6;   // estimated truncation error of each block entry, in units of mu0
    std::optional<double> xi;  // the splitting parameter (1/length); absent: 3 / V^(1/3)
};

struct system_parameters {
    double radius = 1.0;         // a
    double self_mobility = 1.0;  // mu0
    hydrodynamic_tensor tensor = hydrodynamic_tensor::rotne_prager;
    lubrication_settings lubrication;
    pair_force_settings pair_force;
    box_settings box;
    ewald_settings ewald;

    // The largest distance at which a short-range force acts (0 when none is on).
    double short_range_cutoff() const;
};

// Why the lubrication settings cannot run (empty when they can): the two-body model needs the
// implicit scheme (the explicit one diverges wherever zeta mu has an eigenvalue beyond 1, near
// contact always) and subtracts the Rotne-Prager two-body mobility (another tensor would need its
// own far-field resistance). One line, naming the keys.
std::string lubrication_model_refusal(const system_parameters& s);

struct initial_state {
    std::vector<vec3<double>> positions;        // wrapped into the box by the loader
    std::vector<vec3<double>> external_forces;  // constant in time, one per particle
    std::size_t size() const { return positions.size(); }
};

template <class W>
interaction_parameters<W> make_interaction_parameters(const system_parameters& s) {
    const W a = static_cast<W>(s.radius);
    const W mu0 = static_cast<W>(s.self_mobility);
    interaction_parameters<W> p{};
    p.mobility = make_mobility_parameters(a, mu0, s.tensor);
    if (s.tensor == hydrodynamic_tensor::rpy_ewald)
        p.mobility.ewald = convert_ewald_parameters<W>(make_ewald_parameters(s));
    p.lubrication = {s.lubrication.enabled, a, mu0, static_cast<W>(s.lubrication.min_gap), s.lubrication.model};
    p.pair = {s.pair_force.kind, static_cast<W>(s.pair_force.strength), static_cast<W>(s.pair_force.range),
              static_cast<W>(s.pair_force.cutoff), a};
    p.box = {s.box.periodic,
             {static_cast<W>(s.box.edges.x), static_cast<W>(s.box.edges.y), static_cast<W>(s.box.edges.z)}};
    p.short_range_cutoff = static_cast<W>(s.short_range_cutoff());
    return p;
}

}  // namespace stokesian
