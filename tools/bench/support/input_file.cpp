#include "input_file.hpp"

#include "stokesian/core/errors.hpp"
#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::bench {

namespace hdf5 = io::hdf5;

struct input_file::impl {
    std::string name;
    hdf5::file file;

    [[noreturn]] void fail(const std::string& what) const { throw input_error(name, "", "", what); }

    template <class T>
    T check(T result, const std::string& what) const {
        if (result < 0) {
            const std::string reason = hdf5::last_error();
            fail(what + (reason.empty() ? "" : " (" + reason + ")"));
        }
        return result;
    }

    hdf5::dataset open(const std::string& path) const {
        if (!hdf5::object_exists(file.get(), path)) fail("no dataset '" + path + "'");
        return hdf5::dataset(check(H5Dopen2(file.get(), path.c_str(), H5P_DEFAULT), "'" + path + "' is not a dataset"));
    }
};

input_file::input_file(const std::filesystem::path& path) : impl_(std::make_unique<impl>()) {
    const hdf5::error_silencer quiet;
    impl_->name = path.string();
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) impl_->fail("file not found");
    if (H5Fis_hdf5(path.c_str()) <= 0) {
        hdf5::last_error();
        impl_->fail("not a readable HDF5 file");
    }
    impl_->file = hdf5::file(impl_->check(hdf5::open_for_reading(path), "damaged HDF5 file"));
}

input_file::~input_file() = default;

const std::string& input_file::name() const { return impl_->name; }

bool input_file::has_dataset(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    if (!hdf5::object_exists(impl_->file.get(), dataset_path)) return false;
    const hdf5::object object(H5Oopen(impl_->file.get(), dataset_path.c_str(), H5P_DEFAULT));
    if (!object) {
        hdf5::last_error();
        return false;
    }
    return H5Iget_type(object.get()) == H5I_DATASET;
}

std::vector<std::size_t> input_file::shape(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    const hdf5::dataset set = impl_->open(dataset_path);
    const hdf5::dataspace space(
        impl_->check(H5Dget_space(set.get()), "cannot read the shape of '" + dataset_path + "'"));
    const int rank =
        impl_->check(H5Sget_simple_extent_ndims(space.get()), "cannot read the shape of '" + dataset_path + "'");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    impl_->check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr),
                 "cannot read the shape of '" + dataset_path + "'");
    return {dims.begin(), dims.end()};
}

std::vector<double> input_file::read_doubles(const std::string& dataset_path) const {
    const hdf5::error_silencer quiet;
    const hdf5::dataset set = impl_->open(dataset_path);
    const hdf5::datatype type(impl_->check(H5Dget_type(set.get()), "cannot read the type of '" + dataset_path + "'"));
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class != H5T_INTEGER && type_class != H5T_FLOAT)
        impl_->fail("dataset '" + dataset_path + "' is not numeric");
    const hdf5::dataspace space(
        impl_->check(H5Dget_space(set.get()), "cannot read the shape of '" + dataset_path + "'"));
    const hssize_t count =
        impl_->check(H5Sget_simple_extent_npoints(space.get()), "cannot read the shape of '" + dataset_path + "'");
    std::vector<double> values(static_cast<std::size_t>(count));
    if (count > 0)
        impl_->check(H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                     "cannot read '" + dataset_path + "'");
    return values;
}

std::optional<std::string> input_file::root_attribute(const std::string& name) const {
    const hdf5::error_silencer quiet;
    if (H5Aexists(impl_->file.get(), name.c_str()) <= 0) {
        hdf5::last_error();
        return std::nullopt;
    }
    const hdf5::attribute attribute(
        impl_->check(H5Aopen(impl_->file.get(), name.c_str(), H5P_DEFAULT), "cannot open attribute " + name));
    const hdf5::datatype type(impl_->check(H5Aget_type(attribute.get()), "cannot read attribute " + name));
    if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0) return std::nullopt;
    const hdf5::datatype memory_type = hdf5::utf8_string_type();
    char* text = nullptr;
    impl_->check(H5Aread(attribute.get(), memory_type.get(), &text), "cannot read attribute " + name);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
}

}  // namespace stokesian::bench
