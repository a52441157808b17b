// The H5MD 1.1 writer (layout in stokesian/io/h5md.hpp).
//
// Reproducibility: every group and dataset is created with object time tracking switched off,
// so two identical runs produce byte-identical files (HDF5 would otherwise stamp each object
// header with its creation and modification times).
//
// Crash safety: a file is built as "<path>.partial.rebuild" and renamed to "<path>.partial" once it
// names its run (replace_partial); finish() closes, fsyncs and renames that onto <path>. A run that
// dies leaves only the .partial file behind (or a .partial.rebuild, which the next start removes).
// A resumed run builds a fresh file beside the partial one and replaces it; it never reopens one.
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

#include "h5md_elements.hpp"
#include "path_limits.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "stokesian/io/output_target.hpp"
#include "stokesian/io/provenance.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

// A frame's vectors go to HDF5 as they are: N contiguous records of 3 numbers.
static_assert(std::is_standard_layout_v<vec3<double>> && sizeof(vec3<double>) == 3 * sizeof(double));
static_assert(std::is_standard_layout_v<vec3<int>> && sizeof(vec3<int>) == 3 * sizeof(int));

namespace {

// Everything a user can get wrong about the output path, checked before anything is created.
void check_output_path(const fs::path& path, const fs::path& partial, bool force) {
    check_path_lengths(path, ".partial.rebuild");  // the longest name derived from the output
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
        throw input_error(
            name, "", "",
            (stale ? "cannot remove stale '" : "cannot create '") + partial.string() + "': " + error.message());
    }
    // Probing with open(2) gives the real reason (permissions, read-only file system, ...),
    // which HDF5 would bury in its error stack.
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw input_error(name, "", "", "cannot create '" + partial.string() + "': " + std::strerror(errno));
    ::close(fd);
    ::unlink(partial.c_str());
}

}  // namespace

struct h5md_writer::impl {
    fs::path final_path;
    fs::path partial_path;
    fs::path writing_path;  // the name the open file has: partial_path, or the rebuild name until replace_partial()
    bool force = false;
    std::size_t particles = 0;
    bool periodic = false;
    bool finished = false;
    // Declared before the elements so that it is closed after them.
    hdf5::file file;
    std::optional<particle_element> position, image, velocity, force_element;
    hdf5::dataset edges_value;
    std::array<double, 9> edges{};  // one sample of box/edges/value: the edges on the diagonal
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

    // Creates the file at writing_path with the header; on failure nothing is left there.
    void create(const h5md_options& options, const std::string& author_name, const box_description& box) {
        try {
            hdf5::property_list fcpl(hdf5::check(H5Pcreate(H5P_FILE_CREATE), "creating a file property list"));
            // The root group is created with the file: no time stamps on it either.
            hdf5::check(H5Pset_obj_track_times(fcpl.get(), 0), "switching off root group time stamps");
            hdf5::property_list fapl(hdf5::check(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list"));
            // H5Fclose then fails if anything is still open: finish() relies on it to prove that all
            // objects were closed and written before the rename.
            hdf5::check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), "setting the close degree");
            file = hdf5::file(hdf5::check(H5Fcreate(writing_path.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get()),
                                          "creating " + writing_path.string()));
            write_header(options, author_name, box);
        } catch (...) {
            // Not a usable output: take the half-made file away again.
            close_objects();
            file.reset();
            std::error_code ignored;
            fs::remove(writing_path, ignored);
            throw;
        }
    }

    // trajectory_digest of frame `index` as the file holds it.
    std::string frame_digest(hsize_t index) const {
        return trajectory_digest(position->step_at(index), position->time_at(index), position->values_at(index));
    }

