// Time-dependent H5MD elements (h5md_elements.hpp).
#include "io/h5md_elements.hpp"

#include <algorithm>
#include <stdexcept>

#include "io/hdf5_writing.hpp"

namespace stokesian::io {

namespace {

// Chunks of the per-particle datasets hold at least 64 KiB (few chunks, little index overhead,
// efficient appends) and at most about 1 MiB (reading one frame does not pull in much more).
constexpr hsize_t min_chunk_bytes = hsize_t{64} * 1024;
constexpr hsize_t max_chunk_bytes = hsize_t{1024} * 1024;

}  // namespace

// --- appending along the time axis -------------------------------------------------------------

// Grows `dataset` by one sample along its first (unlimited) axis and writes `data` there;
// `sample_shape` is the shape of one sample (empty for step and time).
void append_sample(hid_t dataset, hid_t memory_type, hsize_t index, std::span<const hsize_t> sample_shape,
                   const void* data) {
    std::array<hsize_t, 3> extent{index + 1, 0, 0};
    std::array<hsize_t, 3> start{index, 0, 0};
    std::array<hsize_t, 3> count{1, 0, 0};
    std::copy(sample_shape.begin(), sample_shape.end(), extent.begin() + 1);
    std::copy(sample_shape.begin(), sample_shape.end(), count.begin() + 1);
    const int rank = static_cast<int>(1 + sample_shape.size());

    hdf5::check(H5Dset_extent(dataset, extent.data()), "extending a dataset");
    const hdf5::dataspace file_space(hdf5::check(H5Dget_space(dataset), "getting a dataspace"));
    hdf5::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
                "selecting a sample");
    const hdf5::dataspace memory_space(hdf5::check(H5Screate_simple(rank, count.data(), nullptr), "creating a dataspace"));
    hdf5::check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), "writing a sample");
}

namespace {

// Reads sample `index` of a dataset extensible along its first axis into `data` (memory_type).
void read_sample(hid_t dataset, hid_t memory_type, hsize_t index, std::span<const hsize_t> sample_shape, void* data) {
    std::array<hsize_t, 3> start{index, 0, 0};
    std::array<hsize_t, 3> count{1, 0, 0};
    std::copy(sample_shape.begin(), sample_shape.end(), count.begin() + 1);
    const int rank = static_cast<int>(1 + sample_shape.size());
    const hdf5::dataspace file_space(hdf5::check(H5Dget_space(dataset), "getting a dataspace"));
    hdf5::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
                "selecting a sample");
    const hdf5::dataspace memory_space(hdf5::check(H5Screate_simple(rank, count.data(), nullptr), "creating a dataspace"));
    hdf5::check(H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), "reading a sample");
}

}  // namespace

// Opens dataset `name` of a file being resumed and checks it: type class, rank and sample shape,
// extensible along the first axis, and at least `frames` samples. Throws std::runtime_error
// naming `path` otherwise (the caller turns it into one input_error line).
hdf5::dataset open_samples(hid_t group, const char* name, const std::string& path, H5T_class_t type_class,
                           std::span<const hsize_t> sample_shape, hsize_t frames) {
    if (!hdf5::object_exists(group, name)) throw std::runtime_error("no dataset '" + path + "'");
    hdf5::dataset dataset(hdf5::check(H5Dopen2(group, name, H5P_DEFAULT), "opening " + path));
    const hdf5::datatype type(hdf5::check(H5Dget_type(dataset.get()), "reading the type of " + path));
    if (H5Tget_class(type.get()) != type_class)
        throw std::runtime_error("'" + path + "' has the wrong type (expected " +
                                 (type_class == H5T_INTEGER ? "integers" : "floating-point numbers") + ")");
    const hdf5::dataspace space(hdf5::check(H5Dget_space(dataset.get()), "reading the shape of " + path));
    const int rank = hdf5::check(H5Sget_simple_extent_ndims(space.get()), "reading the shape of " + path);
    const std::size_t expected_rank = 1 + sample_shape.size();
    if (rank != static_cast<int>(expected_rank))
        throw std::runtime_error("'" + path + "' has rank " + std::to_string(rank) + ", expected " +
                                 std::to_string(expected_rank));
    std::array<hsize_t, 3> dims{}, max_dims{};
    hdf5::check(H5Sget_simple_extent_dims(space.get(), dims.data(), max_dims.data()), "reading the shape of " + path);
    for (std::size_t k = 0; k < sample_shape.size(); ++k)
        if (dims[k + 1] != sample_shape[k])
            throw std::runtime_error("'" + path + "' holds samples of another shape (" + std::to_string(dims[k + 1]) +
                                     " along axis " + std::to_string(k + 1) + ", expected " +
                                     std::to_string(sample_shape[k]) + ")");
    if (max_dims[0] != H5S_UNLIMITED) throw std::runtime_error("'" + path + "' is not extensible");
    if (dims[0] < frames)
        throw std::runtime_error("'" + path + "' holds " + std::to_string(dims[0]) + " samples, the checkpoint was taken at " +
                                 std::to_string(frames));
    return dataset;
}

