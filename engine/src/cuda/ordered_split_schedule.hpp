#pragma once
// Where ordered-split's terms go in a warp's shared array and which lane adds which
// (hi_ordered_kernel.cuh), host and device, so that a CPU test can walk a warp's schedule
// (tests/unit/ordered_split_schedule_test.cpp). G lanes per target (a group), 2G sources a step:
// lane l of group g evaluates sources kk + l (slot 0) and kk + G + l (slot 1); lane 3g + c of the
// warp adds component c of group g's target, reading the 2G terms in source order.
#include "stokesian/config.hpp"

namespace stokesian::cuda::ordered_split {

inline constexpr unsigned warp_size = 32;
// A row per component: slot 0 of every lane, slot 1 of every lane, and one spare word, so that the
// adding lanes of a warp, which read word (c * row + g * G + t) at once, hit distinct banks.
inline constexpr unsigned row = 2 * warp_size + 1;
inline constexpr unsigned words_per_warp = 3 * row;

// The word that warp lane `lane` writes component c of its slot's term to.
STOKESIAN_HD_INLINE constexpr unsigned term_word(unsigned component, unsigned slot, unsigned lane) {
    return component * row + slot * warp_size + lane;
}

// Three adding lanes per group must fit the warp: G >= 4.
STOKESIAN_HD_INLINE constexpr bool adds(unsigned lane, unsigned group_size) {
    return lane < 3 * (warp_size / group_size);
}
STOKESIAN_HD_INLINE constexpr unsigned added_group(unsigned lane) { return lane / 3; }
STOKESIAN_HD_INLINE constexpr unsigned added_component(unsigned lane) { return lane % 3; }

// The word of the t-th term of the step (source kk + t, t < 2G) that adding lane `lane` reads.
STOKESIAN_HD_INLINE constexpr unsigned added_word(unsigned lane, unsigned group_size, unsigned t) {
    return term_word(added_component(lane), t / group_size, added_group(lane) * group_size + t % group_size);
}

}  // namespace stokesian::cuda::ordered_split