    // H5MD 1.1 asks for fixed-length strings in /h5md and box/boundary.
    void write_header(const h5md_options& options, const std::string& author_name, const box_description& box) {
        const hid_t root = file.get();
        {
            const hdf5::group h5md = require_group(root, "/h5md");
            const std::array<int, 2> version{1, 1};
            write_int_attribute(h5md.get(), "version", version, false);
            const hdf5::group author = require_group(root, "/h5md/author");
            write_fixed_string_attribute(author.get(), "name", author_name);
            const hdf5::group creator = require_group(root, "/h5md/creator");
            write_fixed_string_attribute(creator.get(), "name", "stokesian");
            write_fixed_string_attribute(creator.get(), "version", git_describe());
        }
        const hdf5::group all = require_group(root, particles_group);
        {
            const hdf5::group box_group = require_group(all.get(), "box");
            const std::array<int, 1> dimension{3};
            write_int_attribute(box_group.get(), "dimension", dimension, true);
            const std::string boundary = box.periodic ? "periodic" : "none";
            write_fixed_string_array_attribute(box_group.get(), "boundary", {boundary, boundary, boundary});
        }
        position.emplace(all.get(), "position", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles,
                         h5md_units::length);
        {
            // box/edges as a time-dependent element sharing position's step and time (hard links),
            // each sample a 3 x 3 matrix (H5MD's triclinic form, the edges on its diagonal):
            // MDAnalysis reads edges/value[frame] as three edge vectors only.
            const hdf5::group edges_group(
                hdf5::check(H5Gcreate2(all.get(), "box/edges", H5P_DEFAULT, group_creation().get(), H5P_DEFAULT),
                            "creating box/edges"));
            hdf5::check(H5Lcreate_hard(all.get(), "position/step", edges_group.get(), "step", H5P_DEFAULT, H5P_DEFAULT),
                        "linking box/edges/step");
            hdf5::check(H5Lcreate_hard(all.get(), "position/time", edges_group.get(), "time", H5P_DEFAULT, H5P_DEFAULT),
                        "linking box/edges/time");
            const std::array<hsize_t, 2> sample{3, 3};
            const std::array<hsize_t, 3> chunk{scalar_chunk_samples, 3, 3};
            edges_value = create_extensible_dataset(edges_group.get(), "value", H5T_IEEE_F64LE, sample, chunk);
            write_string_attribute(edges_value.get(), "unit", h5md_units::length);
            edges = {box.edges.x, 0.0, 0.0, 0.0, box.edges.y, 0.0, 0.0, 0.0, box.edges.z};
        }
        // image is sampled with position: its step and time are hard links to position's (H5MD 1.1).
        if (box.periodic && options.write_image)
            image.emplace(all.get(), "image", H5T_STD_I32LE, H5T_NATIVE_INT, sizeof(std::int32_t), particles, nullptr,
                          &*position);
        if (options.write_velocity)
            velocity.emplace(all.get(), "velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles,
                             h5md_units::velocity);
        if (options.write_force)
            force_element.emplace(all.get(), "force", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double), particles,
                                  h5md_units::force);
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
    const std::string author =
        h5md_author(options.author.empty() ? std::nullopt : std::optional(options.author), options.scenario_author);
    check_output_path(impl_->final_path, impl_->partial_path, options.force);

    // Built under another name until the caller has written what names the run: a kill between
    // H5Fcreate and that flush would otherwise leave a readable <path>.partial that says nothing.
    impl_->writing_path = fs::path(options.path) += ".partial.rebuild";
    std::error_code error;
    fs::remove(impl_->writing_path, error);  // what a killed start left
    if (error)
        throw input_error(impl_->writing_path.string(), "", "",
                          "cannot remove what an earlier start left: " + error.message());
    impl_->create(options, author, box);
}

h5md_writer::h5md_writer(const h5md_options& options, std::size_t particles, const box_description& box, rebuild_tag)
    : impl_(std::make_unique<impl>()) {
    const hdf5::error_silencer quiet;
    if (particles == 0) throw std::invalid_argument("h5md_writer: a trajectory needs at least one particle");
    impl_->final_path = options.path;
    impl_->partial_path = fs::path(options.path) += ".partial";
    impl_->writing_path = fs::path(options.path) += ".partial.rebuild";
    impl_->force = options.force;
    impl_->particles = particles;
    impl_->periodic = box.periodic;
    const std::string author =
        h5md_author(options.author.empty() ? std::nullopt : std::optional(options.author), options.scenario_author);
    std::error_code error;
    fs::remove(impl_->writing_path, error);  // what a failed or killed resume left
    if (error)
        throw input_error(impl_->writing_path.string(), "", "",
                          "cannot remove what an earlier resume left: " + error.message());
    try {
        impl_->create(options, author, box);
    } catch (const std::runtime_error& e) {
        throw input_error(impl_->writing_path.string(), "", "", std::string("cannot resume: ") + e.what());
    }
}

