#pragma once
// Fused small-system kernels: MANY time steps of one or many small systems in ONE launch
// (engine/README.md, "Fused and batched small systems"). A system never leaves its warp or block,
// so its state stays in registers (and shared memory) from the first step of a launch to the last
// and is written back once; a launch costs what one step-by-step kernel launch costs, not
// 2-3 launches per step.
//
// Each step is the paper's (Section 3.1), exactly as the step-by-step engine (cuda_engine.cu) and
// the CPU backend's all-pairs loop compute it, with the same functions in the same order:
//   1. drift: drift_particle() (physics/drift.hpp, shared with drift_kernel), r_w = value_cast<W>(r);
//   2. forces: F_i = F_ext,i, then F_i += short_range_force(r_i, r_j, v_i, v_j) for j = 0 ... N-1,
//      j != i, |minimum_image(r_i - r_j)|^2 < cutoff^2 (the neighbour lists' test), ascending j,
//      with the previous velocities v_w = value_cast<W>(v) -- brute force, no neighbour list;
//   3. velocities: acc = 0, accumulate(acc, hydrodynamic_contribution(i == j, r_i, r_j, F_j)) for
//      j = 0 ... N-1 in index order (self term at j == i), v_i = acc.
// No atomics; every sum has one fixed order; the build has no FMA contraction (--fmad=false), and
// float_float goes through __fadd_rn & co. So the trajectory is bitwise the step-by-step one.
//
// Two kernels here, and a third in fused_thread_kernel.cuh (one thread per system, N <= 8, the
// default there); fused_engine.cu chooses by N (same code for one system and for a batch):
//  - fused_pair_warp_kernel, N <= 5 (N^2 <= 32, e.g. the four-sphere tetrahedron): one warp per
//    system, designed for latency. Lane i < N owns particle i (state in registers); lane l < N^2
//    evaluates the pair (i, j) = (l / N, l % N), so all N^2 pair terms of a step are computed at
//    once instead of N after each other. Data move only by __shfl_sync over the full warp: owners
//    -> pair lanes (positions, velocities, forces), pair lanes -> owner (the N terms of its row,
//    gathered and summed in ascending j by the owner alone, so the order is the CPU's). No shared
//    memory, no __syncthreads, no __syncwarp needed (shuffles synchronise the lanes they name).
//    Lanes that own nothing still execute every shuffle (full mask), their results are discarded.
//  - fused_block_kernel, 6 <= N <= 1024: one block of ceil(N/32) warps per system, thread i owns
//    particle i (registers); positions (double-buffered by step parity), previous velocities
//    (double-buffered, short-range forces only) and forces are staged in shared memory for the sums.
//    Barriers (__syncwarp when the block is one warp, __syncthreads otherwise), per step:
//        drift: write r_sh[b], v_sh[b]  | B1 | forces: read r_sh[b], v_sh[b], write f_sh | B2 |
//        velocities: read r_sh[b], f_sh
//    B2 only with short-range forces (otherwise f_sh = F_ext is written once, before the loop).
//    No barrier is needed after the velocity phase: the next drift writes the other buffer b' (last
//    read in the previous step, before this step's B1), and f_sh is next written after the next B1,
//    which no thread passes before every thread has finished reading f_sh here.
//    Threads i >= N take part in every barrier and do nothing else.
#include <cstdint>

#include "device_types.cuh"
#include "fused_launch_clock.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/accumulate.hpp"
#include "stokesian/physics/drift.hpp"
#include "stokesian/physics/interactions.hpp"
#include "warp_shuffle.cuh"

