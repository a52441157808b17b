// The CUDA backend's mobility checks (stokesian/cuda/mobility_backend.hpp): the operator v = mu F by
// the engine's tiling kernel, and the dense matrix built on the device and factorised by cuSOLVER.
#include <chrono>
#include <cmath>
#include <string>

#include "cuda_check.hpp"
#include "cusolver_library.hpp"
#include "device_buffer.hpp"
#include "device_types.cuh"
#include "hi_launch.cuh"
#include "stokesian/core/errors.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/mobility_backend.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian::cuda {

namespace {

constexpr unsigned operator_block = 128;  // the engine's default block (cuda_engine.cuh)

class cuda_mobility_operator final : public mobility_operator {
public:
    cuda_mobility_operator(const system_parameters& system, const std::vector<vec3<double>>& positions, int ordinal)
        : ordinal_(ordinal), n_(positions.size()), params_(make_interaction_parameters<double>(system)) {
        use_device(ordinal_);
        std::vector<packed4<double>> packed(n_);
        for (std::size_t i = 0; i < n_; ++i) packed[i] = pack(positions[i]);
        position_.upload(packed);
        force_.resize(n_, "mobility operator forces");
        velocity_.resize(n_, "mobility operator velocities");
        device_ = device_description(ordinal_).at("device_name");
    }

    std::size_t particles() const override { return n_; }

    void apply(std::span<const double> force, std::span<double> velocity) override {
        if (force.size() != 3 * n_ || velocity.size() != 3 * n_)
            throw std::invalid_argument("mobility operator: vectors of " + std::to_string(force.size()) + " and " +
                                        std::to_string(velocity.size()) + " components for N = " + std::to_string(n_));
        use_device(ordinal_);
        host_force_.resize(n_);
        for (std::size_t i = 0; i < n_; ++i)
            host_force_[i] = pack(vec3<double>{force[3 * i], force[3 * i + 1], force[3 * i + 2]});
        force_.upload(host_force_);
        launch_hi_kernel<precision::f64>(hi_kernel::tiling, operator_block, position_.data(), force_.data(),
                                         velocity_.data(), {0, n_}, static_cast<unsigned>(n_), params_);
        check_launch("mobility operator (tiling)");
        velocity_.download(host_velocity_);
        for (std::size_t i = 0; i < n_; ++i) {
            velocity[3 * i] = host_velocity_[i].x;
            velocity[3 * i + 1] = host_velocity_[i].y;
            velocity[3 * i + 2] = host_velocity_[i].z;
        }
    }

    std::string description() const override {
        return "cuda tiling kernel in double on device " + std::to_string(ordinal_) + " (" + device_ + ")";
    }

private:
    int ordinal_;
    std::size_t n_;
    interaction_parameters<double> params_;
    device_buffer<packed4<double>> position_, force_;
    device_buffer<vec3<double>> velocity_;
    std::vector<packed4<double>> host_force_;
    std::vector<vec3<double>> host_velocity_;
    std::string device_;
};

// Column 3j + c of the matrix (column-major, leading dimension n = 3N) for the pair (i, j): the
// velocity of i caused by the unit force e_c on j, as mobility_matrix() computes it on the host
// (same function, same arithmetic in the IEEE build), minus `shift` on the diagonal.
__global__ void build_dense_mobility(const vec3<double>* position, unsigned particles, interaction_parameters<double> p,
                                     double shift, double* matrix) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned j = blockIdx.y;
    if (i >= particles) return;
    const std::size_t n = 3 * std::size_t(particles);
    const vec3<double> unit[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    for (unsigned c = 0; c < 3; ++c) {
        const vec3<double> v = hydrodynamic_contribution<selected_tensor>(i == j, position[i], position[j], unit[c], p);
        double* column = matrix + (3 * std::size_t(j) + c) * n + 3 * std::size_t(i);
        column[0] = v.x;
        column[1] = v.y;
        column[2] = v.z;
        if (i == j) column[c] -= shift;
    }
}

// Room left for cuSOLVER's workspace (a few panels of n doubles) and the context's own needs.
constexpr double workspace_reserve_bytes = 1024.0 * 1048576.0;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// RAII for the solver's handle and parameters.
struct solver_handles {
    const cusolver_api& api;
    cusolverDnHandle_t handle = nullptr;
    cusolverDnParams_t params = nullptr;
    explicit solver_handles(const cusolver_api& a) : api(a) {
        check_cusolver(api.create(&handle), "cusolverDnCreate");
        check_cusolver(api.create_params(&params), "cusolverDnCreateParams");
    }
    ~solver_handles() {
        if (params) api.destroy_params(params);
        if (handle) api.destroy(handle);
    }
    solver_handles(const solver_handles&) = delete;
    solver_handles& operator=(const solver_handles&) = delete;
};

// Factorises the leading order x order block of `matrix` (leading dimension lda) in place; returns
// cuSOLVER's info (0, or the order of the first leading minor that is not positive definite).
int factorise(solver_handles& s, double* matrix, std::int64_t order, std::int64_t lda, double& workspace_bytes) {
    std::size_t device_bytes = 0, host_bytes = 0;
    check_cusolver(s.api.potrf_buffer_size(s.handle, s.params, CUBLAS_FILL_MODE_LOWER, order, CUDA_R_64F, matrix, lda,
                                           CUDA_R_64F, &device_bytes, &host_bytes),
                   "cusolverDnXpotrf_bufferSize");
    device_buffer<unsigned char> device_work(std::max<std::size_t>(device_bytes, 1), "cuSOLVER workspace");
    std::vector<unsigned char> host_work(std::max<std::size_t>(host_bytes, 1));
    device_buffer<int> info(1, "cuSOLVER info");
    check_cusolver(s.api.potrf(s.handle, s.params, CUBLAS_FILL_MODE_LOWER, order, CUDA_R_64F, matrix, lda, CUDA_R_64F,
                               device_work.data(), device_bytes, host_work.data(), host_bytes, info.data()),
                   "cusolverDnXpotrf");
    std::vector<int> result;
    info.download(result);
    if (result[0] < 0) throw cuda_call_error("cusolverDnXpotrf: illegal argument " + std::to_string(-result[0]));
    workspace_bytes = std::max(workspace_bytes, double(device_bytes));
    return result[0];
}

}  // namespace

