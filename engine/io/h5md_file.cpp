// Read access to H5MD files (ours, or any H5MD 1.x file with the objects asked for), and to plain
// HDF5 files where the caller does not require /h5md (bench fcc --input).
// The file is user input, so every failure, HDF5's included, is an input_error of one line
// naming the file; HDF5's error stack is never printed.
#include <algorithm>
#include <functional>
#include <stdexcept>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/global_heap_check.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_reading.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

// The value of a string attribute, or nothing when the attribute is not a single string
// (a number, an array of strings such as box/boundary, ...). Fixed-length strings lose
// their padding.
// `before_heap_read` runs before a variable-length string is read (global_heap_check.hpp).
std::optional<std::string> read_single_string(hid_t attribute, const std::function<void()>& before_heap_read) {
    const hdf5::datatype type(hdf5::check(H5Aget_type(attribute), "reading an attribute type"));
    if (H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
    const hdf5::dataspace space(hdf5::check(H5Aget_space(attribute), "reading an attribute shape"));
    if (hdf5::check(H5Sget_simple_extent_npoints(space.get()), "reading an attribute shape") != 1) return std::nullopt;

    if (hdf5::check(H5Tis_variable_str(type.get()), "reading an attribute type") > 0) {
        before_heap_read();
        const hdf5::datatype memory_type(hdf5::check(H5Tcopy(H5T_C_S1), "copying the string type"));
        hdf5::check(H5Tset_size(memory_type.get(), H5T_VARIABLE), "making a variable-length string type");
        hdf5::check(H5Tset_cset(memory_type.get(), H5Tget_cset(type.get())), "setting the character set");
        char* text = nullptr;
        hdf5::check(H5Aread(attribute, memory_type.get(), &text), "reading a string attribute");
        std::string value = text != nullptr ? text : "";
        H5free_memory(text);
        return value;
    }

    const std::size_t size = H5Tget_size(type.get());
    std::string value(size, '\0');
    // The file type is its own memory type: a fixed-length string has no byte order.
    hdf5::check(H5Aread(attribute, type.get(), value.data()), "reading a string attribute");
    value.resize(std::min(value.find('\0'), value.size()));
    if (H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD) value.erase(value.find_last_not_of(' ') + 1);
    return value;
}

// The value of a single-string attribute as it is, of a single number as text (an integer in
// decimal, a float in the shortest form that reads back to the same double: exact_number), or
// nothing for anything else (arrays, compounds, ...).
std::optional<std::string> read_single_text(hid_t attribute, const std::function<void()>& before_heap_read) {
    if (std::optional<std::string> text = read_single_string(attribute, before_heap_read)) return text;
    const hdf5::datatype type(hdf5::check(H5Aget_type(attribute), "reading an attribute type"));
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class != H5T_INTEGER && type_class != H5T_FLOAT) return std::nullopt;
    const hdf5::dataspace space(hdf5::check(H5Aget_space(attribute), "reading an attribute shape"));
    if (hdf5::check(H5Sget_simple_extent_npoints(space.get()), "reading an attribute shape") != 1) return std::nullopt;
    if (type_class == H5T_FLOAT) {
        double value = 0.0;
        hdf5::check(H5Aread(attribute, H5T_NATIVE_DOUBLE, &value), "reading a number attribute");
        return exact_number(value);
    }
    if (H5Tget_sign(type.get()) == H5T_SGN_NONE) {
        std::uint64_t value = 0;
        hdf5::check(H5Aread(attribute, H5T_NATIVE_UINT64, &value), "reading a number attribute");
        return std::to_string(value);
    }
    std::int64_t value = 0;
    hdf5::check(H5Aread(attribute, H5T_NATIVE_INT64, &value), "reading a number attribute");
    return std::to_string(value);
}

}  // namespace

struct h5md_file::impl {
    fs::path path;
    hdf5::file file;
    bool global_heap_checked = false;

    // Once per file, before HDF5 first parses its global heap: a damaged collection would make
    // HDF5 1.10 loop forever (global_heap_check.hpp).
    void check_global_heap() {
        if (global_heap_checked) return;
        if (const auto problem = damaged_global_heap(path)) fail(*problem + " (damaged file)");
        global_heap_checked = true;
    }

