#pragma once
// The all-gather of a multi-device step as a plan: every device holds an array of N items
// (velocities) of which it computed its own slice (core/target_slices.hpp); after the gather every
// device holds all N. One broadcast per non-empty slice, from the device that owns it to the same
// bytes of every other device's array, in slice order -- NCCL's all-gather needs equal counts,
// slices differ by one item. Plain C++: device_group.cpp runs the plan through NCCL, and the tests
// rehearse it on host buffers (gather_on_host) with the CPU's HI loops.
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/physics/target_range.hpp"

namespace stokesian::cuda {

struct slice_broadcast {
    unsigned root;             // the device (index in the group) that computed the slice
    std::size_t offset_bytes;  // where the slice starts in every device's array
    std::size_t bytes;
};

// Slices must lie in device order, each beginning where the one before ends (slices_of gives
// that); empty slices (N < devices) have nothing to send.
inline std::vector<slice_broadcast> gather_plan(const std::vector<target_range>& slices, std::size_t item_bytes) {
    std::vector<slice_broadcast> plan;
    std::size_t next = slices.empty() ? 0 : slices.front().begin;
    for (std::size_t d = 0; d < slices.size(); ++d) {
        const target_range& s = slices[d];
        if (s.begin != next || s.end < s.begin)
            throw std::invalid_argument("gather_plan: slice " + std::to_string(d) + " [" + std::to_string(s.begin) +
                                        ", " + std::to_string(s.end) + ") does not continue at " +
                                        std::to_string(next));
        next = s.end;
        if (s.size() > 0) plan.push_back({static_cast<unsigned>(d), s.begin * item_bytes, s.size() * item_bytes});
    }
    return plan;
}

// The plan on host memory: buffers[d] is device d's array.
inline void gather_on_host(const std::vector<unsigned char*>& buffers, const std::vector<slice_broadcast>& plan) {
    for (const slice_broadcast& b : plan)
        for (std::size_t d = 0; d < buffers.size(); ++d)
            if (d != b.root) std::memcpy(buffers[d] + b.offset_bytes, buffers[b.root] + b.offset_bytes, b.bytes);
}

}  // namespace stokesian::cuda