std::unique_ptr<mobility_operator> make_cuda_mobility_operator(const system_parameters& system,
                                                               const std::vector<vec3<double>>& positions,
                                                               const device_context& device) {
    return std::make_unique<cuda_mobility_operator>(system, positions, device.primary_ordinal());
}

std::size_t dense_cholesky_max_particles(double free_bytes) {
    const double room = free_bytes - workspace_reserve_bytes;
    if (room <= 0) return 0;
    return static_cast<std::size_t>(std::floor(std::sqrt(room / 8.0) / 3.0));
}

device_cholesky_result cuda_dense_cholesky(const system_parameters& system, const std::vector<vec3<double>>& positions,
                                           const device_context& device, double shift) {
    const int ordinal = device.primary_ordinal();
    use_device(ordinal);
    device_cholesky_result r;
    r.shift = shift;
    r.device = device_description(ordinal).at("device_name");
    const std::size_t particles = positions.size();
    const std::int64_t n = 3 * static_cast<std::int64_t>(particles);
    const double matrix_bytes = 8.0 * double(n) * double(n);
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    const std::size_t largest = dense_cholesky_max_particles(double(free_bytes));
    if (particles > largest)
        throw input_error("mobility check: the dense mobility of N = " + std::to_string(particles) + " (" +
                          std::to_string(matrix_bytes / 1e9) + " GB in double) does not fit the free memory of " +
                          r.device + " (" + std::to_string(double(free_bytes) / 1e9) + " GB of " +
                          std::to_string(double(total_bytes) / 1e9) + " GB); the largest N that fits is " +
                          std::to_string(largest) + " (use --method lanczos for any N)");
    const cusolver_api& api = cusolver();  // input_error where the host has none
    device_buffer<vec3<double>> position(particles, "particle positions");
    position.upload(positions);
    device_buffer<double> matrix(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), "dense mobility matrix");
    const interaction_parameters<double> p = make_interaction_parameters<double>(system);
    const auto build = [&] {
        const dim3 grid(blocks_for(particles, 128), static_cast<unsigned>(particles));
        build_dense_mobility<<<grid, 128>>>(position.data(), static_cast<unsigned>(particles), p, shift, matrix.data());
        check_launch("build_dense_mobility");
        check(cudaDeviceSynchronize(), "build_dense_mobility");
    };
    auto start = std::chrono::steady_clock::now();
    build();
    r.build_seconds = seconds_since(start);
    solver_handles solver(api);
    double workspace = 0.0;
    start = std::chrono::steady_clock::now();
    r.info = factorise(solver, matrix.data(), n, n, workspace);
    check(cudaDeviceSynchronize(), "cusolverDnXpotrf");
    r.factor_seconds = seconds_since(start);
    r.factorised = r.info == 0;
    r.matrix_bytes = matrix_bytes + workspace;
    if (r.info >= 2) {
        // The vector behind the failure: A11 z = a_k with A11 the leading minor of order k - 1
        // (positive definite: the factorisation got past it), x = [-z; 1; 0 ...]. Its quadratic form
        // is the k-th pivot, a_kk - a_k^T A11^-1 a_k <= 0 in exact arithmetic. The matrix is built
        // again (the failed factorisation overwrote it); the leading block is factorised alone, which
        // leaves column k (rows 0 .. k-2: a_k) as built, and potrs overwrites it with z.
        const std::int64_t k = r.info;
        build();
        const int leading = factorise(solver, matrix.data(), k - 1, n, workspace);
        if (leading == 0) {
            double* column = matrix.data() + static_cast<std::size_t>(k - 1) * static_cast<std::size_t>(n);
            device_buffer<int> info(1, "cuSOLVER info");
            check_cusolver(api.potrs(solver.handle, solver.params, CUBLAS_FILL_MODE_LOWER, k - 1, 1, CUDA_R_64F,
                                     matrix.data(), n, CUDA_R_64F, column, n, info.data()),
                           "cusolverDnXpotrs");
            std::vector<double> z(static_cast<std::size_t>(k - 1));
            check(cudaMemcpy(z.data(), column, z.size() * sizeof(double), cudaMemcpyDeviceToHost), "download z");
            r.failure_vector.assign(static_cast<std::size_t>(n), 0.0);
            double norm2 = 1.0;
            for (double v : z) norm2 += v * v;
            const double scale = 1.0 / std::sqrt(norm2);
            for (std::size_t a = 0; a < z.size(); ++a) r.failure_vector[a] = -z[a] * scale;
            r.failure_vector[static_cast<std::size_t>(k - 1)] = scale;
        }
    } else if (r.info == 1) {
        r.failure_vector.assign(static_cast<std::size_t>(n), 0.0);
        r.failure_vector[0] = 1.0;
    }
    return r;
}

}  // namespace stokesian::cuda