    // The single-valued attributes of `object_path` that `read` reads (nothing: left out), by name.
    using attribute_reader = std::optional<std::string> (*)(hid_t, const std::function<void()>&);
    std::map<std::string, std::string> single_attributes(const std::string& object_path, attribute_reader read) {
        const hdf5::error_silencer quiet;
        const hdf5::object object = open_object(object_path, H5I_BADID, "object");
        std::vector<std::string> names;
        auto collect = [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
            static_cast<std::vector<std::string>*>(out)->emplace_back(name);
            return 0;
        };
        check(H5Aiterate2(object.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
              "cannot list the attributes of '" + object_path + "'");
        std::map<std::string, std::string> values;
        for (const std::string& name : names) {
            const hdf5::attribute attribute(
                check(H5Aopen(object.get(), name.c_str(), H5P_DEFAULT), "cannot open attribute '" + name + "'"));
            try {
                if (std::optional<std::string> value = read(attribute.get(), [this] { check_global_heap(); }))
                    values.emplace(name, *value);
            } catch (const input_error&) {
                throw;  // already names the file
            } catch (const std::runtime_error& e) {
                fail(std::string(e.what()) + " ('" + object_path + "' attribute '" + name + "')");
            }
        }
        return values;
    }

    [[noreturn]] void fail(const std::string& expected) const { throw input_error(path.string(), "", "", expected); }

    // hdf5::check for the reader: a failure means a damaged file, i.e. bad input.
    template <class T>
    T check(T result, const std::string& what) const {
        if (result < 0) {
            const std::string reason = hdf5::last_error();
            fail(what + (reason.empty() ? "" : " (" + reason + ")"));
        }
        return result;
    }

    // The type of the object at `object_path`; H5I_BADID when there is none or it cannot be opened.
    H5I_type_t object_type(const std::string& object_path) const {
        const hdf5::error_silencer quiet;
        if (!hdf5::object_exists(file.get(), object_path)) return H5I_BADID;
        const hid_t id = H5Oopen(file.get(), object_path.c_str(), H5P_DEFAULT);
        if (id < 0) {
            hdf5::last_error();  // clear the stack
            return H5I_BADID;
        }
        const hdf5::object object(id);
        return H5Iget_type(object.get());
    }

    hdf5::object open_object(const std::string& object_path, H5I_type_t expected, const char* kind) const {
        if (!hdf5::object_exists(file.get(), object_path)) fail(std::string("no ") + kind + " '" + object_path + "'");
        hdf5::object object(
            check(H5Oopen(file.get(), object_path.c_str(), H5P_DEFAULT), "cannot open '" + object_path + "'"));
        if (expected != H5I_BADID && H5Iget_type(object.get()) != expected)
            fail("'" + object_path + "' is not a " + kind);
        return object;
    }

    // Any integer or floating-point dataset, converted by HDF5 to `memory_type`, flattened.
    template <class T>
    std::vector<T> read_numbers(const std::string& dataset_path, hid_t memory_type) const {
        const hdf5::object dataset = open_object(dataset_path, H5I_DATASET, "dataset");
        const hdf5::datatype type(check(H5Dget_type(dataset.get()), "cannot read the type of '" + dataset_path + "'"));
        const H5T_class_t type_class = H5Tget_class(type.get());
        if (type_class != H5T_INTEGER && type_class != H5T_FLOAT) fail("dataset '" + dataset_path + "' is not numeric");
        const hdf5::dataspace space(
            check(H5Dget_space(dataset.get()), "cannot read the shape of '" + dataset_path + "'"));
        const hssize_t count =
            check(H5Sget_simple_extent_npoints(space.get()), "cannot read the shape of '" + dataset_path + "'");
        if (const auto problem = hdf5::unreadable_size(dataset.get(), static_cast<std::uint64_t>(count)))
            fail("dataset '" + dataset_path + "' " + *problem);
        std::vector<T> values(static_cast<std::size_t>(count));
        if (count > 0)
            check(H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "cannot read '" + dataset_path + "'");
        return values;
    }
};

h5md_file::h5md_file(const std::filesystem::path& path, h5md_group group) : impl_(std::make_unique<impl>()) {
    const hdf5::error_silencer quiet;
    impl_->path = path;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (!fs::exists(status)) impl_->fail("file not found");
    if (!fs::is_regular_file(status)) impl_->fail("not a regular file");
    if (H5Fis_hdf5(path.c_str()) <= 0) {
        hdf5::last_error();  // clear the stack H5Fis_hdf5 may have left
        impl_->fail("not a readable HDF5 file");
    }
    impl_->file = hdf5::file(impl_->check(hdf5::open_for_reading(path), "damaged or truncated HDF5 file"));
    if (group == h5md_group::required && !hdf5::object_exists(impl_->file.get(), "/h5md"))
        impl_->fail("not an H5MD file (no /h5md group)");
}

h5md_file::~h5md_file() = default;

bool h5md_file::exists(const std::string& object_path) const {
    const hdf5::error_silencer quiet;
    return hdf5::object_exists(impl_->file.get(), object_path);
}

bool h5md_file::is_group(const std::string& object_path) const { return impl_->object_type(object_path) == H5I_GROUP; }

bool h5md_file::is_dataset(const std::string& object_path) const {
    return impl_->object_type(object_path) == H5I_DATASET;
}

std::vector<std::string> h5md_file::list(const std::string& group_path) const {
    const hdf5::error_silencer quiet;
    const hdf5::object group = impl_->open_object(group_path, H5I_GROUP, "group");
    std::vector<std::string> names;
    auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
    };
    impl_->check(H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
                 "cannot list group '" + group_path + "'");
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<double> h5md_file::read_doubles(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    return impl_->read_numbers<double>(dataset_path, H5T_NATIVE_DOUBLE);
}

std::vector<std::int64_t> h5md_file::read_integers(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    return impl_->read_numbers<std::int64_t>(dataset_path, H5T_NATIVE_INT64);
}

std::vector<std::size_t> h5md_file::shape(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    const hdf5::object dataset = impl_->open_object(dataset_path, H5I_DATASET, "dataset");
    const hdf5::dataspace space(
        impl_->check(H5Dget_space(dataset.get()), "cannot read the shape of '" + dataset_path + "'"));
    const int rank =
        impl_->check(H5Sget_simple_extent_ndims(space.get()), "cannot read the shape of '" + dataset_path + "'");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    impl_->check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr),
                 "cannot read the shape of '" + dataset_path + "'");
    return {dims.begin(), dims.end()};
}

