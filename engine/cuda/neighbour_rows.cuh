#pragma once
// Particle i's short-range neighbours in ascending index, the CPU backend's order of every
// short-range sum: from its row of the neighbour lists (short_range_kernels.cuh) where the row holds
// them all, else from every particle. The engine learns the longest row a few builds late
// (lagged_readback.hpp: no step waits for the device), so a row may have outgrown the lists'
// capacity; its particle then tests every particle, 32 at a time, as the lists test their
// candidates: the same neighbours in the same order, so the same bits, at O(N) for that particle
// until the capacity has caught up. The fused grid kernel, which keeps no lists, sums every target's
// short-range force that way (add_over_every_particle).
#include "device_types.cuh"
#include "stokesian/physics/interactions.hpp"
#include "warp_shuffle.cuh"

namespace stokesian::cuda {

// One build's lists: row i (capacity entries from list + i * capacity) holds particle i's count[i]
// neighbours sorted by index where count[i] <= capacity; a longer row is not read.
struct neighbour_rows {
    const unsigned* list;
    const unsigned* count;
    unsigned capacity;
};

// sum += term(j, r_j) over every particle j != i within the short-range cutoff of r_i (minimum image,
// cutoff2 its square), 32 tested at a time by i's warp and added in ascending j in every lane
// (add_in_lane_order): a row of the lists (neighbour_row_from_ranges tests its candidates so), found
// without them. term is called by the lanes that take a neighbour only.
template <class W, class Term>
__device__ __forceinline__ void add_over_every_particle(vec3<W>& sum, unsigned i, const vec3<W>& r_i,
                                                        const packed4<W>* position, unsigned n,
                                                        const box_geometry<W>& box, W cutoff2, Term term) {
    const unsigned lane = threadIdx.x % 32u;
    for (unsigned start = 0; start < n; start += 32u) {
        const unsigned j = start + lane;
        vec3<W> t{};
        bool take = false;
        if (j < n && j != i) {
            const vec3<W> r_j = unpack(position[j]);
            const vec3<W> d = minimum_image(r_i - r_j, box);
            take = dot(d, d) < cutoff2;
            if (take) t = term(j, r_j);
        }
        add_in_lane_order(sum, t, take);
    }
}

// sum += term(j) over particle i's neighbours j (within the short-range cutoff, minimum image),
// added in ascending j in every lane of i's warp (add_in_lane_order); r_i is i's position. term is
// called by the lanes that take a neighbour only.
template <class W, class Term>
__device__ __forceinline__ void add_over_neighbours(vec3<W>& sum, const neighbour_rows& rows, unsigned i,
                                                    const vec3<W>& r_i, const packed4<W>* position, unsigned n,
                                                    const interaction_parameters<W>& p, Term term) {
    const unsigned neighbours = rows.count[i];
    if (neighbours <= rows.capacity) {
        add_over_row(sum, rows.list + static_cast<unsigned long long>(i) * rows.capacity, neighbours, term);
        return;
    }
    add_over_every_particle(sum, i, r_i, position, n, p.box, p.short_range_cutoff * p.short_range_cutoff,
                            [&](unsigned j, const vec3<W>&) { return term(j); });
}

}  // namespace stokesian::cuda
