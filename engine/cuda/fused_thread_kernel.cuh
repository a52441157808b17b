#pragma once
// The third fused small-system kernel (fused_kernels.cuh has the other two and the step): ONE
// THREAD per system for N <= 8, N a template parameter (1 ... 8, chosen at launch). A batch of 32
// systems is one warp, lane = system; a single system is one thread of one warp.
//
// Why: a step of a tetrahedron is a short dependent chain (drift -> pair terms -> sums -> drift);
// the pair-warp kernel spreads the N^2 pair terms over the lanes but pays for it with ~20 warp
// shuffles per step (each a ~25-cycle round trip on the critical path) and with the divergence of
// the self lanes. Here all state stays in one thread's registers: no shuffles, no barriers, no
// shared memory, and every loop is fully unrolled (N known at compile time), so the compiler sees
// N(N-1)/2 independent pair evaluations per step and can interleave them (ILP) -- only the
// per-target sums are sequential chains.
//
// Each unordered pair {i, j} (i < j) evaluates its tensor coefficients once (the square root and
// the division) and applies them to both rows (evaluate_pair_mobility / apply_pair_mobility,
// physics/interactions.hpp, explains why that is bitwise the per-row evaluation). The pairs are
// visited in the double loop's order (i ascending, then j = i + 1 ... N - 1 ascending); target i's
// self term is added at the start of row i. So every target t receives, in this order, the terms
// j = 0 ... t - 1 (from the rows j < t, in ascending j), then its self term, then j = t + 1 ... N - 1
// (from its own row): exactly the CPU's and the other kernels' order, acc = 0, acc += term(t, j) for
// j = 0 ... N - 1. The short-range forces are summed the same way, F_t = F_ext,t first, the
// cutoff test |minimum_image(r_t - r_j)|^2 < cutoff^2 being the same number for (t, j) and (j, t);
// short_range_force is evaluated per row (its lubrication part is not worth proving odd in r).
//
// Compile time: the kernel exists for 9 modes x 8 N x 2 tensors (Tensor a template parameter, so a
// pair evaluates one tensor's formula, not both behind a run-time switch), in one file per HI precision
// (the generated fused_thread_launch_<hi>.cu). The short-range force -- logf/expf, rarely on, never in the
// tetrahedron -- is a call (fused_short_range_force), not 2 x 28 inlined copies at N = 8. The call
// takes the three parts of the parameters that short_range_force reads (box, pair force,
// lubrication), NOT interaction_parameters: that struct carries the Ewald tables of rpy-ewald
// (ewald_parameters, ~2 KB in double), and a struct passed by value to a non-inlined call is
// built in the caller's stack frame. With it, every kernel with N >= 2 had a 1.1-3 KB stack frame
// (f32 to f64 HI), the f64-HI ones 255 registers and spills (f64/f64, N = 4: 2.1 KB of spill
// stores), and the objects took 3-4x as long to compile (the three files: ~13 min of one core
// instead of ~4-5; engine/docs/performance.md, "Compile time and spills of the thread kernel").
#include <cstdint>
#include <limits>

#include "fused_kernels.cuh"