std::vector<double> h5md_file::read_doubles_row(const std::string& dataset_path, std::size_t index) const {
    const hdf5::error_silencer quiet;
    const hdf5::object dataset = impl_->open_object(dataset_path, H5I_DATASET, "dataset");
    const hdf5::datatype type(
        impl_->check(H5Dget_type(dataset.get()), "cannot read the type of '" + dataset_path + "'"));
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class != H5T_INTEGER && type_class != H5T_FLOAT)
        impl_->fail("dataset '" + dataset_path + "' is not numeric");
    const std::string shape_problem = "cannot read the shape of '" + dataset_path + "'";
    const hdf5::dataspace space(impl_->check(H5Dget_space(dataset.get()), shape_problem));
    const int rank = impl_->check(H5Sget_simple_extent_ndims(space.get()), shape_problem);
    if (rank < 1) impl_->fail("dataset '" + dataset_path + "' has no rows (a scalar)");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    impl_->check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), shape_problem);
    if (index >= dims[0])
        impl_->fail("dataset '" + dataset_path + "' has " + std::to_string(dims[0]) + " rows, no row " +
                    std::to_string(index));
    const hssize_t count = impl_->check(H5Sget_simple_extent_npoints(space.get()), shape_problem);
    // The whole dataset's claim against its storage: a damaged header is refused before any read.
    if (const auto problem = hdf5::unreadable_size(dataset.get(), static_cast<std::uint64_t>(count)))
        impl_->fail("dataset '" + dataset_path + "' " + *problem);
    std::vector<hsize_t> start(dims.size(), 0), rows(dims);
    start[0] = index;
    rows[0] = 1;
    std::size_t row_elements = 1;
    for (std::size_t k = 1; k < dims.size(); ++k) row_elements *= static_cast<std::size_t>(dims[k]);
    std::vector<double> values(row_elements);
    if (row_elements == 0) return values;
    impl_->check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, rows.data(), nullptr),
                 "cannot select row " + std::to_string(index) + " of '" + dataset_path + "'");
    const hsize_t flat = row_elements;
    const hdf5::dataspace memory(impl_->check(H5Screate_simple(1, &flat, nullptr), "cannot make a row's shape"));
    impl_->check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, values.data()),
                 "cannot read row " + std::to_string(index) + " of '" + dataset_path + "'");
    return values;
}

