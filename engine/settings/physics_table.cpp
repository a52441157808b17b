// The [physics] and [box] tables: sphere radius and mobility, the tensor, lubrication, pair force,
// the boundary.
#include "field_reader.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/ewald_setup.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/physics/mobility.hpp"

namespace stokesian::settings {

namespace {

// Both spellings are checked wherever written; the one of the highest layer gives mu0.
void resolve_self_mobility(const field_reader& r, system_parameters& system) {
    r.table().number("viscosity", sign_rule::positive);
    if (const auto e = r.table().exclusive("self_mobility", "viscosity")) {
        const double x = r.check().number(*e, sign_rule::positive);
        system.self_mobility = e->key.ends_with("viscosity") ? stokes_self_mobility(x, system.radius) : x;
    }
}

constexpr std::string_view schemes[] = {"explicit", "implicit"};
constexpr std::string_view models[] = {"paper", "two-body"};
constexpr std::string_view pair_force_kinds[] = {"none", "exponential"};
constexpr std::string_view boundaries[] = {"periodic", "open"};

const field<system_parameters> physics[] = {
    {.key = "radius",
     .member = &system_parameters::radius,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "1", "> 0; the sphere radius a"}},
    {.key = "self_mobility",
     .member = &system_parameters::self_mobility,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "1", "> 0; the Stokes mobility mu0"}},
    {.key = "viscosity",
     .member = std::monostate{},
     .doc = {"number", "", "> 0; instead of `self_mobility`: mu0 = 1 / (6 pi eta a). Set at most one of the two"},
     .after = resolve_self_mobility,
     .excludes = "self_mobility"},
    {.key = "tensor",
     .member = text_member<system_parameters>{
         [](const system_parameters& p) { return std::string(to_string(p.tensor)); },
         [](system_parameters& p, const std::string& text) { p.tensor = *parse_tensor(text); }},
     .rule = {.choices = registered_tensor_names},
     .doc = {"string", "`\"rotne-prager\"`",
             "`\"rotne-prager\"` (Rotne-Prager, with the Rotne-Prager-Yamakawa form for overlapping spheres), "
             "`\"oseen\"` (point-particle limit) or `\"rpy-ewald\"` (the Ewald-summed Rotne-Prager-Yamakawa "
             "mobility of the periodic box, Beenakker 1986: every image, positive definite; needs `boundary = "
             "\"periodic\"`, settings in `[physics.ewald]`, "
             "[engine/docs/ewald.md](../../engine/docs/ewald.md))"}},
};

// An upper limit keeps a typo from turning a failing solve into hours of iterations.
constexpr std::int64_t most_iterations = 1000000;

const field<lubrication_settings> lubrication[] = {
    {.key = "enabled",
     .member = &lubrication_settings::enabled,
     .doc = {"boolean", "`false`",
             "lubrication: the Jeffrey-Onishi correction for surface gaps s = r/a - 2 < 1 (`model = \"paper\"`) or "
             "the exact two-sphere resistance for r < 5.5a (`model = \"two-body\"`)"}},
    {.key = "min_gap",
     .member = &lubrication_settings::min_gap,
     .rule = {.unit_interval = true, .note = "(in units of a)"},
     .doc = {"number", "1e-6", "0 < min_gap < 1; floor of s in the resistance functions"}},
    {.key = "scheme",
     .member = text_member<lubrication_settings>{
         [](const lubrication_settings& l) { return std::string(to_string(l.scheme)); },
         [](lubrication_settings& l, const std::string& text) { l.scheme = parse_lubrication_scheme(text); }},
     .rule = {.choices = schemes},
     .doc = {"string", "`\"explicit\"`",
             "`\"explicit\"`: the paper's scheme (Sec. 3.1), forces corrected with the previous step's velocities; "
             "unstable once the spectral radius of zeta mu exceeds 1 (a pair below s = 0.282, the fcc lattice at n = "
             "0.1), independently of dt. `\"implicit\"`: v = mu (I + zeta mu)^-1 F (the paper's Eq. "
             "(mobilityCorrection)) solved in every velocity evaluation by preconditioned conjugate gradients to a "
             "true relative residual of sqrt(u) of the working precision (1.05e-8 in double, 2.4e-4 in float; "
             "refined where the recurrence drifts, and the run stops with exit code 1 where float cannot get there, "
             "typically gaps below a few 1e-4 a). Needs a positive definite mobility (open boundaries; a periodic "
             "box's nearest-image mobility can be indefinite and the solve then stops the run). Not with `hi_kernel "
             "= \"fused\"` ([engine/docs/lubrication.md](../../engine/docs/lubrication.md))"}},
    {.key = "model",
     .member = text_member<lubrication_settings>{
         [](const lubrication_settings& l) { return std::string(to_string(l.model)); },
         [](lubrication_settings& l, const std::string& text) { l.model = parse_lubrication_model(text); }},
     .rule = {.choices = models},
     .doc =
         {"string", "`\"paper\"`",
          "`\"paper\"`: the paper's Eq. (lubrication), the leading singular Jeffrey-Onishi terms on the velocity "
          "difference, cut off at s = 1. `\"two-body\"`: the exact torque-free two-sphere resistance minus the "
          "inverse of the Rotne-Prager two-body mobility, so that an isolated pair moves as two real spheres "
          "(errors against the exact two-sphere functions and the cutoff at r = 5.5a: "
          "[engine/docs/lubrication.md](../../engine/docs/lubrication.md)); needs `scheme = \"implicit\"` and `tensor "
          "= \"rotne-prager\"`"}},
    {.key = "max_iterations",
     .member = &lubrication_settings::max_iterations,
     .rule = {.min = 1, .max = most_iterations},
     .doc = {"integer", "1000",
             "1 ... 1000000; conjugate-gradient iterations allowed per solve (implicit scheme); a solve that needs "
             "more stops the run (exit code 1, the output stays valid)"}},
};

