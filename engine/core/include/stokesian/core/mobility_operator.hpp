#pragma once
// The mobility as a linear operator: v = mu F for one fixed configuration, applied by a backend's own
// HI sum (the CPU loop of cpu/hi_loops.hpp, the CUDA kernels of cuda/hi_kernels.cuh) in double
// (hi=f64: double pair tensors, double accumulation), with the scenario's tensor, box and tie rule.
// What matrix-free checks of the mobility (observables/definiteness_verdict.hpp: Lanczos) iterate
// over, at any N: the dense matrix is never stored. Made by the backend registry
// (stokesian/backends/registry.hpp: backend::make_mobility).
//
// And, where a backend has one, the dense 3N x 3N matrix factorised on its device
// (backend::device_cholesky): the CUDA backend builds it in double on the GPU from the same
// hydrodynamic_contribution() the host's mobility_matrix() calls and factorises it with cuSOLVER.
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "stokesian/core/device_context.hpp"
#include "stokesian/core/system.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

class mobility_operator {
public:
    virtual ~mobility_operator() = default;
    // Particles N; vectors have 3N components, particle i's at 3i, 3i + 1, 3i + 2.
    virtual std::size_t particles() const = 0;
    // velocity <- mu force (3N each; they must not alias).
    virtual void apply(std::span<const double> force, std::span<double> velocity) = 0;
    // What computes it ("cpu all-pairs, 16 threads", "cuda tiling on NVIDIA H100 ..."), for reports.
    virtual std::string description() const = 0;
};

// The outcome of a dense Cholesky factorisation of the 3N x 3N mobility on a device.
struct device_cholesky_result {
    bool factorised = false;  // all pivots positive
    long long info = 0;       // 0, or k > 0: the leading minor of order k is not positive definite
    double shift = 0.0;       // the factorised matrix is M - shift I (observables/definiteness_verdict.hpp)
    // Where info > 0: the unit vector x = [-A11^-1 a_k; 1; 0 ...] / norm (A11 the leading minor of
    // order k - 1, a_k the first k - 1 entries of column k), whose quadratic form is the k-th pivot:
    // a candidate for a proof of indefiniteness. Empty when not computed (info = 1: x = e_1).
    std::vector<double> failure_vector;
    double matrix_bytes = 0.0;  // device memory of the matrix and the solver's workspace
    double build_seconds = 0.0, factor_seconds = 0.0;
    std::string device;  // the device's name
};

// positions: the configuration (double, wrapped); threads: CPU worker threads (0: all cores).
using mobility_operator_factory = std::function<std::unique_ptr<mobility_operator>(
    const system_parameters&, const std::vector<vec3<double>>&, const device_context&, unsigned threads)>;
// shift: subtracted from the diagonal before the factorisation. Throws input_error (exit code 2)
// when the matrix does not fit the device's free memory, naming the largest N that would.
using device_cholesky_factory = std::function<device_cholesky_result(
    const system_parameters&, const std::vector<vec3<double>>&, const device_context&, double shift)>;

}  // namespace stokesian
