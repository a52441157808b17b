#pragma once
// Short-range forces on the GPU: a neighbour list rebuilt every step, each particle's neighbours
// sorted by index, then F_i = F_ext,i + sum_j [F_int(r_ij) - zeta_sing(r_ij) . (v_i - v_j)] summed
// in ascending j -- the CPU backend's order, so the two backends differ only by the device's
// logf/expf. No atomics touch a sum (determinism).
//
// Candidates come from a cell list (particles sorted by cell with a stable radix sort, so each
// cell lists its particles in ascending index) when the periodic box has at least three cells a
// side, otherwise from a scan over all particles.
#include "device_types.cuh"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/physics/interactions.hpp"

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

// [cell_start[c], cell_end[c]) is the range of cell c in the sorted order; both arrays are
// zeroed before, so empty cells have an empty range.
__global__ void cell_range_kernel(const unsigned* __restrict__ sorted_cell, unsigned n,
                                  unsigned* __restrict__ cell_start, unsigned* __restrict__ cell_end) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const unsigned c = sorted_cell[k];
    if (k == 0 || c != sorted_cell[k - 1]) cell_start[c] = k;
    if (k == n - 1 || c != sorted_cell[k + 1]) cell_end[c] = k + 1;
}

// Sorted insertion into a thread-local list (neighbour counts are small: ~10 at n = 0.1 a^-3).
__device__ inline void insert_sorted(unsigned* list, unsigned& count, unsigned capacity, unsigned j) {
    if (count >= capacity) {
        ++count;  // overflow is detected by the caller, who retries with a larger capacity
        return;
    }
    unsigned k = count++;
    while (k > 0 && list[k - 1] > j) {
        list[k] = list[k - 1];
        --k;
    }
    list[k] = j;
}

template <class W>
__global__ void neighbour_scan_kernel(const packed4<W>* __restrict__ position, unsigned n, box_geometry<W> box,
                                      W cutoff, unsigned capacity, unsigned* __restrict__ list,
                                      unsigned* __restrict__ count, unsigned* __restrict__ max_count) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const vec3<W> r_i = unpack(position[i]);
    const W cutoff2 = cutoff * cutoff;
    unsigned c = 0;
    unsigned* mine = list + static_cast<unsigned long long>(i) * capacity;
    for (unsigned j = 0; j < n; ++j) {
        if (j == i) continue;
        const vec3<W> d = minimum_image(r_i - unpack(position[j]), box);
        if (dot(d, d) < cutoff2) insert_sorted(mine, c, capacity, j);
    }
    count[i] = c;
    atomicMax(max_count, c);  // a maximum is order-independent
}

template <class W>
__global__ void neighbour_cell_kernel(const packed4<W>* __restrict__ position, unsigned n, box_geometry<W> box,
                                      W cutoff, cell_grid g, const unsigned* __restrict__ cell_start,
                                      const unsigned* __restrict__ cell_end, const unsigned* __restrict__ sorted_index,
                                      unsigned capacity, unsigned* __restrict__ list, unsigned* __restrict__ count,
                                      unsigned* __restrict__ max_count) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const vec3<W> r_i = unpack(position[i]);
    const W cutoff2 = cutoff * cutoff;
    const int cx = cell_coordinate(float(r_i.x), g.origin_x, g.inv_cell_x, g.nx);
    const int cy = cell_coordinate(float(r_i.y), g.origin_y, g.inv_cell_y, g.ny);
    const int cz = cell_coordinate(float(r_i.z), g.origin_z, g.inv_cell_z, g.nz);
    unsigned c = 0;
    unsigned* mine = list + static_cast<unsigned long long>(i) * capacity;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int x = (cx + dx + g.nx) % g.nx, y = (cy + dy + g.ny) % g.ny, z = (cz + dz + g.nz) % g.nz;
                const unsigned cell = static_cast<unsigned>((z * g.ny + y) * g.nx + x);
                for (unsigned k = cell_start[cell]; k < cell_end[cell]; ++k) {
                    const unsigned j = sorted_index[k];
                    if (j == i) continue;
                    const vec3<W> d = minimum_image(r_i - unpack(position[j]), box);
                    if (dot(d, d) < cutoff2) insert_sorted(mine, c, capacity, j);
                }
            }
    count[i] = c;
    atomicMax(max_count, c);
}

template <class W, class A>
__global__ void short_range_force_kernel(const packed4<W>* __restrict__ position, const vec3<A>* __restrict__ velocity,
                                         const vec3<W>* __restrict__ external_force, unsigned n,
                                         const unsigned* __restrict__ list, const unsigned* __restrict__ count,
                                         unsigned capacity, interaction_parameters<W> p,
                                         packed4<W>* __restrict__ force) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const vec3<W> r_i = unpack(position[i]);
    const vec3<W> v_i = value_cast<W>(velocity[i]);
    vec3<W> f = external_force[i];
    const unsigned* mine = list + static_cast<unsigned long long>(i) * capacity;
    for (unsigned k = 0; k < count[i]; ++k) {
        const unsigned j = mine[k];
        f += short_range_force(r_i, unpack(position[j]), v_i, value_cast<W>(velocity[j]), p);
    }
    force[i] = pack(f);
}

template <class W>
__global__ void external_force_kernel(const vec3<W>* __restrict__ external_force, unsigned n,
                                      packed4<W>* __restrict__ force) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) force[i] = pack(external_force[i]);
}

}  // namespace stokesian::cuda
