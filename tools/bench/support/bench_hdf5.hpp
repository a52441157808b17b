#pragma once
// Plain HDF5 datasets and attributes for the benchmark outputs (results tables, HI updates), on
// top of the engine's RAII handles (io/hdf5_handles.hpp). Failures throw std::runtime_error with
// one line; callers name the file.
#include <string>
#include <vector>

#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/numeric/vec3.hpp"

namespace stokesian::bench::h5 {

namespace hdf5 = io::hdf5;

inline void write_string_attribute(hid_t object, const std::string& name, const std::string& value) {
    const hdf5::dataspace space(hdf5::check(H5Screate(H5S_SCALAR), "creating a dataspace"));
    const hdf5::datatype type = hdf5::utf8_string_type();
    const hdf5::attribute attribute(
        hdf5::check(H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                    "creating attribute " + name));
    const char* text = value.c_str();
    hdf5::check(H5Awrite(attribute.get(), type.get(), &text), "writing attribute " + name);
}

// A float64 dataset of the given shape from `values` (row-major, size = product of the shape).
inline void write_doubles(hid_t location, const std::string& name, const std::vector<hsize_t>& shape,
                          const std::vector<double>& values) {
    const hdf5::dataspace space(
        hdf5::check(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), "creating a dataspace"));
    const hdf5::dataset set(hdf5::check(
        H5Dcreate2(location, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        "creating dataset " + name));
    if (!values.empty())
        hdf5::check(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                    "writing dataset " + name);
}

inline void write_vectors(hid_t location, const std::string& name, const std::vector<vec3<double>>& values) {
    std::vector<double> flat;
    flat.reserve(3 * values.size());
    for (const auto& v : values) flat.insert(flat.end(), {v.x, v.y, v.z});
    write_doubles(location, name, {values.size(), 3}, flat);
}

// A 1-D dataset of variable-length UTF-8 strings (h5py reads them as bytes or str).
inline void write_strings(hid_t location, const std::string& name, const std::vector<std::string>& values) {
    const hsize_t size = values.size();
    const hdf5::dataspace space(hdf5::check(H5Screate_simple(1, &size, nullptr), "creating a dataspace"));
    const hdf5::datatype type = hdf5::utf8_string_type();
    const hdf5::dataset set(
        hdf5::check(H5Dcreate2(location, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    "creating dataset " + name));
    std::vector<const char*> pointers;
    pointers.reserve(values.size());
    for (const auto& v : values) pointers.push_back(v.c_str());
    if (!pointers.empty())
        hdf5::check(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()),
                    "writing dataset " + name);
}

}  // namespace stokesian::bench::h5
