// Shared HDF5 writing helpers (hdf5_writing.hpp).
#include "stokesian/io/hdf5_writing.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace stokesian::io {

namespace fs = std::filesystem;

// --- creation property lists -------------------------------------------------------------------

hdf5::property_list group_creation() {
    hdf5::property_list gcpl(hdf5::check(H5Pcreate(H5P_GROUP_CREATE), "creating a group property list"));
    hdf5::check(H5Pset_obj_track_times(gcpl.get(), 0), "switching off group time stamps");
    return gcpl;
}

hdf5::property_list dataset_creation(std::span<const hsize_t> chunk) {
    hdf5::property_list dcpl(hdf5::check(H5Pcreate(H5P_DATASET_CREATE), "creating a dataset property list"));
    hdf5::check(H5Pset_obj_track_times(dcpl.get(), 0), "switching off dataset time stamps");
    if (!chunk.empty())
        hdf5::check(H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()), "setting the chunk shape");
    return dcpl;
}

// --- groups ------------------------------------------------------------------------------------

// Opens the group at `path` (absolute, or relative to `location`), creating it and any missing
// parents. We create the parents ourselves rather than through H5Pset_create_intermediate_group,
// which gives intermediate groups HDF5's default creation properties (time tracking on): today's
// file format happens not to store group times, but determinism should not rest on that.
hdf5::group require_group(hid_t location, const std::string& path) {
    const char* start = path.starts_with('/') ? "/" : ".";
    hdf5::group current(hdf5::check(H5Gopen2(location, start, H5P_DEFAULT), "opening group " + path));
    for (const std::string& name : hdf5::path_components(path)) {
        const htri_t exists = hdf5::check(H5Lexists(current.get(), name.c_str(), H5P_DEFAULT), "looking up " + path);
        hid_t next = exists > 0
                         ? H5Gopen2(current.get(), name.c_str(), H5P_DEFAULT)
                         : H5Gcreate2(current.get(), name.c_str(), H5P_DEFAULT, group_creation().get(), H5P_DEFAULT);
        current = hdf5::group(hdf5::check(next, "opening or creating group " + path));
    }
    return current;
}

// "a/b/c" -> parent "a/b", leaf "c".
std::pair<std::string, std::string> split_leaf(const std::string& path) {
    const std::vector<std::string> parts = hdf5::path_components(path);
    if (parts.empty()) throw std::invalid_argument("h5md_writer: empty object name");
    std::string parent;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) parent += "/" + parts[i];
    return {parent, parts.back()};
}

// --- attributes --------------------------------------------------------------------------------

// (Re)creates attribute `name` on `object` with the given type and dataspace.
hdf5::attribute replace_attribute(hid_t object, const std::string& name, hid_t type, hid_t space) {
    if (hdf5::check(H5Aexists(object, name.c_str()), "looking up attribute " + name) > 0)
        hdf5::check(H5Adelete(object, name.c_str()), "replacing attribute " + name);
    return hdf5::attribute(hdf5::check(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                                       "creating attribute " + name));
}

void write_string_attribute(hid_t object, const std::string& name, const std::string& value) {
    const hdf5::datatype type = hdf5::utf8_string_type();
    const hdf5::dataspace space(hdf5::check(H5Screate(H5S_SCALAR), "creating a scalar dataspace"));
    const hdf5::attribute attribute = replace_attribute(object, name, type.get(), space.get());
    const char* text = value.c_str();
    hdf5::check(H5Awrite(attribute.get(), type.get(), &text), "writing attribute " + name);
}

void write_string_array_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values) {
    const hdf5::datatype type = hdf5::utf8_string_type();
    const hsize_t size = values.size();
    const hdf5::dataspace space(hdf5::check(H5Screate_simple(1, &size, nullptr), "creating a dataspace"));
    const hdf5::attribute attribute = replace_attribute(object, name, type.get(), space.get());
    std::vector<const char*> texts;
    for (const std::string& value : values) texts.push_back(value.c_str());
    hdf5::check(H5Awrite(attribute.get(), type.get(), texts.data()), "writing attribute " + name);
}

namespace {

// A fixed-length UTF-8 string type of `size` bytes (at least 1: HDF5 has no empty string type),
// padded with NULs.
hdf5::datatype fixed_string_type(std::size_t size) {
    hdf5::datatype type(hdf5::check(H5Tcopy(H5T_C_S1), "copying the string type"));
    hdf5::check(H5Tset_size(type.get(), std::max<std::size_t>(1, size)), "sizing a string type");
    hdf5::check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "padding a string type");
    hdf5::check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "setting the string character set");
    return type;
}

}  // namespace

