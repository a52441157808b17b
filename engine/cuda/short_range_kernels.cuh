#pragma once
// Short-range forces on the GPU: a neighbour list rebuilt every step, each particle's neighbours
// sorted by index, then F_i = F_ext,i + sum_j [F_int(r_ij) - zeta_sing(r_ij) . (v_i - v_j)] summed
// in ascending j -- the CPU backend's order, so the two backends differ only by the device's
// logf/expf. No atomics touch a sum (determinism). A row longer than the lists' capacity is summed
// from every particle instead (neighbour_rows.cuh), so the host never waits for a build to learn
// the longest row.
//
// Candidates come from a cell list (particles sorted by cell with a stable radix sort, so each
// cell lists its particles in ascending index) when the periodic box has at least three cells a
// side, otherwise from a scan over all particles.
#include "device_types.cuh"
#include "neighbour_rows.cuh"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/interactions.hpp"
#include "warp_shuffle.cuh"

namespace stokesian::cuda {

struct cell_grid {
    int nx, ny, nz;                            // cells per side (>= 3 when used)
    float inv_cell_x, inv_cell_y, inv_cell_z;  // cells per unit length
    float origin_x, origin_y, origin_z;        // -L/2
};

__device__ inline int cell_coordinate(float x, float origin, float inv_cell, int cells) {
    int c = static_cast<int>(floorf((x - origin) * inv_cell));
    return c < 0 ? 0 : (c >= cells ? cells - 1 : c);
}

template <class W>
__global__ void cell_index_kernel(const packed4<W>* __restrict__ position, unsigned n, cell_grid g,
                                  unsigned* __restrict__ cell, unsigned* __restrict__ index) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const packed4<W> r = position[i];
    const int cx = cell_coordinate(float(r.x), g.origin_x, g.inv_cell_x, g.nx);
    const int cy = cell_coordinate(float(r.y), g.origin_y, g.inv_cell_y, g.ny);
    const int cz = cell_coordinate(float(r.z), g.origin_z, g.inv_cell_z, g.nz);
    cell[i] = static_cast<unsigned>((cz * g.ny + cy) * g.nx + cx);
    index[i] = i;
}

// first[c] = the position of cell c's first particle in the sorted order, c = 0 ... cells: cell c
// holds [first[c], first[c + 1]), an empty cell an empty range. A binary search a cell, so no cell
// is left unwritten and nothing has to be cleared first.
__global__ void cell_first_kernel(const unsigned* __restrict__ sorted_cell, unsigned n, unsigned cells,
                                  unsigned* __restrict__ first) {
    const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c > cells) return;
    unsigned low = 0, high = n;  // the first k with sorted_cell[k] >= c
    while (low < high) {
        const unsigned middle = low + (high - low) / 2u;
        if (sorted_cell[middle] < c) low = middle + 1u;
        else high = middle;
    }
    first[c] = low;
}

// Particle i's neighbour row, by one warp (warp_shuffle.cuh): lane q holds one range of candidates,
// [begin, begin + size) of sorted_index (a neighbouring cell's slice of the sorted order) or of the
// particles themselves (sorted_index null); the warp tests the ranges' candidates 32 at a time, the
// hits go to the row compacted in lane order, and the row is then sorted by index. count[i] is the
// number of neighbours even beyond capacity, where the row keeps only the first capacity found and
// the readers sum from every particle instead (neighbour_rows.cuh); max_count takes the longest row,
// which the engine's capacity follows.
template <class W>
__device__ inline void neighbour_row_from_ranges(const packed4<W>* __restrict__ position, unsigned i,
                                                 box_geometry<W> box, W cutoff, unsigned begin, unsigned size,
                                                 const unsigned* __restrict__ sorted_index, unsigned capacity,
                                                 unsigned* __restrict__ list, unsigned* __restrict__ count,
                                                 unsigned* __restrict__ max_count) {
    const unsigned lane = threadIdx.x % 32u;
    const vec3<W> r_i = unpack(position[i]);
    const W cutoff2 = cutoff * cutoff;
    unsigned end = size;  // inclusive prefix sum of the lanes' sizes: the ranges laid end to end
    for (unsigned offset = 1; offset < 32u; offset *= 2u) {
        const unsigned before = __shfl_up_sync(full_warp, end, offset);
        if (lane >= offset) end += before;
    }
    const unsigned first = end - size;
    const unsigned total = __shfl_sync(full_warp, end, 31);
    unsigned* row = list + static_cast<unsigned long long>(i) * capacity;
    unsigned found = 0;
    for (unsigned base = 0; base < total; base += 32u) {
        const unsigned t = base + lane;
        unsigned q = 0;  // the lane whose range holds candidate t: the first whose end exceeds t
        for (unsigned step = 16; step > 0; step /= 2u)
            if (__shfl_sync(full_warp, end, q + step - 1u) <= t) q += step;
        const unsigned k = __shfl_sync(full_warp, begin, q) + (t - __shfl_sync(full_warp, first, q));
        bool hit = false;
        unsigned j = 0;
        if (t < total) {
            j = sorted_index != nullptr ? sorted_index[k] : k;
            if (j != i) {
                const vec3<W> d = minimum_image(r_i - unpack(position[j]), box);
                hit = dot(d, d) < cutoff2;
            }
        }
        const unsigned hits = __ballot_sync(full_warp, hit);
        const unsigned at = found + __popc(hits & ((1u << lane) - 1u));
        if (hit && at < capacity) row[at] = j;
        found += __popc(hits);
    }
    __syncwarp();
    // Ascending index, the CPU backend's order of the sum (short_range_force_kernel). Every index
    // occurs once (the ranges are distinct cells), so a rank is a position. A row beyond the
    // capacity (>= 32) is not read (neighbour_rows.cuh), so it is left unsorted.
    if (found <= 32u) {
        const unsigned mine = lane < found ? row[lane] : ~0u;
        unsigned rank = 0;
        for (unsigned q = 0; q < found; ++q) rank += __shfl_sync(full_warp, mine, q) < mine ? 1u : 0u;
        __syncwarp();
        if (lane < found) row[rank] = mine;
    } else if (found <= capacity && lane == 0) {
        for (unsigned m = 1; m < found; ++m) {
            const unsigned j = row[m];
            unsigned at = m;
            for (; at > 0 && row[at - 1] > j; --at) row[at] = row[at - 1];
            row[at] = j;
        }
    }
    if (lane == 0) {
        count[i] = found;
        atomicMax(max_count, found);  // a maximum is order-independent
    }
}