void h5md_writer::replace_partial() {
    impl_->require_open("replace_partial");
    if (impl_->writing_path == impl_->partial_path)
        throw std::logic_error("h5md_writer::replace_partial: already under its partial name");
    flush();
    std::error_code error;
    fs::rename(impl_->writing_path, impl_->partial_path, error);
    if (error)
        throw std::runtime_error("cannot rename '" + impl_->writing_path.string() + "' to '" +
                                 impl_->partial_path.string() + "': " + error.message());
    sync_to_disk(directory_of(impl_->partial_path), true);
    impl_->writing_path = impl_->partial_path;
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
            throw std::invalid_argument("h5md_writer: frame " + std::to_string(f.step) + " has " +
                                        std::to_string(size) + " " + what + " entries, expected " +
                                        std::to_string(impl_->particles));
    };
    if (f.step > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw std::invalid_argument("h5md_writer: step " + std::to_string(f.step) + " does not fit H5MD's int64 step");
    const auto step = static_cast<std::int64_t>(f.step);

    require_size(f.position.size(), "position");
    if (impl_->image) require_size(f.image.size(), "image");
    if (impl_->velocity) require_size(f.velocity.size(), "velocity");
    if (impl_->force_element) require_size(f.force.size(), "force");

    impl_->position->append(step, f.time, f.position.data());
    const std::array<hsize_t, 2> edge_shape{3, 3};
    append_sample(impl_->edges_value.get(), H5T_NATIVE_DOUBLE, impl_->frames++, edge_shape, impl_->edges.data());
    if (impl_->image) impl_->image->append(step, f.time, f.image.data());
    if (impl_->velocity) impl_->velocity->append(step, f.time, f.velocity.data());
    if (impl_->force_element) impl_->force_element->append(step, f.time, f.force.data());
}

void h5md_writer::write_parameters(const std::string& group, const std::map<std::string, parameter_value>& attributes) {
    impl_->require_open("write_parameters");
    const hdf5::error_silencer quiet;
    const hdf5::group parameters = require_group(impl_->file.get(), "/parameters/" + group);
    for (const auto& attribute : attributes) {
        const std::string& name = attribute.first;  // a structured binding cannot be captured (clang 14)
        std::visit(
            [&](const auto& v) {
                using type = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<type, std::string>) write_string_attribute(parameters.get(), name, v);
                else write_number_attribute(parameters.get(), name, v);
            },
            attribute.second);
    }
}

std::map<std::string, parameter_value> text_parameters(const std::map<std::string, std::string>& text) {
    return {text.begin(), text.end()};
}

std::string observable_path(const std::string& name) {
    std::string flat = name;
    std::replace(flat.begin(), flat.end(), '/', '_');
    return "/observables/" + flat;
}

void h5md_writer::write_time_series(const std::string& name, std::span<const std::uint64_t> step,
                                    std::span<const double> time, std::span<const double> value) {
    impl_->require_open("write_time_series");
    const hdf5::error_silencer quiet;
    if (step.size() != time.size() || step.size() != value.size())
        throw std::invalid_argument("h5md_writer: time series '" + name +
                                    "' has step, time and value of different lengths");
    std::vector<std::int64_t> steps;
    steps.reserve(step.size());
    for (const std::uint64_t s : step) {
        if (s > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw std::invalid_argument("h5md_writer: step " + std::to_string(s) + " does not fit H5MD's int64 step");
        steps.push_back(static_cast<std::int64_t>(s));
    }
    const std::string path = observable_path(name);
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
    const hdf5::dataset dataset =
        create_fixed_dataset(group.get(), leaf, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, &value);
    write_string_attributes(dataset.get(), attributes);
}

void h5md_writer::flush() {
    impl_->require_open("flush");
    const hdf5::error_silencer quiet;
    hdf5::check(H5Fflush(impl_->file.get(), H5F_SCOPE_GLOBAL), "flushing " + impl_->writing_path.string());
    sync_to_disk(impl_->writing_path, false);
}

std::uint64_t h5md_writer::frames() const { return impl_->frames; }

std::string h5md_writer::last_frame_digest() const {
    const hdf5::error_silencer quiet;
    return impl_->frames == 0 ? "" : impl_->frame_digest(impl_->frames - 1);
}

void h5md_writer::finish() {
    impl_->require_open("finish");
    if (impl_->writing_path != impl_->partial_path) replace_partial();
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
    fs::remove(impl_->writing_path, ignored);
}

const std::filesystem::path& h5md_writer::partial_path() const { return impl_->partial_path; }
const std::filesystem::path& h5md_writer::final_path() const { return impl_->final_path; }

}  // namespace stokesian::io
