// Time-dependent H5MD elements (h5md_elements.hpp).
#include "h5md_elements.hpp"

#include <algorithm>
#include <stdexcept>

#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_writing.hpp"

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
    const hdf5::dataspace memory_space(
        hdf5::check(H5Screate_simple(rank, count.data(), nullptr), "creating a dataspace"));
    hdf5::check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
                "writing a sample");
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
    const hdf5::dataspace memory_space(
        hdf5::check(H5Screate_simple(rank, count.data(), nullptr), "creating a dataspace"));
    hdf5::check(H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
                "reading a sample");
}

}  // namespace

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
    const hdf5::dataspace space(hdf5::check(
        H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.data()), "creating a dataspace"));
    return hdf5::dataset(hdf5::check(
        H5Dcreate2(parent, name, file_type, space.get(), H5P_DEFAULT, dataset_creation(chunk).get(), H5P_DEFAULT),
        std::string("creating dataset ") + name));
}

particle_element::particle_element(hid_t trajectory, const std::string& name, hid_t file_type, hid_t memory_type,
                                   std::size_t element_bytes, std::size_t particles, const char* unit,
                                   const particle_element* time_source)
    : memory_type_(memory_type), sample_shape_{particles, 3}, owns_time_(time_source == nullptr) {
    group_ =
        hdf5::group(hdf5::check(H5Gcreate2(trajectory, name.c_str(), H5P_DEFAULT, group_creation().get(), H5P_DEFAULT),
                                "creating group " + name));
    const std::array<hsize_t, 1> scalar_chunk{scalar_chunk_samples};
    const std::array<hsize_t, 3> value_chunk = per_particle_chunk(particles, element_bytes);
    if (owns_time_) {
        step_ = create_extensible_dataset(group_.get(), "step", H5T_STD_I64LE, {}, scalar_chunk);
        time_ = create_extensible_dataset(group_.get(), "time", H5T_IEEE_F64LE, {}, scalar_chunk);
        write_string_attribute(time_.get(), "unit", h5md_units::time);
    } else {
        for (const char* link : {"step", "time"})
            hdf5::check(H5Lcreate_hard(time_source->group_.get(), link, group_.get(), link, H5P_DEFAULT, H5P_DEFAULT),
                        "linking " + name + "/" + link);
        step_ = hdf5::dataset(hdf5::check(H5Dopen2(group_.get(), "step", H5P_DEFAULT), "opening " + name + "/step"));
        time_ = hdf5::dataset(hdf5::check(H5Dopen2(group_.get(), "time", H5P_DEFAULT), "opening " + name + "/time"));
    }
    value_ = create_extensible_dataset(group_.get(), "value", file_type, sample_shape_, value_chunk);
    if (unit) write_string_attribute(value_.get(), "unit", unit);
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
