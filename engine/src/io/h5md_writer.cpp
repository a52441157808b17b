// The H5MD 1.1 writer (layout in stokesian/io/h5md.hpp).
//
// Reproducibility: every group and dataset is created with object time tracking switched off,
// so two identical runs produce byte-identical files (HDF5 would otherwise stamp each object
// header with its creation and modification times).
//
// Crash safety: everything is written to "<path>.partial", which finish() closes, fsyncs and
// renames onto <path>; a run that dies leaves only the .partial file behind.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "io/global_heap_check.hpp"
#include "io/hdf5_handles.hpp"
#include "io/hdf5_writing.hpp"
#include "io/path_limits.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

// A frame's vectors go to HDF5 as they are: N contiguous records of 3 numbers.
static_assert(std::is_standard_layout_v<vec3<double>> && sizeof(vec3<double>) == 3 * sizeof(double));
static_assert(std::is_standard_layout_v<vec3<int>> && sizeof(vec3<int>) == 3 * sizeof(int));

namespace {

// Chunks of the per-particle datasets hold at least 64 KiB (few chunks, little index overhead,
// efficient appends) and at most about 1 MiB (reading one frame does not pull in much more).
constexpr hsize_t min_chunk_bytes = hsize_t{64} * 1024;
constexpr hsize_t max_chunk_bytes = hsize_t{1024} * 1024;
// step and time: 1024 samples (8 KiB) per chunk.
constexpr hsize_t scalar_chunk_samples = 1024;

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

// Chunk shape of a [T, N, 3] dataset: enough frames for min_chunk_bytes, or, when one frame
// is larger than max_chunk_bytes, one frame split along the particles.
std::array<hsize_t, 3> per_particle_chunk(hsize_t particles, std::size_t element_bytes) {
    const hsize_t row_bytes = 3 * element_bytes;
    const hsize_t frame_bytes = particles * row_bytes;
    if (frame_bytes > max_chunk_bytes) return {1, std::max<hsize_t>(1, max_chunk_bytes / row_bytes), 3};
    return {std::max<hsize_t>(1, (min_chunk_bytes + frame_bytes - 1) / frame_bytes), particles, 3};
}

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

// One H5MD time-dependent element, particles/all/<name>/{step, time, value}, value [T, N, 3].
class particle_element {
public:
    particle_element(hid_t particles_group, const std::string& name, hid_t file_type, hid_t memory_type,
                     std::size_t element_bytes, std::size_t particles)
        : memory_type_(memory_type), sample_shape_{particles, 3} {
        group_ = hdf5::group(hdf5::check(
            H5Gcreate2(particles_group, name.c_str(), H5P_DEFAULT, group_creation().get(), H5P_DEFAULT),
            "creating group " + name));
        const std::array<hsize_t, 1> scalar_chunk{scalar_chunk_samples};
        const std::array<hsize_t, 3> value_chunk = per_particle_chunk(particles, element_bytes);
        step_ = create_extensible_dataset(group_.get(), "step", H5T_STD_I64LE, {}, scalar_chunk);
        time_ = create_extensible_dataset(group_.get(), "time", H5T_IEEE_F64LE, {}, scalar_chunk);
        value_ = create_extensible_dataset(group_.get(), "value", file_type, sample_shape_, value_chunk);
    }

    // Opens the element of a file being resumed after checking its shape (at least `frames`
    // samples of [N, 3], of the expected type class); cut_to() then discards what follows them.
    particle_element(hid_t particles_group, const std::string& name, hid_t memory_type, H5T_class_t type_class,
                     std::size_t particles, hsize_t frames)
        : memory_type_(memory_type), sample_shape_{particles, 3}, samples_(frames) {
        const std::string path = "/particles/all/" + name;
        if (!hdf5::object_exists(particles_group, name)) throw std::runtime_error("no group '" + path + "'");
        group_ = hdf5::group(hdf5::check(H5Gopen2(particles_group, name.c_str(), H5P_DEFAULT), "opening " + path));
        step_ = open_samples(group_.get(), "step", path + "/step", H5T_INTEGER, {}, frames);
        time_ = open_samples(group_.get(), "time", path + "/time", H5T_FLOAT, {}, frames);
        value_ = open_samples(group_.get(), "value", path + "/value", type_class, sample_shape_, frames);
    }

    void cut_to(hsize_t frames) {
        cut_samples(value_.get(), frames, sample_shape_);
        cut_samples(time_.get(), frames, {});
        cut_samples(step_.get(), frames, {});
        samples_ = frames;
    }

