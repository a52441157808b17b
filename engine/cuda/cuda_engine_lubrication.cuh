#pragma once
// The CUDA backend's primitives of the implicit lubrication solver (core/lubrication_solver.hpp);
// member definitions of cuda_engine, included once, by cuda_engine.cu. The CPU twin is
// cpu/cpu_engine_lubrication.hpp: the same iteration, the same physics functions and loop orders,
// the same arithmetic (numeric/krylov_arithmetic.hpp), so in double precision the backends differ
// only by the device's log in the paper's model (tests/backends/implicit_lubrication_conformance.hpp); the
// two-body model takes the portable logarithm and gives the CPU's bits in every precision mode
// (tests/core/two_body_lubrication_gpu_test.cpp). The Krylov bookkeeping
// (alpha, beta, the convergence test) runs on the host: each dot product is one kernel writing
// block partials, copied back and added in ascending order.
#include <stdexcept>

#include "cuda_check.hpp"
#include "cuda_engine.cuh"
#include "hi_launch.cuh"
#include "krylov_kernels.cuh"

namespace stokesian::cuda {

template <class Policy>
packed4<typename Policy::working>* cuda_engine<Policy>::krylov_data(krylov_vector k) {
    return k == krylov_vector::solution ? force_.data() : krylov_[static_cast<int>(k)].data();
}

template <class Policy>
struct cuda_engine<Policy>::krylov_ops {
    cuda_engine& e;

    void mobility_of_solution() { e.launch_velocities(target_range{0, e.n_}); }

    void lubrication_of_velocities(krylov_vector out) {
        lubrication_force_kernel<W, vec3<A>><<<blocks_for_particle_warps(e.n_), particle_warp_threads>>>(
            e.position_w_.data(), e.velocity_.data(), e.n_, e.rows(), e.params_, e.krylov_data(out));
        check_launch("lubrication_force_kernel");
    }

    void apply_mobility(krylov_vector in, krylov_vector out) {
        mobility_into_output(in, target_range{0, e.n_});
        output_to_working(out);
    }
    // The two halves of apply_mobility (a multi-device engine gathers the output in between):
    // mobility_output <- mu in for the targets t, then out <- mobility_output rounded to W.
    void mobility_into_output(krylov_vector in, target_range t) {
        launch_hi_kernel<Policy::hi>(e.kernel_, e.block_size_, e.position_w_.data(), e.krylov_data(in),
                                     e.mobility_output_.data(), t, e.n_, e.params_);
    }
    void output_to_working(krylov_vector out) {
        to_working_kernel<W, A><<<blocks_for(e.n_, 256), 256>>>(e.mobility_output_.data(), e.n_, e.krylov_data(out));
        check_launch("to_working_kernel");
    }

    void apply_lubrication(krylov_vector in, krylov_vector out) {
        if (in == out) throw std::logic_error("apply_lubrication: the output must not alias the input");
        lubrication_force_kernel<W, packed4<W>><<<blocks_for_particle_warps(e.n_), particle_warp_threads>>>(
            e.position_w_.data(), e.krylov_data(in), e.n_, e.rows(), e.params_, e.krylov_data(out));
        check_launch("lubrication_force_kernel");
    }

    void combine(krylov_vector out, double a, krylov_vector x, double b, krylov_vector y) {
        linear_combination_kernel<W><<<blocks_for(e.n_, 256), 256>>>(
            e.krylov_data(out), value_cast<W>(a), e.krylov_data(x), value_cast<W>(b), e.krylov_data(y), e.n_);
        check_launch("linear_combination_kernel");
    }

    double dot(krylov_vector x, krylov_vector y) {
        const std::size_t blocks = dot_blocks(e.n_);
        dot_partials_kernel<W><<<static_cast<unsigned>(blocks), dot_block>>>(e.krylov_data(x), e.krylov_data(y), e.n_,
                                                                             e.dot_partials_.data());
        check_launch("dot_partials_kernel");
        e.host_partials_.resize(blocks);
        copy_to_host(e.host_partials_.data(), e.dot_partials_.data(), blocks * sizeof(double), "dot product partials");
        return sum_block_partials(e.host_partials_.data(), blocks);
    }
};

// F = F_ext + sum_j F_int into the right-hand side, and the number of lubricated pairs.
template <class Policy>
bool cuda_engine<Policy>::prepare_lubrication_solve() {
    for (auto& v : krylov_) v.resize(n_, "lubrication solver vectors");
    mobility_output_.resize(n_, "lubrication solver velocities");
    dot_partials_.resize(dot_blocks(n_), "dot product partials");
    lubricated_entries_.resize(1, "lubricated pair count");
    check(cudaMemset(lubricated_entries_.data(), 0, sizeof(unsigned long long)), "cudaMemset");
    conservative_force_kernel<W><<<blocks_for_particle_warps(n_), particle_warp_threads>>>(
        position_w_.data(), external_force_.data(), n_, rows(), params_, krylov_data(krylov_vector::rhs),
        lubricated_entries_.data());
    check_launch("conservative_force_kernel");
    const unsigned long long entries =
        lubricated_entries_read_.read(lubricated_entries_.data(), "lubricated pair count");
    lubricated_pairs_ = entries / 2;  // each pair is in both particles' lists
    return lubricated_pairs_ > 0;
}

template <class Policy>
void cuda_engine<Policy>::solve_lubrication() {
    krylov_ops ops{*this};
    lubrication_solve_report report =
        solve_implicit_lubrication(ops, config_.system.lubrication.max_iterations, lubrication_tolerance<W>());
    report.lubricated_pairs = lubricated_pairs_;
    solver_statistics_.record(report);
}

}  // namespace stokesian::cuda