std::optional<std::vector<std::string>> h5md_file::string_array_attribute(const std::string& object_path,
                                                                          const std::string& name) const {
    const hdf5::error_silencer quiet;
    const hdf5::object object = impl_->open_object(object_path, H5I_BADID, "object");
    if (impl_->check(H5Aexists(object.get(), name.c_str()), "cannot look up attribute '" + name + "'") <= 0)
        return std::nullopt;
    const hdf5::attribute attribute(
        impl_->check(H5Aopen(object.get(), name.c_str(), H5P_DEFAULT), "cannot open attribute '" + name + "'"));
    const std::string what = "attribute '" + name + "' of '" + object_path + "'";
    const hdf5::datatype type(impl_->check(H5Aget_type(attribute.get()), "cannot read the type of " + what));
    if (H5Tget_class(type.get()) != H5T_STRING) impl_->fail(what + " is not made of strings");
    const hdf5::dataspace space(impl_->check(H5Aget_space(attribute.get()), "cannot read the shape of " + what));
    const auto count = static_cast<std::size_t>(
        impl_->check(H5Sget_simple_extent_npoints(space.get()), "cannot read the shape of " + what));
    std::vector<std::string> values;
    if (impl_->check(H5Tis_variable_str(type.get()), "cannot read the type of " + what) > 0) {
        impl_->check_global_heap();
        const hdf5::datatype memory_type(impl_->check(H5Tcopy(H5T_C_S1), "cannot copy the string type"));
        impl_->check(H5Tset_size(memory_type.get(), H5T_VARIABLE), "cannot make a string type");
        impl_->check(H5Tset_cset(memory_type.get(), H5Tget_cset(type.get())), "cannot set the character set");
        std::vector<char*> texts(count, nullptr);
        impl_->check(H5Aread(attribute.get(), memory_type.get(), texts.data()), "cannot read " + what);
        for (char* text : texts) {
            values.emplace_back(text != nullptr ? text : "");
            H5free_memory(text);
        }
        return values;
    }
    const std::size_t size = H5Tget_size(type.get());
    std::string packed(size * count, '\0');
    // The file type is its own memory type: a fixed-length string has no byte order.
    impl_->check(H5Aread(attribute.get(), type.get(), packed.data()), "cannot read " + what);
    for (std::size_t k = 0; k < count; ++k) {
        std::string value = packed.substr(k * size, size);
        value.resize(std::min(value.find('\0'), value.size()));
        if (H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD) value.erase(value.find_last_not_of(' ') + 1);
        values.push_back(std::move(value));
    }
    return values;
}

std::optional<std::string> h5md_file::string_attribute(const std::string& object_path, const std::string& name) const {
    const hdf5::error_silencer quiet;
    const hdf5::object object = impl_->open_object(object_path, H5I_BADID, "object");
    if (impl_->check(H5Aexists(object.get(), name.c_str()), "cannot look up attribute '" + name + "'") <= 0)
        return std::nullopt;
    const hdf5::attribute attribute(
        impl_->check(H5Aopen(object.get(), name.c_str(), H5P_DEFAULT), "cannot open attribute '" + name + "'"));
    std::optional<std::string> value;
    try {
        value = read_single_string(attribute.get(), [this] { impl_->check_global_heap(); });
    } catch (const input_error&) {
        throw;  // already names the file
    } catch (const std::runtime_error& e) {
        impl_->fail(std::string(e.what()) + " ('" + object_path + "' attribute '" + name + "')");
    }
    if (!value) impl_->fail("attribute '" + name + "' of '" + object_path + "' is not a string");
    return value;
}

std::map<std::string, std::string> h5md_file::string_attributes(const std::string& object_path) const {
    return impl_->single_attributes(object_path, read_single_string);
}

std::map<std::string, std::string> h5md_file::parameter_attributes(const std::string& object_path) const {
    return impl_->single_attributes(object_path, read_single_text);
}

std::optional<std::string> h5md_file::parameter_attribute(const std::string& object_path,
                                                          const std::string& name) const {
    const std::map<std::string, std::string> values = parameter_attributes(object_path);
    const auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
}

}  // namespace stokesian::io
