// definiteness_verdict.hpp: choosing the method, running it, and reading proofs from its results.
#include "stokesian/observables/definiteness_verdict.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"

namespace stokesian {

const char* to_string(definiteness_method m) {
    switch (m) {
        case definiteness_method::automatic: return "auto";
        case definiteness_method::cholesky: return "cholesky";
        case definiteness_method::eigen: return "eigen";
        case definiteness_method::lanczos: return "lanczos";
    }
    return "?";
}

definiteness_method parse_definiteness_method(const std::string& name) {
    for (definiteness_method m : {definiteness_method::automatic, definiteness_method::cholesky,
                                  definiteness_method::eigen, definiteness_method::lanczos})
        if (name == to_string(m)) return m;
    throw std::invalid_argument("unknown method '" + name + "' (expected auto, cholesky, eigen or lanczos)");
}

const char* to_string(verdict_kind k) {
    switch (k) {
        case verdict_kind::proven_positive_definite: return "proof: positive definite";
        case verdict_kind::proven_indefinite: return "proof: not positive definite";
        case verdict_kind::estimate: return "estimate";
    }
    return "?";
}

std::string definiteness_verdict::summary() const {
    char line[512];
    if (kind == verdict_kind::proven_indefinite)
        std::snprintf(line, sizeof line, "proof: NOT positive definite (x^T M x = %.6g +- %.2g mu0 for the unit %s)",
                      quadratic_form, quadratic_form_bound, proof_vector.c_str());
    else if (kind == verdict_kind::proven_positive_definite)
        std::snprintf(line, sizeof line, "proof: positive definite (%s of M - %.3g I completes)", method.c_str(),
                      cholesky_shift);
    else if (!std::isnan(smallest))
        std::snprintf(line, sizeof line,
                      "estimate: %s (smallest eigenvalue %.6g, an eigenvalue within +-%.2g mu0; %s; not a proof)",
                      positive_definite ? "positive definite" : "NOT positive definite", smallest, smallest_bound,
                      method.c_str());
    else
        std::snprintf(line, sizeof line, "estimate: %s (%s; not a proof)",
                      positive_definite ? "positive definite" : "NOT positive definite", method.c_str());
    return line;
}

namespace {

using clock_type = std::chrono::steady_clock;

// Evaluates a candidate vector and keeps it when it is the most negative so far; true: a proof.
bool try_proof(definiteness_verdict& v, const std::vector<vec3<double>>& positions, const system_parameters& system,
               const std::vector<double>& x, const std::string& source, unsigned threads) {
    if (x.empty()) return false;
    const quadratic_form_value q = mobility_quadratic_form(positions, system, x, threads);
    if (std::isnan(v.quadratic_form) || q.value < v.quadratic_form) {
        v.quadratic_form = q.value;
        v.quadratic_form_bound = q.bound;
        v.proof_vector = source;
    }
    if (!q.proves_indefinite()) return false;
    v.kind = verdict_kind::proven_indefinite;
    v.positive_definite = false;
    return true;
}

// gamma_n sqrt(n) max|theta|: the rounding of a computed residual A y - theta y, estimated from
// ||A||_2 ~ max |theta| (lanczos.hpp); added to the residual so the bound covers it.
double residual_rounding(std::size_t n, double scale) {
    const double u = std::numeric_limits<double>::epsilon() / 2.0;
    return double(n) * u * std::sqrt(double(n)) * scale;
}

void run_lanczos(definiteness_verdict& v, const backends::backend& b, const std::vector<vec3<double>>& positions,
                 const system_parameters& system, const verdict_options& o) {
    if (!b.make_mobility)
        throw std::invalid_argument("backend '" + b.name + "' has no mobility operator for the Lanczos check");
    const std::unique_ptr<mobility_operator> op = b.make_mobility(system, positions, o.device, o.threads);
    v.engine = op->description();
    const std::size_t n = 3 * positions.size();
    const lanczos_result r = lanczos_extremes(
        n, [&](std::span<const double> x, std::span<double> y) { op->apply(x, y); }, o.lanczos);
    const double scale = std::max(std::fabs(r.smallest.value), std::fabs(r.largest.value));
    v.smallest = r.smallest.value;
    v.smallest_bound = r.smallest.residual + residual_rounding(n, scale);
    v.largest = r.largest.value;
    v.largest_bound = r.largest.residual + residual_rounding(n, scale);
    v.lanczos_iterations = r.iterations;
    v.lanczos_converged = r.converged;
    if (v.method.empty()) v.method = "lanczos";
    if (!try_proof(v, positions, system, r.smallest.vector, "Lanczos Ritz vector", o.threads)) {
        v.kind = verdict_kind::estimate;
        v.positive_definite = v.smallest > 0.0;
    }
}

// A Cholesky that completed proves definiteness (of the shifted matrix: cholesky_proof_shift); one
// that failed leaves the unit vector of its failed pivot, whose x^T M x may prove the opposite.
void conclude_cholesky(definiteness_verdict& v, bool factorised, const std::vector<double>& failure_vector,
                       const std::vector<vec3<double>>& positions, const system_parameters& system, unsigned threads) {
    if (factorised) {
        v.kind = verdict_kind::proven_positive_definite;
        v.positive_definite = true;
        return;
    }
    v.positive_definite = false;
    try_proof(v, positions, system, failure_vector, "vector of the failed Cholesky pivot", threads);
}

void run_host_cholesky(definiteness_verdict& v, const dense_matrix& m, const std::vector<vec3<double>>& positions,
                       const system_parameters& system, const verdict_options& o) {
    double trace = 0.0, largest = 0.0;
    for (std::size_t i = 0; i < m.size; ++i) {
        trace += m(i, i);
        largest = std::max(largest, m(i, i));
    }
    v.method = "cholesky (LAPACK dpotrf)";
    v.engine = "host LAPACK";
    v.cholesky_run = true;
    v.cholesky_shift = cholesky_proof_shift(m.size, trace, largest);
    const host_cholesky_result c = host_cholesky(m, v.cholesky_shift);
    v.cholesky_factorised = c.factorised;
    v.cholesky_info = c.info;
    conclude_cholesky(v, c.factorised, c.failure_vector, positions, system, o.threads);
}

void run_device_cholesky(definiteness_verdict& v, const backends::backend& b,
                         const std::vector<vec3<double>>& positions, const system_parameters& system,
                         const verdict_options& o) {
    // The shift needs trace and largest diagonal: the self terms, mu0 on every diagonal entry.
    const double mu0 = system.self_mobility;
    const std::size_t n = 3 * positions.size();
    const double shift = cholesky_proof_shift(n, double(n) * mu0, mu0);
    const device_cholesky_result c = b.device_cholesky(system, positions, o.device, shift);
    v.method = "cholesky (cuSOLVER Xpotrf)";
    v.engine = b.name + " on " + c.device;
    v.cholesky_run = true;
    v.cholesky_shift = shift;
    v.cholesky_factorised = c.factorised;
    v.cholesky_info = c.info;
    v.device_bytes = c.matrix_bytes;
    char timing[160];
    std::snprintf(timing, sizeof timing, "device: matrix built in %.3g s, factorised in %.3g s, %.3g GB",
                  c.build_seconds, c.factor_seconds, c.matrix_bytes / 1e9);
    v.notes.emplace_back(timing);
    conclude_cholesky(v, c.factorised, c.failure_vector, positions, system, o.threads);
}

}  // namespace

definiteness_verdict decide_positive_definiteness(const std::vector<vec3<double>>& positions,
                                                  const system_parameters& system, const verdict_options& o) {
    const auto start = clock_type::now();
    const backends::backend* b = backends::backend_registry().find(o.backend);
    if (b == nullptr)
        throw std::invalid_argument("unknown backend '" + o.backend + "' (" + backends::backend_registry().names() +
                                    ")");
    definiteness_verdict v;
    v.particles = positions.size();
    const bool automatic = o.method == definiteness_method::automatic;
    definiteness_method method = o.method;
    if (automatic)
        method = b->device_cholesky || positions.size() <= o.host_cholesky_max_particles ? definiteness_method::cholesky
                                                                                         : definiteness_method::lanczos;
    if (method == definiteness_method::cholesky && b->device_cholesky) {
        try {
            run_device_cholesky(v, *b, positions, system, o);
        } catch (const input_error& e) {
            if (!automatic) throw;
            v.notes.push_back(std::string("no device factorisation: ") + e.what());
            method = definiteness_method::lanczos;
        }
    } else if (method == definiteness_method::cholesky || method == definiteness_method::eigen) {
        const dense_matrix m = mobility_matrix(positions, system);
        if (method == definiteness_method::cholesky) run_host_cholesky(v, m, positions, system, o);
        else {
            v.method = "eigen (LAPACK dsyevr)";
            v.engine = "host LAPACK";
            const eigenpair e = smallest_eigenpair(m);
            // Residual of the computed pair on the stored matrix, plus its rounding (as for Lanczos).
            double residual = 0.0, largest = 0.0;
            for (std::size_t a = 0; a < m.size; ++a) {
                double y = -e.value * e.vector[a];
                for (std::size_t c = 0; c < m.size; ++c) {
                    y += m(a, c) * e.vector[c];
                    largest = std::max(largest, std::fabs(m(a, c)));
                }
                residual += y * y;
            }
            v.smallest = e.value;
            v.smallest_bound = std::sqrt(residual) + residual_rounding(m.size, largest * double(m.size));
            if (!try_proof(v, positions, system, e.vector, "eigenvector of the smallest eigenvalue", o.threads))
                v.positive_definite = e.value > 0.0;
        }
    }
    // A failed factorisation whose vector is not a proof: under auto, Lanczos looks for a better one.
    if (method == definiteness_method::lanczos || (automatic && v.cholesky_run && !v.proof())) {
        if (v.cholesky_run) v.notes.push_back("Cholesky failed without a confirmed vector: Lanczos for another");
        const std::string method_before = v.method;
        run_lanczos(v, *b, positions, system, o);
        if (!method_before.empty() && v.cholesky_run) {
            v.method = method_before + ", then lanczos";
            if (!v.proof()) v.positive_definite = false;  // the failed factorisation is the stronger evidence
        }
    }
    v.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    return v;
}

}  // namespace stokesian
