#pragma once
// Is the mobility positive definite, at any N, and how sure is the answer? (issue #15, item 1)
//
// The matrix: the dense 3N x 3N mobility M in double whose column 3j + c is
// hydrodynamic_contribution(e_c on j), as mobility_matrix() builds it on the host and the CUDA
// backend on the device (one formula, the scenario's tensor, box and tie rule). Definiteness means
// that of its quadratic form x^T M x (the symmetric part; the factorisations read the lower triangle,
// and mu_ij = mu_ji^T holds for the registered tensors bit for bit: relative_asymmetry() = 0).
//
// Verdict semantics (written here once; the CLI and the observable print them):
//  - PROOF, not positive definite: a unit vector x with x^T M x < 0, where the quadratic form is
//    evaluated on the host in double from M's entries and |fl(q) - q| <= gamma_2m |x|^T |M| |x|
//    (m the number of nonzero components, gamma_k = k u / (1 - k u), u = 2^-53; Higham, "Accuracy
//    and Stability of Numerical Algorithms", Sec. 3.1 and 3.5) is added before the sign is read:
//    fl(q) + bound < 0 proves it. The vector comes from the Lanczos Ritz vector of the smallest Ritz
//    value, the dense eigenvector, or a failed Cholesky factorisation (x = [-A11^-1 a_k; 1; 0]).
//  - PROOF, positive definite: a Cholesky factorisation of M - alpha I that runs to completion, with
//    alpha = 1.01 (gamma_{n+1} trace(M) / (1 - gamma_{n+1}) + u max_i m_ii), n = 3N. A completed
//    factorisation of B in floating point is exact for B + dB, |dB| <= gamma_{n+1} |R^T||R| (Higham,
//    Thm 10.3), so ||dB||_2 <= gamma_{n+1} ||R||_F^2 <= gamma_{n+1} trace(B) / (1 - gamma_{n+1}); the
//    shift covers that and the rounding of the shifted diagonal, so lambda_min(M) > 0 (Rump's
//    argument, BIT 46 (2006) 433). Caveat: it assumes the LAPACK / cuSOLVER factorisation is the
//    standard algorithm in IEEE double with inner products in any order (blocked, with FMA: the same
//    bound; not Strassen-like products) and no underflow (the mobility's entries are O(mu0 a / L)
//    and larger).
//  - ESTIMATE: everything else -- a Lanczos or dense smallest eigenvalue with its residual bound
//    (an eigenvalue lies within the bound of the estimate, but it need not be the smallest one), or a
//    failed Cholesky whose vector could not be confirmed. Never reported as a proof.
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "stokesian/core/device_context.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/observables/lanczos.hpp"
#include "stokesian/observables/mobility_matrix.hpp"

namespace stokesian {

enum class definiteness_method { automatic, cholesky, eigen, lanczos };
// "auto", "cholesky", "eigen", "lanczos"; parse throws std::invalid_argument naming the choices.
const char* to_string(definiteness_method m);
definiteness_method parse_definiteness_method(const std::string& name);

enum class verdict_kind { proven_positive_definite, proven_indefinite, estimate };
const char* to_string(verdict_kind k);  // "proof: positive definite", "proof: not positive definite", "estimate"

struct verdict_options {
    definiteness_method method = definiteness_method::automatic;
    std::string backend = "cpu";  // a registered backend (its mobility operator and device Cholesky)
    device_context device;
    unsigned threads = 0;  // host threads (CPU operator, proof evaluation); 0: all cores
    lanczos_options lanczos;
    // automatic: the host's LAPACK Cholesky up to this N (as positive_definiteness.hpp), Lanczos above,
    // unless the backend factorises on its device (as far as its memory allows).
    std::size_t host_cholesky_max_particles = 2000;
};

struct definiteness_verdict {
    static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    verdict_kind kind = verdict_kind::estimate;
    // The estimate's answer where kind is estimate (the proven answer otherwise).
    bool positive_definite = false;
    std::size_t particles = 0;
    std::string method;  // what decided: "cholesky (LAPACK dpotrf)", "cholesky (cuSOLVER ...)", "lanczos", ...
    std::string engine;  // what applied M (Lanczos) or factorised it
    std::vector<std::string> notes;  // e.g. why auto fell back from the device factorisation

    bool cholesky_run = false, cholesky_factorised = false;
    long long cholesky_info = 0;  // the leading minor of order k that is not positive definite (0: none)
    double cholesky_shift = 0.0;  // alpha above

    // Smallest (and largest, Lanczos) eigenvalue estimates and bounds: an eigenvalue lies within
    // +-bound of each (see lanczos.hpp). NaN: not computed.
    double smallest = nan, smallest_bound = nan, largest = nan, largest_bound = nan;
    std::size_t lanczos_iterations = 0;
    bool lanczos_converged = false;

    // The best candidate vector's quadratic form and its rounding bound (NaN: none evaluated).
    double quadratic_form = nan, quadratic_form_bound = nan;
    std::string proof_vector;  // where it came from

    double seconds = 0.0;
    double device_bytes = 0.0;  // device memory of a dense factorisation (0: none)

    bool proof() const { return kind != verdict_kind::estimate; }
    std::string summary() const;  // one line: "proof: not positive definite (lanczos ...)"
};

// Decides for the configuration `positions` (double, as the scenario gives them). Throws
// input_error (exit code 2) for an explicit method the backend cannot run here (cholesky on a
// device too small: naming the largest N that fits; no cuSOLVER), std::invalid_argument for an
// unknown backend or a backend without a mobility operator.
definiteness_verdict decide_positive_definiteness(const std::vector<vec3<double>>& positions,
                                                  const system_parameters& system, const verdict_options& options);

// ---- the pieces (tests) ----------------------------------------------------------------------
// alpha for an n x n matrix with the given trace and largest diagonal entry.
double cholesky_proof_shift(std::size_t n, double trace, double largest_diagonal);

struct quadratic_form_value {
    double value = 0.0;  // fl(x^T M x)
    double bound = 0.0;  // |fl(q) - q| <= bound (see above)
    bool proves_indefinite() const { return value + bound < 0.0; }
};
// x^T M x of the mobility (3N components of x; only the particles where x is nonzero are visited),
// threaded over rows on `threads` threads (0: all cores); deterministic for any thread count.
quadratic_form_value mobility_quadratic_form(const std::vector<vec3<double>>& positions,
                                             const system_parameters& system, const std::vector<double>& x,
                                             unsigned threads = 0);
// The same for a stored matrix (row sums in column order, then the outer sum; the same bound).
quadratic_form_value dense_quadratic_form(const dense_matrix& m, const std::vector<double>& x);

// The host's dense pieces (LAPACK): Cholesky of m - shift I, with the failure vector where it fails
// at a minor k >= 1 (as device_cholesky_result), and the smallest eigenpair (dsyevr, JOBZ = 'V').
struct host_cholesky_result {
    bool factorised = false;
    int info = 0;
    std::vector<double> failure_vector;
};
host_cholesky_result host_cholesky(const dense_matrix& m, double shift);
struct eigenpair {
    double value = 0.0;
    std::vector<double> vector;  // unit norm
};
eigenpair smallest_eigenpair(const dense_matrix& m);

}  // namespace stokesian
