#pragma once
// Conversions between an engine's storage arrays and engine_state's exact double words.
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"

namespace stokesian {

// (hi, lo) words of a stored value, widened exactly.
inline void to_words(float x, double& hi, double& lo) {
    hi = x;
    lo = 0.0;
}
inline void to_words(double x, double& hi, double& lo) {
    hi = x;
    lo = 0.0;
}
inline void to_words(float_float x, double& hi, double& lo) {
    hi = x.hi;
    lo = x.lo;
}

// The exact inverse of to_words (the words came from a value of type T).
template <class T>
T from_words(double hi, double lo);
template <>
inline float from_words<float>(double hi, double) {
    return static_cast<float>(hi);
}
template <>
inline double from_words<double>(double hi, double) {
    return hi;
}
template <>
inline float_float from_words<float_float>(double hi, double lo) {
    return {static_cast<float>(hi), static_cast<float>(lo)};
}

// Whether (hi, lo) are the words to_words writes for a value of type T: a float with lo 0, a
// normalised pair of floats (hi = fl(hi + lo)), a double with lo 0 (checkpoint_reader's check).
inline bool is_normalised(float) { return true; }
inline bool is_normalised(double) { return true; }
inline bool is_normalised(float_float x) { return static_cast<float>(x.hi + x.lo) == x.hi; }
template <class T>
bool words_fit(double hi, double lo) {
    const T value = from_words<T>(hi, lo);
    double value_hi = 0.0, value_lo = 0.0;
    to_words(value, value_hi, value_lo);
    return value_hi == hi && value_lo == lo && is_normalised(value);
}

template <class T>
void split_words(const std::vector<vec3<T>>& values, std::vector<vec3<double>>& hi, std::vector<vec3<double>>& lo) {
    hi.resize(values.size());
    lo.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        to_words(values[i].x, hi[i].x, lo[i].x);
        to_words(values[i].y, hi[i].y, lo[i].y);
        to_words(values[i].z, hi[i].z, lo[i].z);
    }
}

template <class T>
std::vector<vec3<T>> join_words(const std::vector<vec3<double>>& hi, const std::vector<vec3<double>>& lo) {
    std::vector<vec3<T>> values(hi.size());
    for (std::size_t i = 0; i < hi.size(); ++i)
        values[i] = {from_words<T>(hi[i].x, lo[i].x), from_words<T>(hi[i].y, lo[i].y), from_words<T>(hi[i].z, lo[i].z)};
    return values;
}

// Throws std::invalid_argument unless the state fits an engine of n particles in mode `mode`.
inline void check_state_fits(const engine_state& s, std::size_t n, precision_mode mode) {
    if (!(s.precision == mode))
        throw std::invalid_argument("checkpoint precision " + to_string(s.precision) + " does not match the run's " +
                                    to_string(mode));
    const bool history =
        (s.history_hi.empty() && s.history_lo.empty()) || (s.history_hi.size() == n && s.history_lo.size() == n);
    const bool sizes = s.position_hi.size() == n && s.position_lo.size() == n && s.image.size() == n &&
                       s.velocity_hi.size() == n && s.velocity_lo.size() == n && s.force.size() == n && history;
    if (!sizes)
        throw std::invalid_argument("checkpoint holds " + std::to_string(s.position_hi.size()) +
                                    " particles, the run has " + std::to_string(n));
}

}  // namespace stokesian
