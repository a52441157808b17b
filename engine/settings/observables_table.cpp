// The [observables] table and its sub-tables [observables.cycle], [observables.positive_definiteness].
#include "field_reader.hpp"
#include "scenario_tables.hpp"

namespace stokesian::settings {

namespace {

void particle_in_range(const field_reader& r, cycle_spec& spec) {
    if (spec.particle >= r.particle_count())
        r.check().fail(*r.table().find("particle"),
                       "expected a 0-based particle index < N = " + std::to_string(r.particle_count()));
}

constexpr std::string_view components[] = {"x", "y", "z"};

const field<observable_settings> observables[] = {
    {.key = "tetrahedron_symmetry",
     .member = &observable_settings::tetrahedron_symmetry,
     .rule = {.required_particles = 4},
     .doc = {"boolean", "`false`",
             "symmetry residuals of the four-sphere configuration; `true` requires exactly 4 particles"}},
    {.key = "pair_gap",
     .member = &observable_settings::pair_gap,
     .rule = {.required_particles = 2},
     .doc = {"boolean", "`false`",
             "gap s = r/a - 2, its decay rate against the lubrication law, the explicit scheme's critical gap, sign "
             "changes of the separation speed; `true` requires exactly 2 particles"}},
    {.key = "velocity_spread",
     .member = &observable_settings::velocity_spread,
     .doc = {"boolean", "`false`",
             "mean velocity over the particles and its spread (max and RMS of \\|v_i - <v>\\|) per sample"}},
};

const field<cycle_spec> cycle[] = {
    {.key = "particle",
     .member = &cycle_spec::particle,
     .rule = {.min = 0},
     .doc = {"integer", "required", "a 0-based particle index < N"},
     .missing = "a 0-based particle index",
     .after = particle_in_range},
    {.key = "component",
     .member = text_member<cycle_spec>{[](const cycle_spec& c) { return std::string(components[c.component]); },
                                       [](cycle_spec& c, const std::string& text) {
                                           c.component = text == "x" ? 0 : text == "y" ? 1 : 2;
                                       }},
     .rule = {.choices = components},
     .doc = {"string", "required",
             "`\"x\"`, `\"y\"` or `\"z\"`. Extrema of that coordinate of the particle give period and amplitude per "
             "cycle (paper Sec. 5), their averages over windows and drift per cycle with a 95% confidence interval, "
             "and the loss of periodicity"},
     .missing = "\"x\", \"y\" or \"z\""},
    {.key = "window",
     .member = &cycle_spec::window,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "`1e4`",
             "> 0; τ_s; averaging window of period and amplitude (the paper's 10⁴ τ_s); the last, incomplete window "
             "is reported separately. At least one sample interval (`run.sample_every`) and the run's length / 10⁶ "
             "(at most 10⁶ windows)"}},
    {.key = "period_jump_tolerance",
     .member = &cycle_spec::period_jump_tolerance,
     .rule = {.unit_interval = true, .note = "(relative to the period)"},
     .doc = {"number", "`0.05`",
             "0 < R < 1; a period off the median of the previous 10 by more than R (relative) marks the loss of "
             "periodicity (as does no maximum for 2 periods); derivation in `engine/docs/observables.md`"}},
};

const field<positive_definiteness_spec> positive_definiteness[] = {
    {.key = "every",
     .member = &positive_definiteness_spec::every,
     .rule = {.min = 1},
     .doc = {"integer", "100",
             ">= 1. Every K-th sample, the dense 3N x 3N mobility matrix is checked with LAPACK (Cholesky up to N = "
             "2000, smallest eigenvalue up to N = 1000, a Gershgorin bound always)"}},
};

}  // namespace

std::span<const field<observable_settings>> observables_fields() { return observables; }
std::span<const field<cycle_spec>> cycle_fields() { return cycle; }
std::span<const field<positive_definiteness_spec>> positive_definiteness_fields() { return positive_definiteness; }

}  // namespace stokesian::settings