namespace stokesian::cuda {

// short_range_force (physics/interactions.hpp) on parameters rebuilt from the parts it reads; the
// rest (mobility, Ewald tables) stays zero and is never read, so the compiler drops it.
template <class W>
__device__ __noinline__ vec3<W> fused_short_range_force(vec3<W> r_i, vec3<W> r_j, vec3<W> v_i, vec3<W> v_j,
                                                        box_geometry<W> box, pair_force_parameters<W> pair,
                                                        lubrication_parameters<W> lubrication) {
    interaction_parameters<W> p{};
    p.box = box;
    p.pair = pair;
    p.lubrication = lubrication;
    return short_range_force(r_i, r_j, v_i, v_j, p);
}

template <class P, class A, class W, unsigned N, class Tensor>
__global__ void __launch_bounds__(fused_thread_block)
    fused_thread_kernel(fused_arguments<P, A, W> a, std::uint64_t steps, bool initialise) {
    static_assert(N >= fused_thread_min_particles && N <= fused_thread_max_particles);
    const unsigned system = blockIdx.x * blockDim.x + threadIdx.x;
    if (system >= a.systems) return;
    const std::size_t base = static_cast<std::size_t>(system) * N;
    // The box as the pair terms see it: always "periodic", an open box with edges of the largest
    // finite W. Then minimum_image and split_ties run their periodic, branch-free forms without the
    // uniform `periodic` test (5 branches per pair that would cut the unrolled pairs into basic
    // blocks the scheduler cannot interleave), with bitwise the open box's results: the shift is
    // +0 for |d| <= L/2 (any separation of positions below max/4), and d - (+0 x L) == d,
    // also for d = -0; and no component lies at exactly +-L/2 (no ties).
    interaction_parameters<W> p = a.params;
    if (!p.box.periodic) {
        const W huge = std::numeric_limits<W>::max();
        p.box.edges = {huge, huge, huge};
    }
    p.box.periodic = true;
    const W cutoff2 = p.short_range_cutoff * p.short_range_cutoff;
    const W mu0 = p.mobility.self_mobility;
    const P dt = a.dt[system];

    vec3<P> r[N];
    vec3<int> m[N];
    vec3<A> v[N];
    vec3<W> f_ext[N], f[N];
    vec3<W> rw[N];  // positions in the working precision, this step's
#pragma unroll
    for (unsigned i = 0; i < N; ++i) {
        r[i] = a.position[base + i];
        m[i] = a.image[base + i];
        v[i] = a.velocity[base + i];
        f_ext[i] = a.external_force[base + i];
        f[i] = a.force[base + i];
    }

    auto gather_positions = [&] {
#pragma unroll
        for (unsigned i = 0; i < N; ++i) rw[i] = value_cast<W>(r[i]);
    };
    auto forces = [&] {
#pragma unroll
        for (unsigned i = 0; i < N; ++i) f[i] = f_ext[i];
        if (!a.short_range) return;  // uniform over the launch
        vec3<W> vw[N];               // previous velocities
#pragma unroll
        for (unsigned i = 0; i < N; ++i) vw[i] = value_cast<W>(v[i]);
#pragma unroll
        for (unsigned i = 0; i < N; ++i)
#pragma unroll
            for (unsigned j = 0; j < N; ++j) {
                if (j <= i) continue;  // folds away: the loops are unrolled
                const vec3<W> d = minimum_image(rw[i] - rw[j], p.box);
                if (dot(d, d) < cutoff2) {
                    f[i] += fused_short_range_force(rw[i], rw[j], vw[i], vw[j], p.box, p.pair, p.lubrication);
                    f[j] += fused_short_range_force(rw[j], rw[i], vw[j], vw[i], p.box, p.pair, p.lubrication);
                }
            }
    };
    auto velocities = [&] {
        vec3<A> acc[N];
#pragma unroll
        for (unsigned i = 0; i < N; ++i) acc[i] = zero_vector<A>();
#pragma unroll
        for (unsigned i = 0; i < N; ++i) {
            accumulate(acc[i], self_velocity(f[i], mu0));  // after the terms j < i (rows j < i)
#pragma unroll
            for (unsigned j = 0; j < N; ++j) {
                if (j <= i) continue;
                const vec3<W> r_ij = minimum_image(rw[i] - rw[j], p.box);
                const vec3<W> r_ji = minimum_image(rw[j] - rw[i], p.box);
                const pair_mobility<W> pm = evaluate_pair_mobility<Tensor>(r_ij, p);
                accumulate(acc[i], apply_pair_mobility(pm, r_ij, f[j], p));
                accumulate(acc[j], apply_pair_mobility(pm, r_ji, f[i], p));
            }
        }
#pragma unroll
        for (unsigned i = 0; i < N; ++i) v[i] = acc[i];
    };

    if (initialise) {
        gather_positions();
        forces();
        velocities();
    }
    fused_launch_clock clock = make_launch_clock(a.samples.interval, a.samples.phase, steps);
    unsigned sample = 0;  // samples recorded in this launch
    for (unsigned s = 0; s < clock.steps; ++s) {
#pragma unroll
        for (unsigned i = 0; i < N; ++i) drift_particle(r[i], m[i], v[i], dt, a.box);
        gather_positions();
        forces();
        velocities();
        if (sample_due(clock)) {
            const std::size_t at = (std::size_t(sample) * a.systems + system) * N;
#pragma unroll
            for (unsigned i = 0; i < N; ++i) record_sample(a.samples, at + i, r[i], m[i], v[i], f[i]);
            ++sample;
        }
    }
#pragma unroll
    for (unsigned i = 0; i < N; ++i) {
        a.position[base + i] = r[i];
        a.image[base + i] = m[i];
        a.velocity[base + i] = v[i];
        a.force[base + i] = f[i];
    }
}

}  // namespace stokesian::cuda
