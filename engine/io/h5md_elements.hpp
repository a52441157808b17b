#pragma once
// Time-dependent H5MD elements of the writer (h5md_writer.cpp): datasets extensible along the
// time axis, grown one sample at a time, and particles/trajectory/<name>/{step, time, value}.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::io {

// step and time: 1024 samples (8 KiB) per chunk.
inline constexpr hsize_t scalar_chunk_samples = 1024;

// Grows `dataset` by one sample along its first (unlimited) axis and writes `data` there;
// `sample_shape` is the shape of one sample (empty for step and time).
void append_sample(hid_t dataset, hid_t memory_type, hsize_t index, std::span<const hsize_t> sample_shape,
                   const void* data);
// An empty dataset of samples of `sample_shape`, extensible along its first axis, chunked.
hdf5::dataset create_extensible_dataset(hid_t parent, const char* name, hid_t file_type,
                                        std::span<const hsize_t> sample_shape, std::span<const hsize_t> chunk);

// One H5MD time-dependent element, particles/trajectory/<name>/{step, time, value}, value [T, N, 3].
// An element sampled with another (image with position: H5MD 1.1 asks for it) shares its step and
// time: they are hard links to the other's datasets, which only the other grows.
class particle_element {
public:
    // Creates the element in the group `trajectory` (/particles/trajectory) of a new file; `unit`
    // non-null: value's unit attribute (and time's h5md_units::time where the element owns its
    // time); `time_source` non-null: step and time link to its own.
    particle_element(hid_t trajectory, const std::string& name, hid_t file_type, hid_t memory_type,
                     std::size_t element_bytes, std::size_t particles, const char* unit,
                     const particle_element* time_source = nullptr);

    // Step, time and values of sample `index` (h5md_writer::last_frame_digest).
    std::int64_t step_at(hsize_t index) const;
    double time_at(hsize_t index) const;
    std::vector<double> values_at(hsize_t index) const;

    // Appends one sample; with a shared step and time, only the value (the source appends those).
    void append(std::int64_t step, double time, const void* values);

private:
    hid_t memory_type_;
    std::array<hsize_t, 2> sample_shape_;
    hsize_t samples_ = 0;
    bool owns_time_ = true;  // false: step_ and time_ are another element's (hard links)
    hdf5::group group_;
    hdf5::dataset step_, time_, value_;
};

}  // namespace stokesian::io
