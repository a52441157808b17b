#pragma once
// acc += c for the three accumulator types. float_float uses DWPlusFP (float_float.hpp): the sum
// of the contributions is carried with ~48 bits, so the result no longer depends on the order of
// summation for the few terms of small systems (see engine/README.md, "Mirror symmetry").
#include "stokesian/config.hpp"
#include "stokesian/numeric/float_float.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian {

STOKESIAN_HD_INLINE void accumulate(vec3<float>& acc, vec3<float> c) { acc = acc + c; }
STOKESIAN_HD_INLINE void accumulate(vec3<double>& acc, vec3<double> c) { acc = acc + c; }
STOKESIAN_HD_INLINE void accumulate(vec3<float_float>& acc, vec3<float> c) {
    acc.x = acc.x + c.x;
    acc.y = acc.y + c.y;
    acc.z = acc.z + c.z;
}

template <class A>
STOKESIAN_HD_INLINE vec3<A> zero_vector() {
    return {A{}, A{}, A{}};
}

}  // namespace stokesian
