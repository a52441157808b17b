#pragma once
// A three-component vector usable on host and device. Arithmetic is written out component by
// component so the order of operations (and hence rounding) is the same on every backend.
#include "stokesian/config.hpp"

namespace stokesian {

template <class T>
struct vec3 {
    T x{}, y{}, z{};
};

template <class T>
STOKESIAN_HD_INLINE vec3<T> operator+(vec3<T> a, vec3<T> b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
STOKESIAN_HD_INLINE vec3<T> operator-(vec3<T> a, vec3<T> b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
STOKESIAN_HD_INLINE vec3<T> operator-(vec3<T> a) {
    return {-a.x, -a.y, -a.z};
}
template <class T>
STOKESIAN_HD_INLINE vec3<T> operator*(T s, vec3<T> a) {
    return {s * a.x, s * a.y, s * a.z};
}
template <class T>
STOKESIAN_HD_INLINE vec3<T>& operator+=(vec3<T>& a, vec3<T> b) {
    a = a + b;
    return a;
}
template <class T>
STOKESIAN_HD_INLINE vec3<T>& operator-=(vec3<T>& a, vec3<T> b) {
    a = a - b;
    return a;
}
template <class T>
STOKESIAN_HD_INLINE bool operator==(vec3<T> a, vec3<T> b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

// (x*x + y*y) + z*z, in this order on every backend.
template <class T>
STOKESIAN_HD_INLINE T dot(vec3<T> a, vec3<T> b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Component-wise application of a (named) conversion, e.g. to_float, to_double.
template <class To, class From, class Convert>
STOKESIAN_HD_INLINE vec3<To> map(vec3<From> v, Convert convert) {
    return {convert(v.x), convert(v.y), convert(v.z)};
}

}  // namespace stokesian
