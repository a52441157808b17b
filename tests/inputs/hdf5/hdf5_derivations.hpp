#pragma once
// Broken HDF5 files derived from valid ones, deterministically (fixed offsets and fractions): the
// derivations of the bad-input corpus (bad_hdf5_corpus.cpp) and of the readers' own tests.
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::test_inputs {

// ---- byte-level derivations --------------------------------------------------------------------

inline std::string bytes_of(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline void truncated_copy(const std::filesystem::path& from, const std::filesystem::path& to, double fraction) {
    const std::string bytes = bytes_of(from);
    write_bytes(to, bytes.substr(0, static_cast<std::size_t>(std::floor(fraction * double(bytes.size())))));
}

// Every byte of [offset, offset + length) inverted.
inline void flipped_copy(const std::filesystem::path& from, const std::filesystem::path& to, double fraction,
                         std::size_t length) {
    std::string bytes = bytes_of(from);
    const auto offset = static_cast<std::size_t>(fraction * double(bytes.size()));
    for (std::size_t i = offset; i < std::min(bytes.size(), offset + length); ++i)
        bytes[i] = static_cast<char>(~static_cast<unsigned char>(bytes[i]));
    write_bytes(to, bytes);
}

// The first object of the first global heap collection (where variable-length strings live) made
// a free-space object of size 0: HDF5 1.10's parser then loops forever (stokesian/io/global_heap_check.hpp).
inline void stalled_global_heap_copy(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::string bytes = bytes_of(from);
    const std::size_t collection = bytes.find("GCOL");
    if (collection == std::string::npos)
        throw std::runtime_error("hdf5_derivations: no global heap in " + from.string());
    const std::size_t object = collection + 16;  // signature, version, reserved, 8-byte size
    for (std::size_t k = 0; k < 16; ++k)
        if (k < 2 || k >= 8) bytes[object + k] = 0;  // index 0 (free space), size 0
    write_bytes(to, bytes);
}

// ---- HDF5-level derivations --------------------------------------------------------------------

using io::hdf5::check;

// Copies `from` to `to` and applies `change` to the copy, opened read-write.
inline void changed_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                         const std::function<void(hid_t)>& change) {
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
    io::hdf5::file file(check(H5Fopen(to.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening " + to.string()));
    change(file.get());
    if (!file.reset()) throw std::runtime_error("hdf5_derivations: closing " + to.string());
}

inline void remove_object(hid_t file, const char* path) {
    check(H5Ldelete(file, path, H5P_DEFAULT), std::string("deleting ") + path);
}

// A dataset of `type` with `dims` (filled from `data` when given; chunked and unwritten otherwise).
inline void put_dataset(hid_t file, const char* path, hid_t type, std::vector<hsize_t> dims, const void* data) {
    if (H5Lexists(file, path, H5P_DEFAULT) > 0) remove_object(file, path);
    const io::hdf5::dataspace space(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                          std::string("dataspace of ") + path));
    const io::hdf5::property_list plist(check(H5Pcreate(H5P_DATASET_CREATE), "dataset creation properties"));
    if (!data) {
        std::vector<hsize_t> chunk(dims.size(), 1);
        check(H5Pset_chunk(plist.get(), static_cast<int>(chunk.size()), chunk.data()), "chunking");
    }
    const io::hdf5::dataset dataset(
        check(H5Dcreate2(file, path, type, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
              std::string("creating ") + path));
    if (data) check(H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), std::string("writing ") + path);
}

}  // namespace stokesian::test_inputs
