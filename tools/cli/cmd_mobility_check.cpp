// `stokesian mobility-check SCENARIO [--case NAME] [--method auto|cholesky|eigen|lanczos]
// [--backend cpu|cuda|auto] [--json]`: is the mobility matrix of the scenario's initial configuration
// positive definite, and is the answer a proof or an estimate? (observables/definiteness_verdict.hpp:
// the verdict semantics; LAPACK or cuSOLVER Cholesky, Lanczos over the backend's own HI product.)
// Exit status: 0 proven positive definite, 1 otherwise (proven not, or only an estimate), 2 bad input.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options_common.hpp"
#include "options_run.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/json_text.hpp"
#include "stokesian/observables/definiteness_verdict.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "terminal.hpp"

namespace stokesian::cli {

namespace {

constexpr std::size_t host_dense_max_particles = 15446;  // 3N <= 46340 (positive_definiteness.cpp)

struct mobility_check_options {
    std::string scenario_path, case_name, method = "auto";
    std::shared_ptr<const run_key_options> run_keys;  // --backend: the [run] table's
    bool json = false;
    unsigned threads = 0;
    definiteness_limits limits;
    lanczos_options lanczos;
};

// The dense extras of small systems (positive_definiteness.hpp): the smallest eigenvalue, the
// Gershgorin bound and the asymmetry, without a second factorisation.
definiteness_report dense_extras(const scenario& s, const mobility_check_options& o) {
    definiteness_limits extras = o.limits;
    extras.cholesky_max_particles = 0;
    return check_mobility_positive_definiteness(s.particles.positions, s.system, extras);
}

int execute(const mobility_check_options& o) {
    const scenario s = load_scenario(o.scenario_path, o.case_name);
    verdict_options v;
    try {
        v.method = parse_definiteness_method(o.method);
    } catch (const std::invalid_argument& e) {
        throw input_error("--method", "", o.method, "auto, cholesky, eigen or lanczos");
    }
    if (o.lanczos.max_iterations == 0 || !(o.lanczos.tolerance > 0.0 && o.lanczos.tolerance < 1.0))
        throw input_error("--lanczos-iterations/--lanczos-tolerance", "", "",
                          "at least 1 iteration and a tolerance in (0, 1)");
    const std::size_t n = s.particles.positions.size();
    engine_config config;
    config.system = s.system;
    config.backend = o.run_keys->text("backend").value_or(s.run.backend);  // as a run of the scenario
    const backends::backend& chosen = *backends::backend_registry().resolve(config, n, "mobility-check").chosen;
    v.backend = chosen.name;
    // The host's dense methods: LAPACK's 32-bit INTEGER indexes the 3N x 3N array (3N <= 46340).
    const bool host_dense = v.method == definiteness_method::eigen ||
                            (v.method == definiteness_method::cholesky && !chosen.device_cholesky);
    if (host_dense && n > host_dense_max_particles)
        throw input_error("--method", "", o.method,
                          "N <= " + std::to_string(host_dense_max_particles) +
                              " for the dense LAPACK method on the "
                              "host (N = " +
                              std::to_string(n) + "; --method lanczos takes any N)");
    v.threads = o.threads;
    v.lanczos = o.lanczos;
    v.host_cholesky_max_particles = o.limits.cholesky_max_particles;
    const auto start = std::chrono::steady_clock::now();
    const definiteness_verdict r = decide_positive_definiteness(s.particles.positions, s.system, v);
    const bool extras_wanted = n <= o.limits.eigenvalue_max_particles;
    const definiteness_report d = extras_wanted ? dense_extras(s, o) : definiteness_report{};
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool proven_pd = r.kind == verdict_kind::proven_positive_definite;
    const double smallest = d.eigenvalue_computed ? d.smallest_eigenvalue : r.smallest;
    if (o.json) {
        std::cout << io::json_text({{"scenario", s.name},
                                    {"case", s.case_name},
                                    {"particles", n},
                                    {"matrix_order", 3 * n},
                                    {"verdict", to_string(r.kind)},
                                    {"proof", r.proof()},
                                    {"positive_definite", r.positive_definite},
                                    {"summary", r.summary()},
                                    {"method", r.method},
                                    {"engine", r.engine},
                                    {"notes", r.notes},
                                    {"cholesky_attempted", r.cholesky_run},
                                    {"cholesky_succeeded", r.cholesky_factorised},
                                    {"cholesky_info", r.cholesky_info},
                                    {"cholesky_shift", r.cholesky_shift},
                                    {"smallest_eigenvalue", smallest},
                                    {"lanczos_smallest", r.smallest},
                                    {"lanczos_smallest_bound", r.smallest_bound},
                                    {"lanczos_largest", r.largest},
                                    {"lanczos_largest_bound", r.largest_bound},
                                    {"lanczos_iterations", r.lanczos_iterations},
                                    {"lanczos_converged", r.lanczos_converged},
                                    {"quadratic_form", r.quadratic_form},
                                    {"quadratic_form_bound", r.quadratic_form_bound},
                                    {"proof_vector", r.proof_vector},
                                    {"gershgorin_lower_bound", extras_wanted ? d.gershgorin_lower_bound : NAN},
                                    {"relative_asymmetry", extras_wanted ? d.asymmetry : NAN},
                                    {"device_bytes", r.device_bytes},
                                    {"verdict_seconds", r.seconds},
                                    {"wall_seconds", seconds}});
        return proven_pd ? 0 : 1;
    }
    std::printf("%s%s: N = %zu, mobility matrix %zu x %zu (double, %s)\n", s.name.c_str(),
                s.case_name.empty() ? "" : (" (case " + s.case_name + ")").c_str(), n, 3 * n, 3 * n,
                s.system.box.periodic ? "minimum image, tie rule" : "open");
    std::printf("  method: %s on %s\n", r.method.c_str(), r.engine.c_str());
    if (r.cholesky_run)
        std::printf("  Cholesky of M - %.3g I: %s\n", r.cholesky_shift,
                    r.cholesky_factorised
                        ? "succeeds"
                        : ("fails at the leading minor of order " + std::to_string(r.cholesky_info)).c_str());
    if (r.lanczos_iterations > 0)
        std::printf("  Lanczos (%zu iterations, %s): smallest %.10g +- %.2g, largest %.10g +- %.2g mu0\n",
                    r.lanczos_iterations, r.lanczos_converged ? "converged" : "not converged", r.smallest,
                    r.smallest_bound, r.largest, r.largest_bound);
    else if (!std::isnan(r.smallest))
        std::printf("  smallest eigenvalue (dsyevr): %.10g +- %.2g mu0\n", r.smallest, r.smallest_bound);
    if (!std::isnan(r.quadratic_form))
        std::printf("  x^T M x = %.10g +- %.2g mu0 (%s, unit norm)\n", r.quadratic_form, r.quadratic_form_bound,
                    r.proof_vector.c_str());
    if (d.eigenvalue_computed && std::isnan(r.smallest))
        std::printf("  smallest eigenvalue (dsyevr): %.10g mu0\n", d.smallest_eigenvalue);
    if (extras_wanted) {
        std::printf("  Gershgorin lower bound: %.10g mu0%s\n", d.gershgorin_lower_bound,
                    d.gershgorin_lower_bound > 0 ? "" : " (not positive: says nothing)");
        std::printf("  max |mu_ab - mu_ba| / max |mu_ab|: %.3g\n", d.asymmetry);
    }
    for (const std::string& note : r.notes) std::printf("  note: %s\n", note.c_str());
    std::printf("  verdict: %s (%s)\n", r.summary().c_str(), format_duration(seconds).c_str());
    return proven_pd ? 0 : 1;
}

}  // namespace

action register_mobility_check(CLI::App& app) {
    auto o = std::make_shared<mobility_check_options>();
    auto* cmd = app.add_subcommand("mobility-check",
                                   "Decide whether the mobility matrix of a scenario's initial configuration is "
                                   "positive definite: a proof or an estimate with its bound");
    cmd->add_option("scenario", o->scenario_path, "scenario file (TOML)")->required();
    add_case_option(*cmd, o->case_name);
    cmd->add_option("--method", o->method,
                    "auto (Cholesky: LAPACK up to --cholesky-limit on the CPU, cuSOLVER on CUDA as far as the "
                    "device memory allows; Lanczos beyond), cholesky, eigen (dense LAPACK) or lanczos")
        ->capture_default_str();
    o->run_keys = add_run_key_options(
        *cmd, "The backend (the scenario's run.backend unless given; cuda: cuSOLVER and the CUDA HI kernel)",
        {"backend"});
    add_threads_option(*cmd, o->threads);
    cmd->add_option("--lanczos-iterations", o->lanczos.max_iterations, "Krylov dimension at most")
        ->capture_default_str();
    cmd->add_option("--lanczos-tolerance", o->lanczos.tolerance,
                    "stop when the extreme Ritz residuals are below this x max |theta|")
        ->capture_default_str();
    cmd->add_option("--eigenvalue-limit", o->limits.eigenvalue_max_particles,
                    "also print the dense smallest eigenvalue, Gershgorin bound and asymmetry up to this many "
                    "particles")
        ->capture_default_str();
    cmd->add_option("--cholesky-limit", o->limits.cholesky_max_particles,
                    "auto on the CPU: the LAPACK Cholesky up to this many particles, Lanczos above")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "print a machine-readable result on stdout");
    return [o] { return execute(*o); };
}

}  // namespace stokesian::cli
