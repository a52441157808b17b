#pragma once
// How N targets are cut into `parts` contiguous slices, one per device (multi-GPU) or per MPI rank
// (the CPU backend under mpirun): THE one rule every decomposition uses, so that a slice is the same
// whichever backend or rank computes it. Part p gets [begin, end); the first n % parts slices are one
// larger, slices lie in part order and cover [0, n) exactly (empty ones when n < parts). A target's
// HI sum does not depend on its slice (physics/target_range.hpp), so the sliced velocities are the
// whole-range ones bit for bit. Plain C++, constexpr: host code and tests alike.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "stokesian/physics/target_range.hpp"

namespace stokesian {

// A slice is a target range: it goes straight into the HI loops and kernels.
using target_slice = target_range;

// Part `part` of `parts` (0 <= part < parts); throws std::invalid_argument otherwise.
constexpr target_slice slice_of(std::size_t n, unsigned parts, unsigned part) {
    if (parts == 0 || part >= parts) throw std::invalid_argument("slice_of: part must lie in [0, parts)");
    const std::size_t base = n / parts;
    const std::size_t extra = n % parts;  // the first `extra` parts hold base + 1
    const std::size_t begin = part * base + std::min<std::size_t>(part, extra);
    return {begin, begin + base + (part < extra ? 1 : 0)};
}

// Every part's slice, in part order (for gathers that need all sizes and offsets).
inline std::vector<target_slice> slices_of(std::size_t n, unsigned parts) {
    std::vector<target_slice> all;
    all.reserve(parts);
    for (unsigned p = 0; p < parts; ++p) all.push_back(slice_of(n, parts, p));
    return all;
}

}  // namespace stokesian
