#pragma once
// The CPU backend's primitives of the implicit lubrication solver (core/lubrication_solver.hpp);
// member definitions of cpu_engine, included once, by instantiate_cpu.cpp. The CUDA twin is
// cuda/cuda_engine_lubrication.cuh: the same physics functions, loops in the same order, the same
// arithmetic (numeric/krylov_arithmetic.hpp), so both backends run the same iteration.
#include <stdexcept>

#include "cpu_engine.hpp"
#include "stokesian/numeric/krylov_arithmetic.hpp"

namespace stokesian::cpu {

template <class Policy>
struct cpu_engine<Policy>::krylov_ops {
    cpu_engine& e;

    std::vector<vec3<W>>& vector(krylov_vector k) {
        return k == krylov_vector::solution ? e.force_ : e.krylov_[static_cast<int>(k)];
    }

    void mobility_of_solution() { e.apply_mobility(e.force_, e.velocity_); }

    void lubrication_of_velocities(krylov_vector out) {
        const std::size_t n = e.velocity_.size();
        for (std::size_t i = 0; i < n; ++i) e.velocity_w_[i] = value_cast<W>(e.velocity_[i]);
        e.lubrication_forces(e.velocity_w_, vector(out));
    }

    void apply_mobility(krylov_vector in, krylov_vector out) {
        e.apply_mobility(vector(in), e.mobility_output_);
        std::vector<vec3<W>>& result = vector(out);
        result.resize(e.mobility_output_.size());
        for (std::size_t i = 0; i < result.size(); ++i) result[i] = value_cast<W>(e.mobility_output_[i]);
    }

    void apply_lubrication(krylov_vector in, krylov_vector out) {
        if (in == out) throw std::logic_error("apply_lubrication: the output must not alias the input");
        e.lubrication_forces(vector(in), vector(out));
    }

    void combine(krylov_vector out, double a, krylov_vector x, double b, krylov_vector y) {
        const W a_w = value_cast<W>(a), b_w = value_cast<W>(b);
        const std::vector<vec3<W>>& xs = vector(x);
        const std::vector<vec3<W>>& ys = vector(y);
        std::vector<vec3<W>>& result = vector(out);
        result.resize(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) result[i] = linear_combination(a_w, xs[i], b_w, ys[i]);
    }

    double dot(krylov_vector x, krylov_vector y) {
        const std::vector<vec3<W>>& xs = vector(x);
        const std::vector<vec3<W>>& ys = vector(y);
        const std::size_t n = xs.size(), blocks = dot_blocks(n);
        e.dot_partials_.resize(blocks);
        // Blocks are independent: threads change nothing in the order of any addition.
        e.pool_.parallel_for(
            blocks,
            [&](std::size_t begin, std::size_t end) {
                for (std::size_t b = begin; b < end; ++b)
                    e.dot_partials_[b] =
                        host_block_partial(b, n, [&](std::size_t i) { return dot_term(xs[i], ys[i]); });
            },
            16);
        return sum_block_partials(e.dot_partials_.data(), blocks);
    }
};

template <class Policy>
std::uint64_t cpu_engine<Policy>::count_lubricated_pairs() const {
    std::uint64_t entries = 0;  // each pair appears in both particles' lists
    for (std::size_t i = 0; i < position_w_.size(); ++i)
        for (const std::uint32_t* j = neighbours_.begin(i); j != neighbours_.end(i); ++j)
            if (lubricated_pair(position_w_[i], position_w_[*j], params_)) ++entries;
    return entries / 2;
}

template <class Policy>
void cpu_engine<Policy>::conservative_forces(std::vector<vec3<W>>& out) {
    const std::size_t n = position_w_.size();
    out.resize(n);
    pool_.parallel_for(
        n,
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                vec3<W> f = external_force_[i];
                for (const std::uint32_t* j = neighbours_.begin(i); j != neighbours_.end(i); ++j)
                    f += pair_interaction_force(position_w_[i], position_w_[*j], params_);
                out[i] = f;
            }
        },
        1024);
}

template <class Policy>
void cpu_engine<Policy>::lubrication_forces(const std::vector<vec3<W>>& u, std::vector<vec3<W>>& out) {
    const std::size_t n = position_w_.size();
    out.resize(n);
    pool_.parallel_for(
        n,
        [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                vec3<W> f{};
                for (const std::uint32_t* j = neighbours_.begin(i); j != neighbours_.end(i); ++j)
                    f += lubrication_pair_force(position_w_[i], position_w_[*j], u[i], u[*j], params_);
                out[i] = f;
            }
        },
        1024);
}

template <class Policy>
void cpu_engine<Policy>::solve_lubrication() {
    const std::size_t n = position_w_.size();
    for (auto& v : krylov_) v.resize(n);
    krylov_ops ops{*this};
    lubrication_solve_report report =
        solve_implicit_lubrication(ops, config_.system.lubrication.max_iterations, lubrication_tolerance<W>());
    report.lubricated_pairs = lubricated_pairs_;
    solver_statistics_.record(report);
}

}  // namespace stokesian::cpu
