#pragma once
// How fast-far-split (hi_far_kernels.cuh, Fast and Split) cuts a launch: G lanes a target and the
// block. Host code without CUDA, so that a CPU test checks it (tests/cuda/far_split_shape_test.cpp).
//
// Every block sums its targets over all N sources, so the blocks of a launch take equally long and
// a launch as long as its fullest multiprocessor. Blocks of 128 threads spread unevenly over the
// multiprocessors (N = 10 976 in f64 on an H200: 1 372 blocks in two waves of up to 924, 0.661 ms).
// Where one block a multiprocessor holds the multiprocessor's share of the targets with G >= 2, the
// launch takes exactly that, with the largest such G: 0.439 ms there, 9-42 % faster than blocks of
// 128 from N = 2 048 to 23 328 in every precision, 0-1 % at 42 592
// (engine/docs/gpu-runs/2026-11-30-h200-fast-far-split-shape.csv; engine/docs/performance.md).
// Larger systems keep blocks of 128 and fast-split's G (split_group_for): balanced blocks of
// one lane a target, measured there, were slower at N = 70 304 and 108 000 in five of six cases
// (by 1-8 %) and faster at 202 612 (by 7-13 %), so no rule was drawn from them.
//
// G orders each target's sum (lane l adds sources l, l + G, ..., then a shuffle tree), so it
// follows the system's N alone: every range of a system, on any of several devices, sums alike.
// The block orders nothing where it is a multiple of 2G times the kernel's tile_steps (a lane's
// sources are the same, and the ds kernel's float partial sums, which end with each tile, group
// the same steps), so it follows the range.

namespace stokesian::cuda {

inline constexpr unsigned far_split_group_max = 32;  // a group lies within one warp

// The most threads a block of the kernel with G lanes a target may have on the device: its
// registers' limit (cudaFuncAttributes::maxThreadsPerBlock) and the shared tiles that fit.
struct far_split_limits {
    unsigned multiprocessors;
    unsigned tile_steps;      // a tile holds a multiple of this many steps (far_presum_steps)
    unsigned max_threads[6];  // by log2 G: G = 1, 2, 4, ..., 32

    constexpr unsigned for_group(unsigned group) const {
        unsigned index = 0;
        while ((1u << index) < group) ++index;
        return max_threads[index];
    }
};

// Targets a block come in multiples of this, so that the block is whole warps (t G a multiple of 32)
// and its tile whole groups of tile_steps steps of 2G sources (hi_far_kernel).
constexpr unsigned far_split_target_multiple(unsigned group, unsigned tile_steps) {
    return 2 * tile_steps > 32 / group ? 2 * tile_steps : 32 / group;
}

// The block for `targets` with G lanes a target: each multiprocessor's share of the targets, at most
// one block on each.
constexpr unsigned far_split_block(unsigned targets, unsigned group, const far_split_limits& limits) {
    const unsigned share = (targets + limits.multiprocessors - 1) / limits.multiprocessors;
    const unsigned multiple = far_split_target_multiple(group, limits.tile_steps);
    return (share + multiple - 1) / multiple * multiple * group;
}

// G for a system of n particles: the largest G >= 2 whose block of all n targets (far_split_block)
// the kernel holds; 0 where none does (then split_group_for's G and the caller's blocks).
constexpr unsigned far_split_group(unsigned n, const far_split_limits& limits) {
    for (unsigned group = far_split_group_max; group >= 2; group /= 2)
        if (far_split_block(n, group, limits) <= limits.for_group(group)) return group;
    return 0;
}

// fast-split's lanes a target (split_group_size, hi_launch.cuh): the smallest power of two up to 32
// with n G >= 1024 threads a multiprocessor (32 warps, a quarter of an H100's), so that a small
// system fills the device.
constexpr unsigned split_group_for(unsigned n, unsigned multiprocessors) {
    unsigned group = 1;
    while (group < far_split_group_max && static_cast<unsigned long long>(n) * group < multiprocessors * 1024ull)
        group *= 2;
    return group;
}

struct far_split_shape {
    unsigned group;  // G, lanes a target
    unsigned block;  // threads a block
};

// A launch over `targets` of a system of n: one block a multiprocessor with far_split_group's G
// where that fits, else split_group_for's G in the caller's blocks of `default_block`.
constexpr far_split_shape far_split_shape_for(unsigned n, unsigned targets, const far_split_limits& limits,
                                              unsigned default_block) {
    const unsigned group = far_split_group(n, limits);
    if (group == 0) return {split_group_for(n, limits.multiprocessors), default_block};
    return {group, far_split_block(targets, group, limits)};
}

}  // namespace stokesian::cuda