namespace stokesian::cuda {

inline constexpr unsigned fused_pair_max_particles = 5;  // N^2 <= 32: one lane per pair
inline constexpr unsigned fused_warps_per_block = 4;     // pair-warp kernel in batches: 4 systems per block
inline constexpr unsigned fused_block_max_threads = 1024;
// The one-thread-per-system kernel (fused_thread_kernel.cuh): N = 1 ... 8, 32 systems per block.
inline constexpr unsigned fused_thread_min_particles = 1;
inline constexpr unsigned fused_thread_max_particles = 8;
inline constexpr unsigned fused_thread_block = 32;

// Optional samples recorded during a launch: whenever `interval` steps (0: none) have passed since
// the last sample -- `phase` of them before this launch, so an interval may span launches -- the
// k-th sample of this launch for system s, particle i goes to index (k * systems + s) * n + i.
template <class P, class A, class W>
struct fused_samples {
    vec3<P>* position;
    vec3<int>* image;
    vec3<A>* velocity;
    vec3<W>* force;
    std::uint64_t interval;
    std::uint64_t phase;  // steps since the last sample when the launch starts (< interval)
};

// Device state of `systems` systems of n particles each, particle i of system s at index s * n + i.
template <class P, class A, class W>
struct fused_arguments {
    vec3<P>* position;              // wrapped positions, integration precision
    vec3<int>* image;               // periodic image counts
    vec3<A>* velocity;              // velocities, accumulator type
    vec3<W>* force;                 // total force of the last force evaluation
    const vec3<W>* external_force;  // constant external forces
    const P* dt;                    // time step of each system
    unsigned n;
    unsigned systems;
    drift_box<P> box;
    interaction_parameters<W> params;
    bool short_range;  // params.short_range_cutoff > 0
    fused_samples<P, A, W> samples;
};

template <class P, class A, class W>
__device__ inline void record_sample(const fused_samples<P, A, W>& s, std::size_t index, vec3<P> r, vec3<int> m,
                                     vec3<A> v, vec3<W> f) {
    s.position[index] = r;
    s.image[index] = m;
    s.velocity[index] = v;
    s.force[index] = f;
}

// ---- N <= 5: one warp per system, one lane per pair ------------------------------------------
// Launch: blockDim.x = 32 * (warps per block), at most fused_warps_per_block warps; warp w of block
// b runs system b * (blockDim.x / 32) + w. Runs `steps` steps; with `initialise`, first computes the
// forces (with the stored, zero, velocities) and velocities of the initial state, as the engines'
// constructors do.
template <class P, class A, class W>
__global__ void __launch_bounds__(32 * fused_warps_per_block)
    fused_pair_warp_kernel(fused_arguments<P, A, W> a, std::uint64_t steps, bool initialise) {
    const unsigned lane = threadIdx.x % 32u;
    const unsigned system = blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u;
    if (system >= a.systems) return;  // the same for all lanes of a warp: whole warps leave
    const unsigned n = a.n;
    const bool owner = lane < n;     // owns particle `lane`
    const bool pair = lane < n * n;  // evaluates the pair (pi, pj)
    const unsigned pi = pair ? lane / n : 0u, pj = pair ? lane % n : 0u;
    const unsigned row = owner ? lane * n : 0u;  // lane of the pair (lane, 0): row `lane` is row..row+n-1
    const std::size_t index = static_cast<std::size_t>(system) * n + lane;
    const W cutoff2 = a.params.short_range_cutoff * a.params.short_range_cutoff;

    const P dt = a.dt[system];
    vec3<P> r{};
    vec3<int> m{0, 0, 0};
    vec3<A> v = zero_vector<A>();
    vec3<W> f_ext{}, f{};
    if (owner) {
        r = a.position[index];
        m = a.image[index];
        v = a.velocity[index];
        f_ext = a.external_force[index];
        f = a.force[index];
    }

    vec3<W> r_i{}, r_j{};  // this lane's pair, working precision
    auto gather_positions = [&] {
        const vec3<W> r_w = value_cast<W>(r);
        r_i = shuffle(r_w, pi);
        r_j = shuffle(r_w, pj);
    };
    auto forces = [&] {
        f = f_ext;
        if (!a.short_range) return;            // uniform over the launch
        const vec3<W> v_w = value_cast<W>(v);  // previous velocities
        const vec3<W> v_i = shuffle(v_w, pi), v_j = shuffle(v_w, pj);
        vec3<W> term{};
        int take = 0;
        if (pair && pi != pj) {
            const vec3<W> d = minimum_image(r_i - r_j, a.params.box);
            if (dot(d, d) < cutoff2) {
                take = 1;
                term = short_range_force(r_i, r_j, v_i, v_j, a.params);
            }
        }
        // Owner i gathers the pairs (i, 0), (i, 1), ... in ascending j; all lanes shuffle.
#pragma unroll
        for (unsigned j = 0; j < fused_pair_max_particles; ++j) {
            if (j == n) break;  // uniform over the warp: no shuffle round for absent particles
            const unsigned src = (row + j) % 32u;
            const vec3<W> c = shuffle(term, src);
            const int t = shuffle(take, src);
            if (t) f += c;
        }
    };
    // Without short-range forces F = F_ext for ever: the pair lanes fetch F_j once per launch.
    const vec3<W> f_ext_j = shuffle(f_ext, pj);
    auto velocities = [&] {
        const vec3<W> f_j = a.short_range ? shuffle(f, pj) : f_ext_j;  // uniform condition
        // hydrodynamic_contribution(pi == pj, ...) without its branch: every lane evaluates a pair
        // term and the self term and keeps the one its (pi, pj) needs, so the self lanes do not
        // split the warp on the step's dependent chain. Self lanes (and lanes beyond the pairs, which
        // act as (0, 0)) evaluate the pair term at a stand-in separation, never used.
        const bool self = pi == pj;
        const vec3<W> d = self ? vec3<W>{W(1), W(0), W(0)} : minimum_image(r_i - r_j, a.params.box);
        const vec3<W> pair_term = pair_velocity<selected_tensor>(d, f_j, a.params);
        const vec3<W> self_term = self_contribution<selected_tensor>(f_j, a.params.mobility);
        const vec3<W> term = self ? self_term : pair_term;
        vec3<A> acc = zero_vector<A>();
#pragma unroll
        for (unsigned j = 0; j < fused_pair_max_particles; ++j) {
            if (j == n) break;  // uniform over the warp
            accumulate(acc, shuffle(term, (row + j) % 32u));
        }
        v = acc;  // meaningful on owner lanes only
    };

    if (initialise) {
        gather_positions();
        forces();
        velocities();
    }
    fused_launch_clock clock = make_launch_clock(a.samples.interval, a.samples.phase, steps);
    unsigned sample = 0;  // samples recorded in this launch
    for (unsigned s = 0; s < clock.steps; ++s) {
        // Every lane drifts (lanes that own no particle move a zero or meaningless state that is
        // never written): no divergent branch on the step's dependent chain.
        drift_particle(r, m, v, dt, a.box);
        gather_positions();
        forces();
        velocities();
        if (sample_due(clock)) {
            if (owner) record_sample(a.samples, (std::size_t(sample) * a.systems + system) * n + lane, r, m, v, f);
            ++sample;
        }
    }
    if (owner) {
        a.position[index] = r;
        a.image[index] = m;
        a.velocity[index] = v;
        a.force[index] = f;
    }
}

// ---- N <= 1024: one block per system, one thread per particle ----------------------------------
// Dynamic shared memory: fused_block_shared_bytes(n, short_range) bytes.
template <class W>
constexpr std::size_t fused_block_shared_bytes(unsigned n, bool short_range) {
    return (3u + (short_range ? 2u : 0u)) * static_cast<std::size_t>(n) * sizeof(vec3<W>);
}

__device__ inline void fused_block_barrier(bool one_warp) {
    if (one_warp) __syncwarp();  // orders shared-memory accesses among the warp's lanes
    else __syncthreads();
}

template <class P, class A, class W>
__global__ void __launch_bounds__(fused_block_max_threads)
    fused_block_kernel(fused_arguments<P, A, W> a, std::uint64_t steps, bool initialise) {
    extern __shared__ double fused_shared[];  // double: 8-byte alignment for vec3<double>
    const unsigned n = a.n, i = threadIdx.x, system = blockIdx.x;
    const bool active = i < n;
    const bool one_warp = blockDim.x == 32u;
    const std::size_t index = static_cast<std::size_t>(system) * n + i;
    vec3<W>* const r_sh = reinterpret_cast<vec3<W>*>(fused_shared);  // [2][n] positions, working precision
    vec3<W>* const f_sh = r_sh + 2 * n;                              // [n] forces
    vec3<W>* const v_sh = f_sh + n;                                  // [2][n] previous velocities (short range)
    const W cutoff2 = a.params.short_range_cutoff * a.params.short_range_cutoff;

    const P dt = a.dt[system];
    vec3<P> r{};
    vec3<int> m{0, 0, 0};
    vec3<A> v = zero_vector<A>();
    vec3<W> f_ext{}, f{};
    unsigned b = 0;  // the current position/velocity buffer
    if (active) {
        r = a.position[index];
        m = a.image[index];
        v = a.velocity[index];
        f_ext = a.external_force[index];
        f = a.short_range ? a.force[index] : f_ext;
        r_sh[i] = value_cast<W>(r);
        f_sh[i] = f;
        if (a.short_range) v_sh[i] = value_cast<W>(v);
    }
    fused_block_barrier(one_warp);

    auto forces = [&] {              // reads r_sh[b], v_sh[b]; writes f_sh; ends with B2
        if (!a.short_range) return;  // f_sh holds F_ext (uniform over the launch)
        if (active) {
            const vec3<W>* rb = r_sh + b * n;
            const vec3<W>* vb = v_sh + b * n;
            const vec3<W> r_i = rb[i], v_i = vb[i];
            vec3<W> f_i = f_ext;
            for (unsigned j = 0; j < n; ++j) {
                if (j == i) continue;
                const vec3<W> r_j = rb[j];
                const vec3<W> d = minimum_image(r_i - r_j, a.params.box);
                if (dot(d, d) < cutoff2) f_i += short_range_force(r_i, r_j, v_i, vb[j], a.params);
            }
            f = f_i;
            f_sh[i] = f_i;
        }
        fused_block_barrier(one_warp);
    };
    auto velocities = [&] {  // reads r_sh[b], f_sh
        if (!active) return;
        const vec3<W>* rb = r_sh + b * n;
        const vec3<W> r_i = rb[i];
        vec3<A> acc = zero_vector<A>();
        for (unsigned j = 0; j < n; ++j)
            accumulate(acc, hydrodynamic_contribution<selected_tensor>(i == j, r_i, rb[j], f_sh[j], a.params));
        v = acc;
    };

    if (initialise) {
        forces();
        velocities();
    }
    fused_launch_clock clock = make_launch_clock(a.samples.interval, a.samples.phase, steps);
    unsigned sample = 0;  // samples recorded in this launch
    for (unsigned s = 0; s < clock.steps; ++s) {
        b ^= 1u;
        if (active) {
            drift_particle(r, m, v, dt, a.box);
            r_sh[b * n + i] = value_cast<W>(r);
            if (a.short_range) v_sh[b * n + i] = value_cast<W>(v);  // the previous velocity
        }
        fused_block_barrier(one_warp);  // B1
        forces();                       // ... B2
        velocities();
        if (sample_due(clock)) {
            if (active) record_sample(a.samples, (std::size_t(sample) * a.systems + system) * n + i, r, m, v, f);
            ++sample;
        }
    }
    if (active) {
        a.position[index] = r;
        a.image[index] = m;
        a.velocity[index] = v;
        a.force[index] = f;
    }
}

}  // namespace stokesian::cuda