    // Step, time and values of sample `index` (for the check that a resumed file is the one the
    // checkpoint was written with).
    std::int64_t step_at(hsize_t index) const {
        std::int64_t step = 0;
        read_sample(step_.get(), H5T_NATIVE_INT64, index, {}, &step);
        return step;
    }
    double time_at(hsize_t index) const {
        double time = 0.0;
        read_sample(time_.get(), H5T_NATIVE_DOUBLE, index, {}, &time);
        return time;
    }
    std::vector<double> values_at(hsize_t index) const {
        std::vector<double> values(sample_shape_[0] * 3);
        read_sample(value_.get(), H5T_NATIVE_DOUBLE, index, sample_shape_, values.data());
        return values;
    }

    void append(std::int64_t step, double time, const void* values) {
        append_sample(value_.get(), memory_type_, samples_, sample_shape_, values);
        append_sample(time_.get(), H5T_NATIVE_DOUBLE, samples_, {}, &time);
        append_sample(step_.get(), H5T_NATIVE_INT64, samples_, {}, &step);
        ++samples_;
    }

private:
    hid_t memory_type_;
    std::array<hsize_t, 2> sample_shape_;
    hsize_t samples_ = 0;
    hdf5::group group_;
    hdf5::dataset step_, time_, value_;
};

// Everything a user can get wrong about the output path, checked before anything is created.
void check_output_path(const fs::path& path, const fs::path& partial, bool force) {
    check_path_lengths(path, ".checkpoint.tmp");
    const std::string name = path.string();
    std::error_code error;
    check_output_target(path, force);

    // A stale .partial is the remains of an interrupted run: it may go (a live run's is protected
    // by its lock, which run_scenario holds before it gets here: core/run_output_claim.hpp).
    fs::remove(partial, error);
    if (error) {
        // On a read-only file system unlink fails even where there is nothing to remove.
        std::error_code ignored;
        const bool stale = fs::exists(fs::symlink_status(partial, ignored));
        throw input_error(name, "", "", (stale ? "cannot remove stale '" : "cannot create '") + partial.string() + "': " +
                                            error.message());
    }
    // Probing with open(2) gives the real reason (permissions, read-only file system, ...),
    // which HDF5 would bury in its error stack.
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw input_error(name, "", "", "cannot create '" + partial.string() + "': " + std::strerror(errno));
    ::close(fd);
    ::unlink(partial.c_str());
}

std::string default_author() {
    const char* user = std::getenv("USER");
    return user != nullptr && *user != '\0' ? user : "unknown";
}

}  // namespace

struct h5md_writer::impl {
    fs::path final_path;
    fs::path partial_path;
    bool force = false;
    std::size_t particles = 0;
    bool periodic = false;
    bool finished = false;
    // Declared before the elements so that it is closed after them.
    hdf5::file file;
    std::optional<particle_element> position, image, velocity, force_element;
    hdf5::dataset edges_value;
    vec3<double> edges{};
    hsize_t frames = 0;

    void require_open(const char* operation) const {
        if (finished) throw std::logic_error(std::string("h5md_writer::") + operation + " after finish()");
    }

    void close_objects() noexcept {
        edges_value = hdf5::dataset();
        position.reset();
        image.reset();
        velocity.reset();
        force_element.reset();
    }

