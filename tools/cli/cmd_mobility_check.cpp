// `stokesian mobility-check SCENARIO [--case NAME] [--json]`: is the mobility matrix of the
// scenario's initial configuration positive definite? (observables/positive_definiteness.hpp:
// LAPACK Cholesky, the smallest eigenvalue up to a size limit, a Gershgorin bound.)
// Exit status: 0 positive definite, 1 not (or undecided above both LAPACK limits), 2 bad input.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options_common.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

struct mobility_check_options {
    std::string scenario_path, case_name;
    bool json = false;
    definiteness_limits limits;
};

int execute(const mobility_check_options& o) {
    const scenario s = load_scenario(o.scenario_path, o.case_name);
    const auto start = std::chrono::steady_clock::now();
    const definiteness_report r = check_mobility_positive_definiteness(s.particles.positions, s.system, o.limits);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const char* verdict = r.positive_definite() ? "positive definite"
                          : r.decided()         ? "NOT positive definite"
                                                : "undecided (N above both LAPACK limits, Gershgorin bound <= 0)";
    if (o.json) {
        std::cout << io::json_text({{"scenario", s.name},
                                    {"case", s.case_name},
                                    {"particles", r.particles},
                                    {"matrix_order", 3 * r.particles},
                                    {"positive_definite", r.positive_definite()},
                                    {"decided", r.decided()},
                                    {"cholesky_attempted", r.cholesky_attempted},
                                    {"cholesky_succeeded", r.cholesky_succeeded},
                                    {"cholesky_info", r.cholesky_info},
                                    {"smallest_eigenvalue", r.smallest_eigenvalue},
                                    {"gershgorin_lower_bound", r.gershgorin_lower_bound},
                                    {"relative_asymmetry", r.asymmetry},
                                    {"wall_seconds", seconds}});
    } else {
        std::printf("%s%s: N = %zu, mobility matrix %zu x %zu (double, minimum image, tie rule)\n", s.name.c_str(),
                    s.case_name.empty() ? "" : (" (case " + s.case_name + ")").c_str(), r.particles, 3 * r.particles,
                    3 * r.particles);
        if (r.cholesky_attempted)
            std::printf("  Cholesky (LAPACK dpotrf): %s\n",
                        r.cholesky_succeeded
                            ? "succeeds"
                            : ("fails at the leading minor of order " + std::to_string(r.cholesky_info)).c_str());
        else std::printf("  Cholesky: not attempted (N > %zu)\n", o.limits.cholesky_max_particles);
        if (r.eigenvalue_computed) std::printf("  smallest eigenvalue (dsyevr): %.10g mu0\n", r.smallest_eigenvalue);
        else std::printf("  smallest eigenvalue: not computed (N > %zu)\n", o.limits.eigenvalue_max_particles);
        std::printf("  Gershgorin lower bound: %.10g mu0%s\n", r.gershgorin_lower_bound,
                    r.gershgorin_lower_bound > 0 ? "" : " (not positive: says nothing)");
        if (!std::isnan(r.asymmetry)) std::printf("  max |mu_ab - mu_ba| / max |mu_ab|: %.3g\n", r.asymmetry);
        std::printf("  verdict: %s (%s)\n", verdict, format_duration(seconds).c_str());
    }
    return r.positive_definite() ? 0 : 1;
}

}  // namespace

action register_mobility_check(CLI::App& app) {
    auto o = std::make_shared<mobility_check_options>();
    auto* cmd = app.add_subcommand(
        "mobility-check", "Check that the mobility matrix of a scenario's initial configuration is positive definite");
    cmd->add_option("scenario", o->scenario_path, "scenario file (TOML)")->required();
    add_case_option(*cmd, o->case_name);
    cmd->add_option("--eigenvalue-limit", o->limits.eigenvalue_max_particles,
                    "compute the smallest eigenvalue up to this many particles")
        ->capture_default_str();
    cmd->add_option("--cholesky-limit", o->limits.cholesky_max_particles,
                    "attempt the Cholesky factorisation up to this many particles")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "print a machine-readable result on stdout");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
