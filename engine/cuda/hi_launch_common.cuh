#pragma once
// Launch helpers shared by the exact and fast launches of every precision (hi_launch.cuh; the
// kernels are compiled in each with that file's floating-point flags): for one tensor evaluator,
// the exact kernels (launch_exact_hi_kernel) and the fast ones (launch_fast_hi_kernel). A test may
// instantiate them with a tensor of its own (tests/cuda).
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda_check.hpp"
#include "far_split_shape.hpp"
#include "fused_grid_plan.cuh"
#include "hi_adding_warps_kernel.cuh"
#include "hi_far_kernels.cuh"
#include "hi_kernels.cuh"
#include "hi_launch.cuh"
#include "hi_ordered_kernel.cuh"

namespace stokesian::cuda {

// One launch of the HI kernels: the targets [first, last) against n sources.
template <class W, class A>
struct hi_launch {
    unsigned block;
    const packed4<W>* position;
    const packed4<W>* force;
    vec3<A>* velocity;
    unsigned first, last, n;
    cudaStream_t stream;

    unsigned targets() const { return last - first; }
};

// Checks the block size and the range; false when there is nothing to compute.
template <class W, class A>
bool make_hi_launch(hi_launch<W, A>& out, unsigned block, const packed4<W>* position, const packed4<W>* force,
                    vec3<A>* velocity, target_range targets, unsigned n_sources, cudaStream_t stream) {
    if (block % 32 != 0 || block == 0)
        throw std::invalid_argument("HI kernels need a block size that is a multiple of 32, got " +
                                    std::to_string(block));
    if (targets.begin > targets.end || targets.end > n_sources)
        throw std::invalid_argument("HI target range [" + std::to_string(targets.begin) + ", " +
                                    std::to_string(targets.end) + ") is not within the " + std::to_string(n_sources) +
                                    " sources");
    out = {
        block,     position, force, velocity, static_cast<unsigned>(targets.begin), static_cast<unsigned>(targets.end),
        n_sources, stream};
    return targets.end > targets.begin;
}

// Calls f(std::integral_constant<int, G>{}) for the lanes a target g, G = Least, 2 Least, ..., 32 (32
// for any g not among them): a launch's run-time G picks its kernel instantiation.
template <int Least = 1, class F>
void with_group(unsigned g, F&& f) {
    const auto take = [&]<int G>(std::integral_constant<int, G> group) {
        if constexpr (G < Least) {
            return false;
        } else {
            if (g != G && G != far_split_group_max) return false;
            f(group);
            return true;
        }
    };
    (void)(take(std::integral_constant<int, 1>{}) || take(std::integral_constant<int, 2>{}) ||
           take(std::integral_constant<int, 4>{}) || take(std::integral_constant<int, 8>{}) ||
           take(std::integral_constant<int, 16>{}) || take(std::integral_constant<int, 32>{}));
}

template <class Tensor, class W, class A, bool Fast, int G>
void launch_split_group(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>) * l.block;
    hi_split_kernel<Tensor, W, A, Fast, G>
        <<<blocks_for(static_cast<unsigned long long>(l.targets()) * G, l.block), l.block, tile_bytes, l.stream>>>(
            l.position, l.force, l.velocity, l.first, l.last, l.n, p);
}

// G from the number of sources N, not from the range: every range of a system sums alike.
template <class Tensor, class W, class A, bool Fast>
void launch_split(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    with_group(split_group_size(l.n),
               [&](auto g) { launch_split_group<Tensor, W, A, Fast, decltype(g)::value>(l, p); });
}

template <class Tensor, class W, class A, bool Fast, bool Periodic, int G>
void launch_far_group(const hi_launch<W, A>& l, unsigned block, const interaction_parameters<W>& p) {
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>) * far_tile_slots(block, G);
    hi_far_kernel<Tensor, W, A, Fast, Periodic, G>
        <<<blocks_for(static_cast<unsigned long long>(l.targets()) * G, block), block, tile_bytes, l.stream>>>(
            l.position, l.force, l.velocity, l.first, l.last, l.n, p);
}