    // The elements of a partial output written by the run a checkpoint belongs to: shapes checked,
    // the last checkpointed frame compared with the checkpoint's digest, everything after it
    // discarded, and the end-of-run groups (written when an interrupted run closed its file)
    // removed, so the resumed run writes them afresh.
    void reopen(const h5md_options& options, const box_description& box, const resume_point& resume) {
        const hsize_t kept = resume.frames;
        if (!hdf5::object_exists(file.get(), "/h5md")) throw std::runtime_error("not an H5MD file (no /h5md group)");
        if (!hdf5::object_exists(file.get(), "/particles/all"))
            throw std::runtime_error("no group '/particles/all'");
        const hdf5::group all(hdf5::check(H5Gopen2(file.get(), "/particles/all", H5P_DEFAULT), "opening /particles/all"));
        position.emplace(all.get(), "position", H5T_NATIVE_DOUBLE, H5T_FLOAT, particles, kept);
        const std::array<hsize_t, 1> edge_shape{3};
        if (!hdf5::object_exists(all.get(), "box/edges")) throw std::runtime_error("no group '/particles/all/box/edges'");
        const hdf5::group edges_group(hdf5::check(H5Gopen2(all.get(), "box/edges", H5P_DEFAULT), "opening box/edges"));
        edges_value = open_samples(edges_group.get(), "value", "/particles/all/box/edges/value", H5T_FLOAT, edge_shape, kept);
        if (box.periodic && options.write_image)
            image.emplace(all.get(), "image", H5T_NATIVE_INT, H5T_INTEGER, particles, kept);
        if (options.write_velocity)
            velocity.emplace(all.get(), "velocity", H5T_NATIVE_DOUBLE, H5T_FLOAT, particles, kept);
        if (options.write_force)
            force_element.emplace(all.get(), "force", H5T_NATIVE_DOUBLE, H5T_FLOAT, particles, kept);

        if (kept > 0) {
            const std::string found =
                trajectory_digest(position->step_at(kept - 1), position->time_at(kept - 1), position->values_at(kept - 1));
            if (found != resume.last_frame_digest)
                throw std::runtime_error("frame " + std::to_string(kept - 1) +
                                         " differs from the one the checkpoint recorded (another run's output?)");
        }
        position->cut_to(kept);
        cut_samples(edges_value.get(), kept, edge_shape);
        if (image) image->cut_to(kept);
        if (velocity) velocity->cut_to(kept);
        if (force_element) force_element->cut_to(kept);
        frames = kept;
        for (const char* group : {"/observables", "/analysis", "/parameters"})
            if (hdf5::object_exists(file.get(), group))
                hdf5::check(H5Ldelete(file.get(), group, H5P_DEFAULT), std::string("removing ") + group);
    }

