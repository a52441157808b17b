#pragma once
// Where ordered-split's terms go in a warp's shared array and which lane adds which
// (hi_ordered_kernel.cuh), host and device, so that a CPU test can walk a warp's schedule
// (tests/cuda/ordered_split_schedule_test.cpp). G lanes per target (a group), 2G sources a step:
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

// Lanes per target (G) for a launch of `targets` targets on a device of `sms` multiprocessors; 1
// means one lane per target (far-tiling: the same bits without the ordered additions). The adding
// lanes' work per pair grows with G (2G serial additions per step for 32/G targets of a warp), so G
// is the smallest that still gives the device enough threads: 512 per multiprocessor where an
// addition is one float instruction, 256 where it is dear (double; float_float's DWPlusFP, ~10
// dependent instructions). Measured on an H100 (engine/docs/far-kernels.md, "The group size"): N = 10 976 takes G = 8 in f32 (0.58 ms; G = 16: 0.62), G = 4 in ds and f64 (1.11 and
// 0.90 ms; G = 16: 1.72 and 1.25); from 512 targets per multiprocessor on, far-tiling is as fast.
STOKESIAN_HD_INLINE constexpr unsigned group_size(unsigned long long targets, unsigned sms, bool dear_additions) {
    if (targets >= 512ull * sms) return 1;
    const unsigned long long wanted = (dear_additions ? 256ull : 512ull) * sms;
    unsigned g = 4;
    while (g < warp_size && targets * g < wanted) g *= 2;
    return g;
}

}  // namespace stokesian::cuda::ordered_split
