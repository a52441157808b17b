#pragma once
// HDF5 writing helpers shared by the H5MD writer and the checkpoint file: objects without time
// stamps (byte-identical files for identical runs), string and integer attributes, fixed-size
// datasets, and fsync for the crash-safe renames. Every failure throws std::runtime_error
// (hdf5::check) or std::invalid_argument (an object written twice).
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::io {

// Creation property lists with object time tracking off; `chunk` makes the dataset chunked.
hdf5::property_list group_creation();
hdf5::property_list dataset_creation(std::span<const hsize_t> chunk = {});

// Opens the group at `path` (absolute, or relative to `location`), creating it and its parents.
hdf5::group require_group(hid_t location, const std::string& path);
// "a/b/c" -> parent "a/b", leaf "c".
std::pair<std::string, std::string> split_leaf(const std::string& path);

hdf5::attribute replace_attribute(hid_t object, const std::string& name, hid_t type, hid_t space);
void write_string_attribute(hid_t object, const std::string& name, const std::string& value);
void write_string_array_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values);
// Fixed-length UTF-8 strings (NUL-padded; an array's strings share the longest one's length):
// what H5MD asks for, and what the checkpoint reader reads without entering HDF5's global heap.
void write_fixed_string_attribute(hid_t object, const std::string& name, const std::string& value);
void write_fixed_string_array_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values,
                                        bool scalar = false);
void write_int_attribute(hid_t object, const std::string& name, std::span<const int> values, bool scalar);
void write_string_attributes(hid_t object, const std::map<std::string, std::string>& attributes);
// A scalar number attribute: int64, uint64 or IEEE double, little-endian, the value exactly.
void write_number_attribute(hid_t object, const std::string& name, std::int64_t value);
void write_number_attribute(hid_t object, const std::string& name, std::uint64_t value);
void write_number_attribute(hid_t object, const std::string& name, double value);

// A dataset of the given shape (empty: scalar) written in one go from `data` (memory_type).
hdf5::dataset create_fixed_dataset(hid_t parent, const std::string& name, hid_t file_type, hid_t memory_type,
                                   std::span<const hsize_t> shape, const void* data);

// The directory a path lives in ("." for a bare file name).
std::filesystem::path directory_of(const std::filesystem::path& path);
// fsync(2) on a file or a directory (EINVAL on a directory is tolerated: some file systems
// cannot sync one). Throws std::runtime_error naming the path.
void sync_to_disk(const std::filesystem::path& path, bool directory);

}  // namespace stokesian::io