    void write_header(const h5md_options& options, const box_description& box) {
        const hid_t root = file.get();
        {
            const hdf5::group h5md = require_group(root, "/h5md");
            const std::array<int, 2> version{1, 1};
            write_int_attribute(h5md.get(), "version", version, false);
            const hdf5::group author = require_group(root, "/h5md/author");
            write_string_attribute(author.get(), "name", options.author.empty() ? default_author() : options.author);
            const hdf5::group creator = require_group(root, "/h5md/creator");
            write_string_attribute(creator.get(), "name", "stokesian");
            write_string_attribute(creator.get(), "version", git_describe());
        }
        const hdf5::group all = require_group(root, "/particles/all");
        {
            const hdf5::group box_group = require_group(all.get(), "box");
            const std::array<int, 1> dimension{3};
            write_int_attribute(box_group.get(), "dimension", dimension, true);
            const std::string boundary = box.periodic ? "periodic" : "none";
            write_string_array_attribute(box_group.get(), "boundary", {boundary, boundary, boundary});
        }
        position.emplace(all.get(), "position", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles);
        {
            // box/edges as a time-dependent element sharing position's step and time (hard links):
            // MDAnalysis reads edges/value[frame]; H5MD allows either form.
            const hdf5::group edges_group(hdf5::check(
                H5Gcreate2(all.get(), "box/edges", H5P_DEFAULT, group_creation().get(), H5P_DEFAULT), "creating box/edges"));
            hdf5::check(H5Lcreate_hard(all.get(), "position/step", edges_group.get(), "step", H5P_DEFAULT, H5P_DEFAULT),
                        "linking box/edges/step");
            hdf5::check(H5Lcreate_hard(all.get(), "position/time", edges_group.get(), "time", H5P_DEFAULT, H5P_DEFAULT),
                        "linking box/edges/time");
            const std::array<hsize_t, 1> sample{3};
            const std::array<hsize_t, 2> chunk{scalar_chunk_samples, 3};
            edges_value = create_extensible_dataset(edges_group.get(), "value", H5T_IEEE_F64LE, sample, chunk);
            edges = box.edges;
        }
        if (box.periodic && options.write_image)
            image.emplace(all.get(), "image", H5T_STD_I32LE, H5T_NATIVE_INT, sizeof(std::int32_t), particles);
        if (options.write_velocity)
            velocity.emplace(all.get(), "velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles);
        if (options.write_force)
            force_element.emplace(all.get(), "force", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles);
    }
};

h5md_writer::h5md_writer(const h5md_options& options, std::size_t particles, const box_description& box)
    : impl_(std::make_unique<impl>()) {
    const hdf5::error_silencer quiet;
    if (particles == 0) throw std::invalid_argument("h5md_writer: a trajectory needs at least one particle");
    impl_->final_path = options.path;
    impl_->partial_path = fs::path(options.path) += ".partial";
    impl_->force = options.force;
    impl_->particles = particles;
    impl_->periodic = box.periodic;
    check_output_path(impl_->final_path, impl_->partial_path, options.force);

    try {
        hdf5::property_list fcpl(hdf5::check(H5Pcreate(H5P_FILE_CREATE), "creating a file property list"));
        // The root group is created with the file: no time stamps on it either.
        hdf5::check(H5Pset_obj_track_times(fcpl.get(), 0), "switching off root group time stamps");
        hdf5::property_list fapl(hdf5::check(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list"));
        // H5Fclose then fails if anything is still open: finish() relies on it to prove that all
        // objects were closed and written before the rename.
        hdf5::check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), "setting the close degree");
        impl_->file = hdf5::file(hdf5::check(
            H5Fcreate(impl_->partial_path.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get()),
            "creating " + impl_->partial_path.string()));
        impl_->write_header(options, box);
    } catch (...) {
        // Not a usable output: take the half-made file away again.
        impl_->close_objects();
        impl_->file.reset();
        std::error_code ignored;
        fs::remove(impl_->partial_path, ignored);
        throw;
    }
}

h5md_writer::h5md_writer(const h5md_options& options, std::size_t particles, const box_description& box,
                         const resume_point& resume)
    : impl_(std::make_unique<impl>()) {
    const hdf5::error_silencer quiet;
    if (particles == 0) throw std::invalid_argument("h5md_writer: a trajectory needs at least one particle");
    impl_->final_path = options.path;
    impl_->partial_path = fs::path(options.path) += ".partial";
    impl_->force = options.force;
    impl_->particles = particles;
    impl_->periodic = box.periodic;
    impl_->edges = box.edges;
    const std::string name = impl_->partial_path.string();
    std::error_code error;
    if (!fs::is_regular_file(impl_->partial_path, error))
        throw input_error(name, "", "", "cannot resume: the partial output of the interrupted run is missing");
    if (H5Fis_hdf5(impl_->partial_path.c_str()) <= 0) {
        hdf5::last_error();
        throw input_error(name, "", "", "cannot resume: not a readable HDF5 file (damaged partial output)");
    }
    // Removing the end-of-run groups frees their strings in the global heap, which HDF5 1.10
    // cannot parse when damaged without looping forever (global_heap_check.hpp).
    if (const auto problem = damaged_global_heap(impl_->partial_path))
        throw input_error(name, "", "", "cannot resume: " + *problem + " (damaged partial output)");
    try {
        hdf5::property_list fapl(hdf5::check(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list"));
        hdf5::check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), "setting the close degree");
        impl_->file = hdf5::file(hdf5::check(H5Fopen(impl_->partial_path.c_str(), H5F_ACC_RDWR, fapl.get()),
                                             "opening the partial output"));
        impl_->reopen(options, box, resume);
    } catch (const input_error&) {
        impl_->close_objects();
        impl_->file.reset();
        throw;
    } catch (const std::exception& e) {
        impl_->close_objects();
        impl_->file.reset();
        throw input_error(name, "", "", std::string("cannot resume: ") + e.what());
    }
}

h5md_writer::~h5md_writer() {
    if (!impl_ || impl_->finished) return;
    const hdf5::error_silencer quiet;
    impl_->close_objects();
    impl_->file.reset();
}

void h5md_writer::append_frame(const frame& f) {
    impl_->require_open("append_frame");
    const hdf5::error_silencer quiet;
    auto require_size = [&](std::size_t size, const char* what) {
        if (size != impl_->particles)
            throw std::invalid_argument("h5md_writer: frame " + std::to_string(f.step) + " has " + std::to_string(size) +
                                        " " + what + " entries, expected " + std::to_string(impl_->particles));
    };
    if (f.step > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw std::invalid_argument("h5md_writer: step " + std::to_string(f.step) + " does not fit H5MD's int64 step");
    const auto step = static_cast<std::int64_t>(f.step);

    require_size(f.position.size(), "position");
    if (impl_->image) require_size(f.image.size(), "image");
    if (impl_->velocity) require_size(f.velocity.size(), "velocity");
    if (impl_->force_element) require_size(f.force.size(), "force");

    impl_->position->append(step, f.time, f.position.data());
    const std::array<hsize_t, 1> edge_shape{3};
    append_sample(impl_->edges_value.get(), H5T_NATIVE_DOUBLE, impl_->frames++, edge_shape, &impl_->edges);
    if (impl_->image) impl_->image->append(step, f.time, f.image.data());
    if (impl_->velocity) impl_->velocity->append(step, f.time, f.velocity.data());
    if (impl_->force_element) impl_->force_element->append(step, f.time, f.force.data());
}

void h5md_writer::write_parameters(const std::string& group, const std::map<std::string, std::string>& attributes) {
    impl_->require_open("write_parameters");
    const hdf5::error_silencer quiet;
    const hdf5::group parameters = require_group(impl_->file.get(), "/parameters/" + group);
    write_string_attributes(parameters.get(), attributes);
}

void h5md_writer::write_time_series(const std::string& name, std::span<const std::uint64_t> step,
                                    std::span<const double> time, std::span<const double> value) {
    impl_->require_open("write_time_series");
    const hdf5::error_silencer quiet;
    if (step.size() != time.size() || step.size() != value.size())
        throw std::invalid_argument("h5md_writer: time series '" + name + "' has step, time and value of different lengths");
    std::vector<std::int64_t> steps;
    steps.reserve(step.size());
    for (const std::uint64_t s : step) {
        if (s > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw std::invalid_argument("h5md_writer: step " + std::to_string(s) + " does not fit H5MD's int64 step");
        steps.push_back(static_cast<std::int64_t>(s));
    }
    const std::string path = "/observables/" + name;
    if (hdf5::object_exists(impl_->file.get(), path))
        throw std::invalid_argument("h5md_writer: observable '" + name + "' was already written");
    const hdf5::group series = require_group(impl_->file.get(), path);
    const std::array<hsize_t, 1> shape{step.size()};
    create_fixed_dataset(series.get(), "step", H5T_STD_I64LE, H5T_NATIVE_INT64, shape, steps.data());
    create_fixed_dataset(series.get(), "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, shape, time.data());
    create_fixed_dataset(series.get(), "value", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, shape, value.data());
}

void h5md_writer::write_result(const std::string& name, std::span<const double> value,
                               const std::map<std::string, std::string>& attributes) {
    impl_->require_open("write_result");
    const hdf5::error_silencer quiet;
    const auto [parent, leaf] = split_leaf("/analysis/" + name);
    const hdf5::group group = require_group(impl_->file.get(), parent);
    const std::array<hsize_t, 1> shape{value.size()};
    const hdf5::dataset dataset =
        create_fixed_dataset(group.get(), leaf, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, shape, value.data());
    write_string_attributes(dataset.get(), attributes);
}

void h5md_writer::write_result(const std::string& name, double value,
                               const std::map<std::string, std::string>& attributes) {
    impl_->require_open("write_result");
    const hdf5::error_silencer quiet;
    const auto [parent, leaf] = split_leaf("/analysis/" + name);
    const hdf5::group group = require_group(impl_->file.get(), parent);
    const hdf5::dataset dataset = create_fixed_dataset(group.get(), leaf, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, &value);
    write_string_attributes(dataset.get(), attributes);
}

void h5md_writer::flush() {
    impl_->require_open("flush");
    const hdf5::error_silencer quiet;
    hdf5::check(H5Fflush(impl_->file.get(), H5F_SCOPE_GLOBAL), "flushing " + impl_->partial_path.string());
    sync_to_disk(impl_->partial_path, false);
}

std::uint64_t h5md_writer::frames() const { return impl_->frames; }

void h5md_writer::finish() {
    impl_->require_open("finish");
    const hdf5::error_silencer quiet;
    impl_->close_objects();
    // With H5F_CLOSE_SEMI this fails if any object were still open, i.e. possibly unwritten.
    if (!impl_->file.reset())
        hdf5::throw_failure("closing " + impl_->partial_path.string(), hdf5::last_error_description());
    impl_->finished = true;

    sync_to_disk(impl_->partial_path, false);
    // Without --force, a file that appeared at the final name during the run is not replaced.
    if (!impl_->force && fs::exists(impl_->final_path))
        throw input_error(impl_->final_path.string(), "", "", "output file exists; use --force to replace it");
    std::error_code error;
    fs::rename(impl_->partial_path, impl_->final_path, error);
    if (error)
        throw std::runtime_error("cannot rename '" + impl_->partial_path.string() + "' to '" +
                                 impl_->final_path.string() + "': " + error.message());
    sync_to_disk(directory_of(impl_->final_path), true);
}

void h5md_writer::abandon() noexcept {
    if (impl_->finished) return;
    const hdf5::error_silencer quiet;
    impl_->close_objects();
    impl_->file.reset();
    impl_->finished = true;
    std::error_code ignored;
    fs::remove(impl_->partial_path, ignored);
}

const std::filesystem::path& h5md_writer::partial_path() const { return impl_->partial_path; }
const std::filesystem::path& h5md_writer::final_path() const { return impl_->final_path; }

}  // namespace stokesian::io