// Shrinks a dataset extensible along its first axis to `frames` samples.
void cut_samples(hid_t dataset, hsize_t frames, std::span<const hsize_t> sample_shape) {
    std::array<hsize_t, 3> extent{frames, 0, 0};
    std::copy(sample_shape.begin(), sample_shape.end(), extent.begin() + 1);
    hdf5::check(H5Dset_extent(dataset, extent.data()), "cutting a dataset back to the checkpoint");
}

namespace {

// Chunk shape of a [T, N, 3] dataset: enough frames for min_chunk_bytes, or, when one frame
// is larger than max_chunk_bytes, one frame split along the particles.
std::array<hsize_t, 3> per_particle_chunk(hsize_t particles, std::size_t element_bytes) {
    const hsize_t row_bytes = 3 * element_bytes;
    const hsize_t frame_bytes = particles * row_bytes;
    if (frame_bytes > max_chunk_bytes) return {1, std::max<hsize_t>(1, max_chunk_bytes / row_bytes), 3};
    return {std::max<hsize_t>(1, (min_chunk_bytes + frame_bytes - 1) / frame_bytes), particles, 3};
}

}  // namespace

hdf5::dataset create_extensible_dataset(hid_t parent, const char* name, hid_t file_type,
                                        std::span<const hsize_t> sample_shape, std::span<const hsize_t> chunk) {
    std::vector<hsize_t> dims{0};
    std::vector<hsize_t> max_dims{H5S_UNLIMITED};
    dims.insert(dims.end(), sample_shape.begin(), sample_shape.end());
    max_dims.insert(max_dims.end(), sample_shape.begin(), sample_shape.end());
    const hdf5::dataspace space(
        hdf5::check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.data()), "creating a dataspace"));
    return hdf5::dataset(hdf5::check(
        H5Dcreate2(parent, name, file_type, space.get(), H5P_DEFAULT, dataset_creation(chunk).get(), H5P_DEFAULT),
        std::string("creating dataset ") + name));
}

bool same_object(hid_t a, hid_t b) {
#if H5_VERSION_GE(1, 12, 0)
    H5O_info2_t info_a{}, info_b{};
    hdf5::check(H5Oget_info3(a, &info_a, H5O_INFO_BASIC), "reading object information");
    hdf5::check(H5Oget_info3(b, &info_b, H5O_INFO_BASIC), "reading object information");
    int order = 0;
    hdf5::check(H5Otoken_cmp(a, &info_a.token, &info_b.token, &order), "comparing objects");
    return info_a.fileno == info_b.fileno && order == 0;
#else
    H5O_info_t info_a{}, info_b{};
    hdf5::check(H5Oget_info2(a, &info_a, H5O_INFO_BASIC), "reading object information");
    hdf5::check(H5Oget_info2(b, &info_b, H5O_INFO_BASIC), "reading object information");
    return info_a.fileno == info_b.fileno && info_a.addr == info_b.addr;
#endif
}