const field<pair_force_settings> pair_force[] = {
    {.key = "kind",
     .member = text_member<pair_force_settings>{[](const pair_force_settings& p) -> std::string {
                                                    return p.kind == pair_force_kind::exponential ? "exponential"
                                                                                                  : "none";
                                                },
                                                [](pair_force_settings& p, const std::string& text) {
                                                    p.kind = text == "exponential" ? pair_force_kind::exponential
                                                                                   : pair_force_kind::none;
                                                }},
     .rule = {.choices = pair_force_kinds},
     .doc = {"string", "`\"none\"`", "`\"none\"` or `\"exponential\"`"}},
    {.key = "strength",
     .member = &pair_force_settings::strength,
     .rule = {.sign = sign_rule::non_negative},
     .doc = {"number", "0", ">= 0; F0 in units of F"}},
    {.key = "range",
     .member = &pair_force_settings::range,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "0.1", "> 0; lambda in a"}},
    {.key = "cutoff",
     .member = &pair_force_settings::cutoff,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "2.5", "> 0; r_c in a"}},
};

void tolerance_in_range(const field_reader& r, ewald_settings& e) {
    if (e.tolerance >= ewald_min_tolerance && e.tolerance <= ewald_max_tolerance) return;
    if (const auto entry = r.table().find("tolerance"))
        r.check().fail(*entry, "expected " + short_number(ewald_min_tolerance) + " <= tolerance <= " +
                                   short_number(ewald_max_tolerance) + " (the Ewald sum's truncation error, in mu0)");
}

void xi_in_range(const field_reader& r, ewald_settings& e) {
    if (!e.xi || (*e.xi >= ewald_min_xi && *e.xi <= ewald_max_xi)) return;
    if (const auto entry = r.table().find("xi"))
        r.check().fail(*entry, "expected " + short_number(ewald_min_xi) + " <= xi <= " + short_number(ewald_max_xi) +
                                   " (the Ewald sum's cutoff searches span 12/xi and 24 xi, in a and 1/a)");
}

const field<ewald_settings> ewald[] = {
    {.key = "tolerance",
     .member = &ewald_settings::tolerance,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "1e-6",
             "1e-12 ... 0.01; tensor `\"rpy-ewald\"`: the estimated truncation error of every entry of the mobility "
             "matrix, in units of mu0; the real-space and wave-space cutoffs are chosen from it"},
     .after = tolerance_in_range},
    {.key = "xi",
     .member = &ewald_settings::xi,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "3 / V^(1/3)",
             "1e-307 ... 1e306, in 1/a; the Ewald splitting parameter (the result does not depend on it, to the "
             "tolerance; the default balances the real-space and wave-space work); the sum's tables refuse values "
             "that need more than 15 images or wave vectors per axis"},
     .after = xi_in_range,
     .written = [](const ewald_settings& e) { return e.xi.has_value(); }},
};

void edges_only_when_periodic(const field_reader& r, box_settings& box) {
    if (!box.periodic)
        if (const auto e = r.table().find("edges"))
            r.check().fail(*e, "box.edges is only allowed with boundary = \"periodic\"");
}

const field<box_settings> box[] = {
    {.key = "boundary",
     .member = text_member<box_settings>{
         [](const box_settings& b) -> std::string { return b.periodic ? "periodic" : "open"; },
         [](box_settings& b, const std::string& text) { b.periodic = text == "periodic"; }},
     .rule = {.choices = boundaries},
     .doc = {"string", "required", "`\"periodic\"` or `\"open\"`"},
     .missing = "\"periodic\" or \"open\""},
    {.key = "edges",
     .member = &box_settings::edges,
     .rule = {.sign = sign_rule::positive, .note = "(the box edges in a)"},
     .doc = {"vector", "",
             "each > 0. Required for a periodic box with explicit positions or a positions file without a periodic "
             "box; one of the three settings of `[particles.random]`; not allowed for an open box, nor with "
             "`[particles.lattice]` (the lattice computes them) or an H5MD file's periodic box"},
     .after = edges_only_when_periodic,
     .written = [](const box_settings& b) { return b.periodic; }},
};

}  // namespace

std::span<const field<system_parameters>> physics_fields() { return physics; }
std::span<const field<lubrication_settings>> lubrication_fields() { return lubrication; }
std::span<const field<pair_force_settings>> pair_force_fields() { return pair_force; }
std::span<const field<box_settings>> box_fields() { return box; }
std::span<const field<ewald_settings>> ewald_fields() { return ewald; }

}  // namespace stokesian::settings