// The most threads a block of hi_far_kernel with G lanes a target may have: its registers' limit and
// the shared tiles (far_tile_slots) that fit the dynamic shared memory it may use without opting in.
template <class Tensor, class W, class A, bool Fast, bool Periodic, int G>
unsigned far_kernel_max_threads() {
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, hi_far_kernel<Tensor, W, A, Fast, Periodic, G>),
          "cudaFuncGetAttributes(hi_far_kernel)");
    const std::size_t slots = attributes.maxDynamicSharedSizeBytes / (2 * sizeof(packed4<W>));
    const unsigned by_shared = slots > 2u * G ? static_cast<unsigned>(slots - 2u * G) / 32u * 32u : 0u;
    const unsigned by_registers = static_cast<unsigned>(attributes.maxThreadsPerBlock);
    return by_shared < by_registers ? by_shared : by_registers;
}

// far_split_shape.hpp's limits of the current device, read once per device.
template <class Tensor, class W, class A, bool Fast, bool Periodic>
far_split_limits far_split_limits_here() {
    static std::mutex mutex;
    static std::map<int, far_split_limits> by_device;
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    const std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = by_device.try_emplace(device);
    if (fresh) it->second = [&]<int... I>(std::integer_sequence<int, I...>) {
            return far_split_limits{device_sm_count(),
                                    far_presum_steps<Fast, W, A>,
                                    {far_kernel_max_threads<Tensor, W, A, Fast, Periodic, 1 << I>()...}};
        }
    (std::make_integer_sequence<int, 6>{});
    return it->second;
}

// far-tiling (Split = false): one lane a target, the caller's block. fast-far-split (Split): the
// lanes a target and block of far_split_shape.hpp.
template <class Tensor, class W, class A, bool Fast, bool Split, bool Periodic>
void launch_far_box(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    if constexpr (!Split) {
        launch_far_group<Tensor, W, A, Fast, Periodic, 1>(l, l.block, p);
    } else {
        const far_split_shape shape =
            far_split_shape_for(l.n, l.targets(), far_split_limits_here<Tensor, W, A, Fast, Periodic>(), l.block);
        with_group(shape.group, [&](auto g) {
            launch_far_group<Tensor, W, A, Fast, Periodic, decltype(g)::value>(l, shape.block, p);
        });
    }
}

// far-tiling (exact, Split = false: one lane per target, the CPU's order) and fast-far-split (Fast,
// Split) (hi_far_kernels.cuh). A tensor without a far form runs tiling or fast-split, which these
// kernels equal for it bit for bit.
template <class Tensor, class W, class A, bool Fast, bool Split>
void launch_far(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    if constexpr (!far_form<Tensor>::available) {
        if constexpr (Split) {
            launch_split<Tensor, W, A, Fast>(l, p);
        } else {
            hi_tiling_kernel<Tensor, W, A, Fast, false>
                <<<blocks_for(l.targets(), l.block), l.block, 2 * sizeof(packed4<W>) * l.block, l.stream>>>(
                    l.position, l.force, l.velocity, l.first, l.last, l.n, p);
        }
    } else if (p.box.periodic) {
        launch_far_box<Tensor, W, A, Fast, Split, true>(l, p);
    } else {
        launch_far_box<Tensor, W, A, Fast, Split, false>(l, p);
    }
}

template <class Tensor, class W, class A, bool Periodic, int G>
void launch_ordered_group(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    const std::size_t bytes = 2 * sizeof(packed4<W>) * far_tile_slots(l.block, G) +
                              sizeof(W) * ordered_split::words_per_warp * (l.block / 32);
    hi_ordered_kernel<Tensor, W, A, Periodic, G>
        <<<blocks_for(static_cast<unsigned long long>(l.targets()) * G, l.block), l.block, bytes, l.stream>>>(
            l.position, l.force, l.velocity, l.first, l.last, l.n, p);
}

template <class Tensor, class W, class A, bool Periodic>
void launch_ordered_box(const hi_launch<W, A>& l, const interaction_parameters<W>& p, unsigned g) {
    with_group<4>(g, [&](auto group) { launch_ordered_group<Tensor, W, A, Periodic, decltype(group)::value>(l, p); });
}

// ordered-split (hi_ordered_kernel.cuh): G lanes per target from the number of targets and the
// cost of an ordered addition (ordered_split::group_size; the result does not depend on G); where
// the GPU is full with one lane per target, far-tiling gives the same bits without the ordered
// additions. Tensors without a far form run tiling (the same bits).
template <class Tensor, class W, class A>
void launch_ordered(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    const unsigned g = ordered_split::group_size(l.targets(), device_sm_count(), !std::is_same_v<A, float>);
    if constexpr (far_form<Tensor>::available) {
        if (g >= 4) {
            if (p.box.periodic) launch_ordered_box<Tensor, W, A, true>(l, p, g);
            else launch_ordered_box<Tensor, W, A, false>(l, p, g);
            return;
        }
    }
    launch_far<Tensor, W, A, false, false>(l, p);
}

