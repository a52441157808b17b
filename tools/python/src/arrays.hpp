#pragma once
// NumPy arrays in and out of the module: the (N, 3) double arrays of positions and forces, and
// arrays that own a std::vector of the engine's results (no copy, freed with the array).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian::python {

// Read from Python: C-contiguous doubles of shape (N, 3) on the host (the Python layer converts
// what the user passes: flat 3N arrays, other dtypes).
using vectors_in = nanobind::ndarray<const double, nanobind::shape<-1, 3>, nanobind::c_contig, nanobind::device::cpu>;

inline std::vector<vec3<double>> to_vectors(const vectors_in& a) {
    std::vector<vec3<double>> out(a.shape(0));
    const double* p = a.data();
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
    return out;
}

// A NumPy array over `values` (moved into the array's owner) with `shape`.
template <class T>
nanobind::ndarray<nanobind::numpy, T> owned_array(std::vector<T>&& values, const std::vector<std::size_t>& shape) {
    auto* owned = new std::vector<T>(std::move(values));
    nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
    return nanobind::ndarray<nanobind::numpy, T>(owned->data(), shape.size(), shape.data(), owner);
}

// vectors as an (N, 3) array.
inline nanobind::ndarray<nanobind::numpy, double> vectors_out(const std::vector<vec3<double>>& v) {
    std::vector<double> flat(3 * v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        flat[3 * i] = v[i].x;
        flat[3 * i + 1] = v[i].y;
        flat[3 * i + 2] = v[i].z;
    }
    return owned_array(std::move(flat), {v.size(), 3});
}

}  // namespace stokesian::python
