#pragma once
// The targets of an HI sum: velocities of particles [begin, end), each summed over all N sources
// in index order. A target's sum does not depend on the range it is computed in, so a system may be
// cut into ranges (threads, devices) without changing a bit.
#include <cstddef>

namespace stokesian {

struct target_range {
    std::size_t begin = 0;
    std::size_t end = 0;

    std::size_t size() const { return end - begin; }
    bool contains(std::size_t i) const { return i >= begin && i < end; }
};

}  // namespace stokesian