particle_element::particle_element(hid_t particles_group, const std::string& name, hid_t file_type, hid_t memory_type,
                                   std::size_t element_bytes, std::size_t particles, const particle_element* time_source)
    : memory_type_(memory_type), sample_shape_{particles, 3}, owns_time_(time_source == nullptr) {
    group_ = hdf5::group(hdf5::check(
        H5Gcreate2(particles_group, name.c_str(), H5P_DEFAULT, group_creation().get(), H5P_DEFAULT),
        "creating group " + name));
    const std::array<hsize_t, 1> scalar_chunk{scalar_chunk_samples};
    const std::array<hsize_t, 3> value_chunk = per_particle_chunk(particles, element_bytes);
    if (owns_time_) {
        step_ = create_extensible_dataset(group_.get(), "step", H5T_STD_I64LE, {}, scalar_chunk);
        time_ = create_extensible_dataset(group_.get(), "time", H5T_IEEE_F64LE, {}, scalar_chunk);
    } else {
        for (const char* link : {"step", "time"})
            hdf5::check(H5Lcreate_hard(time_source->group_.get(), link, group_.get(), link, H5P_DEFAULT, H5P_DEFAULT),
                        "linking " + name + "/" + link);
        step_ = hdf5::dataset(hdf5::check(H5Dopen2(group_.get(), "step", H5P_DEFAULT), "opening " + name + "/step"));
        time_ = hdf5::dataset(hdf5::check(H5Dopen2(group_.get(), "time", H5P_DEFAULT), "opening " + name + "/time"));
    }
    value_ = create_extensible_dataset(group_.get(), "value", file_type, sample_shape_, value_chunk);
}

particle_element::particle_element(hid_t particles_group, const std::string& name, hid_t memory_type,
                                   H5T_class_t type_class, std::size_t particles, hsize_t frames,
                                   const particle_element* time_source)
    : memory_type_(memory_type), sample_shape_{particles, 3}, samples_(frames) {
    const std::string path = "/particles/all/" + name;
    if (!hdf5::object_exists(particles_group, name)) throw std::runtime_error("no group '" + path + "'");
    group_ = hdf5::group(hdf5::check(H5Gopen2(particles_group, name.c_str(), H5P_DEFAULT), "opening " + path));
    step_ = open_samples(group_.get(), "step", path + "/step", H5T_INTEGER, {}, frames);
    time_ = open_samples(group_.get(), "time", path + "/time", H5T_FLOAT, {}, frames);
    value_ = open_samples(group_.get(), "value", path + "/value", type_class, sample_shape_, frames);
    if (time_source != nullptr) {
        const bool shares_step = same_object(step_.get(), time_source->step_.get());
        if (shares_step != same_object(time_.get(), time_source->time_.get()))
            throw std::runtime_error("'" + path + "' shares one of step and time with its source, not both");
        owns_time_ = !shares_step;
    }
}

void particle_element::cut_to(hsize_t frames) {
    cut_samples(value_.get(), frames, sample_shape_);
    if (owns_time_) {
        cut_samples(time_.get(), frames, {});
        cut_samples(step_.get(), frames, {});
    }
    samples_ = frames;
}

std::int64_t particle_element::step_at(hsize_t index) const {
    std::int64_t step = 0;
    read_sample(step_.get(), H5T_NATIVE_INT64, index, {}, &step);
    return step;
}

double particle_element::time_at(hsize_t index) const {
    double time = 0.0;
    read_sample(time_.get(), H5T_NATIVE_DOUBLE, index, {}, &time);
    return time;
}

std::vector<double> particle_element::values_at(hsize_t index) const {
    std::vector<double> values(sample_shape_[0] * 3);
    read_sample(value_.get(), H5T_NATIVE_DOUBLE, index, sample_shape_, values.data());
    return values;
}

void particle_element::append(std::int64_t step, double time, const void* values) {
    append_sample(value_.get(), memory_type_, samples_, sample_shape_, values);
    if (owns_time_) {
        append_sample(time_.get(), H5T_NATIVE_DOUBLE, samples_, {}, &time);
        append_sample(step_.get(), H5T_NATIVE_INT64, samples_, {}, &step);
    }
    ++samples_;
}

}  // namespace stokesian::io