void write_fixed_string_attribute(hid_t object, const std::string& name, const std::string& value) {
    write_fixed_string_array_attribute(object, name, {value}, true);
}

void write_fixed_string_array_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values,
                                        bool scalar) {
    std::size_t size = 1;
    for (const std::string& value : values) size = std::max(size, value.size());
    const hdf5::datatype type = fixed_string_type(size);
    const hsize_t count = values.size();
    const hdf5::dataspace space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr));
    hdf5::check(space.get(), "creating a dataspace");
    const hdf5::attribute attribute = replace_attribute(object, name, type.get(), space.get());
    std::string packed(size * values.size(), '\0');
    for (std::size_t k = 0; k < values.size(); ++k) packed.replace(k * size, values[k].size(), values[k]);
    hdf5::check(H5Awrite(attribute.get(), type.get(), packed.data()), "writing attribute " + name);
}

// A 32-bit integer attribute: scalar (one value) or 1-D.
void write_int_attribute(hid_t object, const std::string& name, std::span<const int> values, bool scalar) {
    const hsize_t size = values.size();
    const hdf5::dataspace space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &size, nullptr));
    hdf5::check(space.get(), "creating a dataspace");
    const hdf5::attribute attribute = replace_attribute(object, name, H5T_STD_I32LE, space.get());
    hdf5::check(H5Awrite(attribute.get(), H5T_NATIVE_INT, values.data()), "writing attribute " + name);
}

namespace {
void write_scalar_attribute(hid_t object, const std::string& name, hid_t file_type, hid_t memory_type,
                            const void* value) {
    const hdf5::dataspace space(H5Screate(H5S_SCALAR));
    hdf5::check(space.get(), "creating a dataspace");
    const hdf5::attribute attribute = replace_attribute(object, name, file_type, space.get());
    hdf5::check(H5Awrite(attribute.get(), memory_type, value), "writing attribute " + name);
}
}  // namespace

void write_number_attribute(hid_t object, const std::string& name, std::int64_t value) {
    write_scalar_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void write_number_attribute(hid_t object, const std::string& name, std::uint64_t value) {
    write_scalar_attribute(object, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

void write_number_attribute(hid_t object, const std::string& name, double value) {
    write_scalar_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void write_string_attributes(hid_t object, const std::map<std::string, std::string>& attributes) {
    for (const auto& [name, value] : attributes) write_string_attribute(object, name, value);
}

// --- fixed-size datasets -----------------------------------------------------------------------

hdf5::dataset create_fixed_dataset(hid_t parent, const std::string& name, hid_t file_type, hid_t memory_type,
                                   std::span<const hsize_t> shape, const void* data) {
    if (hdf5::check(H5Lexists(parent, name.c_str(), H5P_DEFAULT), "looking up " + name) > 0)
        throw std::invalid_argument("h5md_writer: '" + name + "' was already written");
    const hdf5::dataspace space(shape.empty()
                                    ? H5Screate(H5S_SCALAR)
                                    : H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr));
    hdf5::check(space.get(), "creating the dataspace of " + name);
    hdf5::dataset dataset(hdf5::check(
        H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, dataset_creation().get(), H5P_DEFAULT),
        "creating dataset " + name));
    if (hdf5::check(H5Sget_select_npoints(space.get()), "sizing " + name) > 0)
        hdf5::check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "writing " + name);
    return dataset;
}

// --- file system -------------------------------------------------------------------------------

fs::path directory_of(const fs::path& path) {
    const fs::path parent = path.parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

// fsync(2) on a file or a directory; `what` names it in the error.
void sync_to_disk(const fs::path& path, bool directory) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (directory ? O_DIRECTORY : 0));
    if (fd < 0) throw std::runtime_error("cannot open '" + path.string() + "' to sync it: " + std::strerror(errno));
    const int result = ::fsync(fd);
    const int sync_errno = errno;
    ::close(fd);
    // Some file systems cannot sync a directory (EINVAL); the rename is then as durable as it gets.
    if (result != 0 && !(directory && sync_errno == EINVAL))
        throw std::runtime_error("cannot sync '" + path.string() + "': " + std::strerror(sync_errno));
}

}  // namespace stokesian::io