template <class Tensor, class W, class A, bool Periodic, bool UnitMobility>
void launch_adding_warps_form(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    constexpr unsigned most = fused_grid_pairs_pay<A, Periodic> ? fused_grid_most_a_step<W> : 1u;
    // Full rounds and a last one (fused_grid_shape_for), except with float_float accumulators, whose
    // adding lanes' chains set the pace: a round costs its chains whatever its tile, and equal tiles
    // in the fewest rounds were faster (engine/docs/gpu-runs/2026-11-30-h200-full-tiles.csv).
    constexpr fused_grid_tiles tiles =
        std::is_same_v<A, float_float> ? fused_grid_tiles::equal : fused_grid_tiles::full_rounds;
    const fused_grid_plan plan = fused_grid_plan_for<W>(l.targets(), most, tiles);
    with_targets_a_step<most>(plan.shape.targets_a_step, [&](auto k) {
        const auto kernel = hi_adding_warps_kernel<Tensor, Periodic, decltype(k)::value, UnitMobility, A, W>;
        fused_grid_prepare(reinterpret_cast<const void*>(kernel), plan.shared, fused_grid_block<W>,
                           "adding-warps kernel");
        kernel<<<plan.shape.blocks, fused_grid_block<W>, plan.shared, l.stream>>>(
            l.position, l.force, l.velocity, l.first, l.last, l.n, plan.shape.tiling, plan.buffers, plan.buffer, p);
    });
}

template <class Tensor, class W, class A, bool Periodic>
void launch_adding_warps_box(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    if (p.mobility.self_mobility == W(1)) launch_adding_warps_form<Tensor, W, A, Periodic, true>(l, p);
    else launch_adding_warps_form<Tensor, W, A, Periodic, false>(l, p);
}

// adding-warps (hi_adding_warps_kernel.cuh): one team a multiprocessor, the grid kernel's shape for
// the launch's targets. Tensors without a far form run tiling (the same bits).
template <class Tensor, class W, class A>
void launch_adding_warps(const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    if constexpr (far_form<Tensor>::available) {
        if (p.box.periodic) launch_adding_warps_box<Tensor, W, A, true>(l, p);
        else launch_adding_warps_box<Tensor, W, A, false>(l, p);
    } else {
        launch_far<Tensor, W, A, false, false>(l, p);
    }
}

// The exact kernels (Fast = false); false for a kernel that is not one of them.
template <class Tensor, class W, class A>
bool launch_exact_hi_kernel(hi_kernel kernel, const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    const std::size_t tile_bytes = 2 * sizeof(packed4<W>);
    const unsigned block = l.block, targets = l.targets();
    switch (kernel) {
        case hi_kernel::naive:
            hi_naive_kernel<Tensor, W, A, false><<<blocks_for(targets, block), block, 0, l.stream>>>(
                l.position, l.force, l.velocity, l.first, l.last, l.n, p);
            return true;
        case hi_kernel::tiling:
            hi_tiling_kernel<Tensor, W, A, false, false>
                <<<blocks_for(targets, block), block, block * tile_bytes, l.stream>>>(l.position, l.force, l.velocity,
                                                                                      l.first, l.last, l.n, p);
            return true;
        case hi_kernel::small_tiling:
            hi_tiling_kernel<Tensor, W, A, false, true>
                <<<blocks_for(targets, block), block, 32 * tile_bytes, l.stream>>>(l.position, l.force, l.velocity,
                                                                                   l.first, l.last, l.n, p);
            return true;
        case hi_kernel::far_tiling: launch_far<Tensor, W, A, false, false>(l, p); return true;
        case hi_kernel::ordered_split: launch_ordered<Tensor, W, A>(l, p); return true;
        case hi_kernel::adding_warps: launch_adding_warps<Tensor, W, A>(l, p); return true;
        default: return false;
    }
}

// The fast-* kernels (Fast = true); false for a kernel that is not one of them.
template <class Tensor, class W, class A>
bool launch_fast_hi_kernel(hi_kernel kernel, const hi_launch<W, A>& l, const interaction_parameters<W>& p) {
    switch (kernel) {
        case hi_kernel::fast_split: launch_split<Tensor, W, A, true>(l, p); return true;
        case hi_kernel::fast_far_split: launch_far<Tensor, W, A, true, true>(l, p); return true;
        default: return false;
    }
}

}  // namespace stokesian::cuda