// Every particle a candidate (an open box, or fewer than three cells a side).
template <class W>
__global__ void neighbour_scan_kernel(const packed4<W>* __restrict__ position, unsigned n, box_geometry<W> box,
                                      W cutoff, unsigned capacity, unsigned* __restrict__ list,
                                      unsigned* __restrict__ count, unsigned* __restrict__ max_count) {
    const unsigned i = particle_of_warp();
    if (i >= n) return;  // the whole warp
    const bool whole_system = threadIdx.x % 32u == 0;
    neighbour_row_from_ranges(position, i, box, cutoff, 0u, whole_system ? n : 0u,
                              static_cast<const unsigned*>(nullptr), capacity, list, count, max_count);
}

// The 27 cells around particle i's, one a lane.
template <class W>
__global__ void neighbour_cell_kernel(const packed4<W>* __restrict__ position, unsigned n, box_geometry<W> box,
                                      W cutoff, cell_grid g, const unsigned* __restrict__ cell_first,
                                      const unsigned* __restrict__ sorted_index, unsigned capacity,
                                      unsigned* __restrict__ list, unsigned* __restrict__ count,
                                      unsigned* __restrict__ max_count) {
    const unsigned i = particle_of_warp();
    if (i >= n) return;  // the whole warp
    const int lane = static_cast<int>(threadIdx.x % 32u);
    unsigned begin = 0, size = 0;
    if (lane < 27) {
        const packed4<W> r_i = position[i];
        const int cx = cell_coordinate(float(r_i.x), g.origin_x, g.inv_cell_x, g.nx);
        const int cy = cell_coordinate(float(r_i.y), g.origin_y, g.inv_cell_y, g.ny);
        const int cz = cell_coordinate(float(r_i.z), g.origin_z, g.inv_cell_z, g.nz);
        const int x = (cx + lane % 3 - 1 + g.nx) % g.nx;
        const int y = (cy + lane / 3 % 3 - 1 + g.ny) % g.ny;
        const int z = (cz + lane / 9 - 1 + g.nz) % g.nz;
        const unsigned cell = static_cast<unsigned>((z * g.ny + y) * g.nx + x);
        begin = cell_first[cell];
        size = cell_first[cell + 1] - begin;
    }
    neighbour_row_from_ranges(position, i, box, cutoff, begin, size, sorted_index, capacity, list, count, max_count);
}

// The longest row of this build into the host's word (lagged_readback.hpp), and the maximum
// cleared for the next build's atomicMax.
__global__ void publish_longest_row_kernel(unsigned* __restrict__ longest, unsigned* __restrict__ host_word) {
    *host_word = *longest;
    *longest = 0;
}

// A warp a particle, a neighbour a lane, the terms added in ascending j (add_over_neighbours).
template <class W, class A>
__global__ void short_range_force_kernel(const packed4<W>* __restrict__ position, const vec3<A>* __restrict__ velocity,
                                         const vec3<W>* __restrict__ external_force, unsigned n, neighbour_rows rows,
                                         interaction_parameters<W> p, packed4<W>* __restrict__ force) {
    const unsigned i = particle_of_warp(), lane = threadIdx.x % 32u;
    if (i >= n) return;  // the whole warp
    const vec3<W> r_i = unpack(position[i]);
    const vec3<W> v_i = value_cast<W>(velocity[i]);
    vec3<W> f = external_force[i];
    add_over_neighbours(f, rows, i, r_i, position, n, p, [&](unsigned j) {
        return short_range_force(r_i, unpack(position[j]), v_i, value_cast<W>(velocity[j]), p);
    });
    if (lane == 0) force[i] = pack(f);
}

template <class W>
__global__ void external_force_kernel(const vec3<W>* __restrict__ external_force, unsigned n,
                                      packed4<W>* __restrict__ force) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) force[i] = pack(external_force[i]);
}

}  // namespace stokesian::cuda
