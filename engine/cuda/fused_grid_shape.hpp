#pragma once
// How the grid kernel (fused_grid_kernel.cuh) cuts one system of n particles into tiles, a block a
// tile at a time, and how many chunk buffers a block holds: host code without CUDA, so that a CPU
// test checks it (tests/cuda/fused_grid_shape_test.cpp).
#include <cstddef>

namespace stokesian::cuda {

// A tile's targets are added by fused_grid_adders<W> adding warps, ten targets each (lane 3 i + c
// adds component c of target i: 30 lanes a warp). A block's chains run side by side, so more adding
// warps mean fewer rounds of N-long chains for a large system (N = 10 976 on an H200: three in f32
// and ds, two in f64; engine/docs/gpu-runs/2026-11-29-h200-fused-grid-adders.txt). With three, the
// f64 kernel's 17 warps get at most 96 registers a thread and spill (4-7 % slower at N <= 2048).
template <class W>
inline constexpr unsigned fused_grid_adders = sizeof(W) == 4 ? 3 : 2;
inline constexpr unsigned fused_grid_adder_targets = 10;
template <class W>
inline constexpr unsigned fused_grid_tile_max = fused_grid_adders<W>* fused_grid_adder_targets;
inline constexpr unsigned fused_grid_buffers_max = 4;  // chunk buffers between producing and adding warps
// The most targets a producing warp evaluates at a time (fused_grid_terms): three in f64, whose
// kernel is latency-bound and holds three within its 128 registers (CUDA 13.0: 126 on sm_90, 128
// on sm_80, 112-114 on sm_100 and sm_120, no spill; four spill on sm_90); two in f32, whose 64
// registers a thread spill more with each (engine/docs/performance.md).
template <class W>
inline constexpr unsigned fused_grid_most_a_step = sizeof(W) == 4 ? 2 : 3;

// The chunk buffers of `buffer_bytes` each that fit a block's `shared_per_block` bytes of shared
// memory beside `fixed_bytes`, at most fused_grid_buffers_max; 0 when not even one fits. (Four
// buffers of tiles of ten need ~107 KiB in f32 and three ~159 KiB in f64: more than a block of some
// devices holds.)
constexpr unsigned fused_grid_buffers_fitting(std::size_t shared_per_block, std::size_t fixed_bytes,
                                              std::size_t buffer_bytes) {
    if (shared_per_block < fixed_bytes) return 0;
    const std::size_t fitting = (shared_per_block - fixed_bytes) / buffer_bytes;
    return fitting < fused_grid_buffers_max ? static_cast<unsigned>(fitting) : fused_grid_buffers_max;
}

// A producing warp's role: which targets of the tile it evaluates (group: targets group, group +
// groups, ...) and which sources of a chunk (slice: the slice-th 32 of them).
struct fused_grid_role {
    unsigned group, slice;
};

// The role of producing warp `warp` of a block whose warps 0 ... adders - 1 add and the next ones
// produce, in `groups` groups (groups divides 4). Warp w issues from scheduler w % 4; adding warp 0,
// on scheduler 0, adds whenever the tile has targets. The groups alternate over the warps so that
// warps 4, 8, ... (scheduler 0) fall in the last group, which has the fewest targets when the tile
// is not a multiple of the groups: scheduler 0 issues fewer pair terms and warp 0's chains wait less
// for issue slots (in f32 8-9 % faster at N = 864 ... 10 976 on an H200,
// engine/docs/gpu-runs/2026-11-29-h200-fused-grid-scheduler-forms.txt).
constexpr fused_grid_role fused_grid_role_of(unsigned warp, unsigned adders, unsigned groups) {
    return {(warp + groups - 1u) % groups, (warp - adders) / groups};
}

// The bytes of one chunk buffer for a tile of `tile` targets: 3 * tile rows of `row` values of
// `value_bytes` each (fused_grid_kernel.cuh).
constexpr std::size_t fused_grid_buffer_bytes(unsigned tile, unsigned row, std::size_t value_bytes) {
    return std::size_t(3) * tile * row * value_bytes;
}

// The largest tile <= tile_max of which two chunk buffers fit beside `fixed_bytes` (one buffer would
// let producing and adding warps only take turns), else the largest of which one does; 0 when none.
// On an H200 (227 KiB a block) the kernel's tile_max: 30 in f32 and ds, 20 in f64.
constexpr unsigned fused_grid_tile_fitting(std::size_t shared_per_block, std::size_t fixed_bytes, unsigned row,
                                           std::size_t value_bytes, unsigned tile_max) {
    for (unsigned buffers = 2; buffers >= 1; --buffers)
        for (unsigned tile = tile_max; tile >= 1; --tile)
            if (fused_grid_buffers_fitting(shared_per_block, fixed_bytes,
                                           fused_grid_buffer_bytes(tile, row, value_bytes)) >= buffers)
                return tile;
    return 0;
}

// How a launch cuts its targets into tiles: full_tiles tiles of `tile` targets (rounds of one on
// every block), then the rest in one round of tiles of last_tile <= tile; block b takes the b-th
// tile of each round (adding-warps: fused_grid_each_tile, hi_adding_warps_kernel.cuh).
struct fused_grid_tiling {
    unsigned tile;
    unsigned full_tiles;
    unsigned last_tile;
};

struct fused_grid_shape {
    fused_grid_tiling tiling;
    unsigned blocks;          // blocks of the launch
    unsigned targets_a_step;  // targets a producing warp evaluates at a time (fused_grid_terms)
};

// The producing warps' side of the launch: their `groups` take the tile's targets in turn
// (fused_grid_role_of), and a warp evaluates at most `most_a_step` targets at a time (1: one after
// the other, where several a step do not pay: fused_grid_pairs_pay).
struct fused_grid_producing {
    unsigned groups;
    unsigned most_a_step;
};

// Targets a step for a tile whose largest group has g = ceil(tile / groups) targets: 1 where the
// warps take at most one; else the K of 2 ... most_a_step whose steps evaluate the fewest targets,
// ceil(g / K) K (a last step past the group's targets evaluates a repeated one and stores nothing),
// the smaller K at a tie. Measured on an H200 in f64 (open fcc, N = 2916 ... 42 592,
// engine/docs/gpu-runs/2026-11-29-h200-fused-grid-three-targets.csv): three a step are 5-7 % faster
// than two where g = 9 (9 evaluations for 10) and 1-12 % slower elsewhere (g = 6, 7, 8, 10: as many
// evaluations or more), which this rule picks at all eleven sizes.
// The targets of a tile's largest group (the groups take the tile's targets in turn).
constexpr unsigned fused_grid_largest_group(unsigned tile, fused_grid_producing producing) {
    return (tile + producing.groups - 1) / producing.groups;
}

constexpr unsigned fused_grid_targets_a_step(unsigned tile, fused_grid_producing producing) {
    if (producing.most_a_step < 2) return 1;
    const unsigned g = fused_grid_largest_group(tile, producing);
    unsigned best = 2;
    for (unsigned k = 3; k <= producing.most_a_step; ++k)
        if ((g + k - 1) / k * k < (g + best - 1) / best * best) best = k;
    return best;
}

// The tile of a large system's full rounds (fused_grid_tiles::full_rounds) for the producing warps
// of f32 (value_bytes 4) and f64 (8): the tile that was fastest over N = 5324 ... 42 592 on an H200,
// open and periodic fcc, adding-warps with every tile of 12 ... 30 (f32) and 8 ... 20 (f64) in full
// rounds and the rest in one last round (engine/docs/gpu-runs/2026-11-30-h200-full-tiles.csv; a CPU
// test derives the table from it). Several targets a step (open boxes): f32 30 (groups of 8, 8, 7, 7:
// four steps of two), f64 18 (two groups of 9: three steps of three; 20 takes five steps of two and
// was 1-7 % slower). One a step: f32 28 (groups of 7; 30's groups of 8 and 7 leave warps idle: up to
// 6 % slower), f64 20.
constexpr unsigned fused_grid_full_tile(std::size_t value_bytes, unsigned most_a_step) {
    if (value_bytes == 4) return most_a_step > 1 ? 30u : 28u;
    return most_a_step > 1 ? 18u : 20u;
}

// How a system of several rounds is cut (fused_grid_shape_for).
enum class fused_grid_tiles {
    equal,        // tiles of one size, in as few rounds as possible
    full_rounds,  // rounds of the full tile (fused_grid_full_tile), then one round of the rest
};

// `resident`: the blocks the device holds at once (blocks a multiprocessor times multiprocessors);
// every block of a cooperative launch must be resident. `tile_max`: the largest tile whose buffers
// fit (fused_grid_tile_fitting). A system of at most tile_max targets a multiprocessor gets one
// block on each, in one round: the grid barrier's cost grows with the number of blocks, and a
// block's chain of n additions takes as long for one target as for tile_max. A larger one fills
// every resident block, its producing warps taking several targets a step where they may
// (fused_grid_targets_a_step of its tile; in one round only where the largest group holds at least
// twice the most a step), in one of two ways:
//   - full_tile 0 (fused_grid_tiles::equal): tiles of one size in as few rounds as possible. The
//     grid kernel's: its loops take one tile size (a last round of its own made it spill);
//   - otherwise rounds of tiles of min(full_tile, tile_max) on every block, as many as the system
//     fills, and one last round of the rest in tiles as equal as they come. adding-warps' (not in
//     ds): its full tiles fill the producing warps' groups and steps however the division falls, on
//     average 2.8-4.6 % faster than equal tiles on an H200 from N = 5324 to 42 592 (f32, f64; open and
//     periodic boxes; engine/docs/gpu-runs/2026-11-30-h200-full-tiles.csv).
// On an H200 in open boxes two a step are 5-10 % faster than one at N = 4000 and 10 976 (f32, f64).
// In one round a warp has few targets, and several a step pay only where its group holds at least
// two steps of the most: open fcc, the grid kernel (engine/docs/gpu-runs/2026-11-30-h200-one-round-
// targets-a-step.csv, three rounds): f32 2-5 % faster at N = 2048 and 2916 (groups of 4 and 6), 5-10 %
// slower from 32 to 1372 (at most 3); f64 2-3 % faster at 1372 and 2048 (6 and 8), 1-19 % slower from
// 32 to 864 (at most 4).
constexpr fused_grid_shape fused_grid_shape_for(unsigned n, unsigned multiprocessors, unsigned resident,
                                                unsigned tile_max, unsigned full_tile, fused_grid_producing producing) {
    if (n <= tile_max * multiprocessors) {
        const unsigned tile = (n + multiprocessors - 1) / multiprocessors;
        const bool two_steps = fused_grid_largest_group(tile, producing) >= 2 * producing.most_a_step;
        const unsigned k = two_steps ? fused_grid_targets_a_step(tile, producing) : 1u;
        return {{tile, 0u, tile}, (n + tile - 1) / tile, k};
    }
    if (full_tile == 0) {
        const unsigned rounds = (n + tile_max * resident - 1) / (tile_max * resident);
        const unsigned tile = (n + rounds * resident - 1) / (rounds * resident);
        const unsigned tiles = (n + tile - 1) / tile;
        return {{tile, 0u, tile}, tiles < resident ? tiles : resident, fused_grid_targets_a_step(tile, producing)};
    }
    const unsigned tile = full_tile < tile_max ? full_tile : tile_max;
    const unsigned rounds = (n + tile * resident - 1) / (tile * resident);
    const unsigned full_tiles = (rounds - 1) * resident, rest = n - full_tiles * tile;
    const unsigned last_tile = (rest + resident - 1) / resident;
    return {{tile, full_tiles, last_tile},
            rounds > 1 ? resident : (rest + last_tile - 1) / last_tile,
            fused_grid_targets_a_step(tile, producing)};
}

}  // namespace stokesian::cuda
