// Writing checkpoint files (layout in stokesian/io/checkpoint.hpp): to "<path>.tmp", fsync,
// rename onto <path>, fsync the directory. A kill at any moment leaves the previous checkpoint or
// the new one, never a mixture; a stale .tmp from such a kill is simply overwritten next time.
#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

// One [N, 3] block of doubles (or int32 for the image counts).
void write_vectors(hid_t group, const std::string& name, const std::vector<vec3<double>>& values) {
    const std::array<hsize_t, 2> shape{values.size(), 3};
    create_fixed_dataset(group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, shape, values.data());
}
void write_vectors(hid_t group, const std::string& name, const std::vector<vec3<int>>& values) {
    const std::array<hsize_t, 2> shape{values.size(), 3};
    create_fixed_dataset(group, name, H5T_STD_I32LE, H5T_NATIVE_INT, shape, values.data());
}
void write_count(hid_t group, const std::string& name, std::uint64_t value) {
    create_fixed_dataset(group, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, {}, &value);
}

// Texts are stored without variable-length strings: those live in HDF5's global heap, whose
// parser in HDF5 1.10 loops forever on some damaged files (found by fuzzing, engine/docs/
// reliability.md). A checkpoint is the file a resume depends on; its reader never touches the
// global heap. Short texts are fixed-length string attributes, long ones (the scenario text) byte
// datasets.
void write_text_dataset(hid_t group, const std::string& name, const std::string& text) {
    const std::array<hsize_t, 1> shape{text.size()};
    create_fixed_dataset(group, name, H5T_STD_U8LE, H5T_NATIVE_UCHAR, shape, text.data());
}

void write_engine_state(hid_t parent, const engine_state& state) {
    const hdf5::group group = require_group(parent, "engine");
    write_fixed_string_attribute(group.get(), "precision", to_string(state.precision));
    write_count(group.get(), "step", state.step);
    write_vectors(group.get(), "position_hi", state.position_hi);
    write_vectors(group.get(), "position_lo", state.position_lo);
    write_vectors(group.get(), "image", state.image);
    write_vectors(group.get(), "velocity_hi", state.velocity_hi);
    write_vectors(group.get(), "velocity_lo", state.velocity_lo);
    write_vectors(group.get(), "force", state.force);
    // Adams-Bashforth's v_{n-1}: present only when the integrator keeps one.
    if (!state.history_hi.empty()) {
        write_vectors(group.get(), "history_hi", state.history_hi);
        write_vectors(group.get(), "history_lo", state.history_lo);
    }
}

void write_observable(hid_t parent, const std::string& name, const std::string& kind, const saved_state& state) {
    const hdf5::group group = require_group(parent, name);
    write_fixed_string_attribute(group.get(), "kind", kind);
    const hdf5::group reals = require_group(group.get(), "reals");
    for (const auto& [key, values] : state.reals) {
        const std::array<hsize_t, 1> shape{values.size()};
        create_fixed_dataset(reals.get(), key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, shape, values.data());
    }
    const hdf5::group counts = require_group(group.get(), "counts");
    for (const auto& [key, values] : state.counts) {
        const std::array<hsize_t, 1> shape{values.size()};
        create_fixed_dataset(counts.get(), key, H5T_STD_U64LE, H5T_NATIVE_UINT64, shape, values.data());
    }
    const hdf5::group texts = require_group(group.get(), "texts");
    for (const auto& [key, value] : state.texts) write_text_dataset(texts.get(), key, value);
}

void write_contents(hid_t file, const run_checkpoint& c) {
    const hdf5::group root = require_group(file, "/checkpoint");
    write_fixed_string_attribute(root.get(), "format", "stokesian checkpoint");
    write_fixed_string_attribute(root.get(), "version", "1");
    write_fixed_string_attribute(root.get(), "content_fnv1a64", checkpoint_digest(c));
    write_fixed_string_attribute(root.get(), digest_algorithm_key, digest_algorithm_tag);
    const hdf5::group run = require_group(root.get(), "run");
    for (const auto& [key, value] : c.run) write_text_dataset(run.get(), key, value);

    const hdf5::group progress = require_group(root.get(), "progress");
    write_count(progress.get(), "step", c.engine.step);
    write_count(progress.get(), "frames_written", c.frames_written);
    write_count(progress.get(), "last_good_step", c.last_good_step);
    create_fixed_dataset(progress.get(), "wall_seconds", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, &c.wall_seconds);
    write_fixed_string_attribute(progress.get(), "last_frame_digest", c.last_frame_digest);

    write_engine_state(root.get(), c.engine);

    const hdf5::group observables = require_group(root.get(), "observables");
    for (std::size_t k = 0; k < c.observables.size(); ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "%03zu", k);
        write_observable(observables.get(), name, c.observables[k].first, c.observables[k].second);
    }
}

}  // namespace

fs::path checkpoint_path_for(const fs::path& output) { return fs::path(output) += ".checkpoint"; }

void write_checkpoint(const fs::path& path, const run_checkpoint& checkpoint) {
    const hdf5::error_silencer quiet;
    const fs::path temporary = fs::path(path) += ".tmp";
    {
        hdf5::property_list fcpl(hdf5::check(H5Pcreate(H5P_FILE_CREATE), "creating a file property list"));
        hdf5::check(H5Pset_obj_track_times(fcpl.get(), 0), "switching off root group time stamps");
        hdf5::property_list fapl(hdf5::check(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list"));
        hdf5::check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_SEMI), "setting the close degree");
        hdf5::file file(hdf5::check(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
                                    "creating checkpoint " + temporary.string()));
        try {
            write_contents(file.get(), checkpoint);
        } catch (...) {
            file.reset();
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw;
        }
        if (!file.reset())
            hdf5::throw_failure("closing checkpoint " + temporary.string(), hdf5::last_error_description());
    }
    sync_to_disk(temporary, false);
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error)
        throw std::runtime_error("cannot rename '" + temporary.string() + "' to '" + path.string() +
                                 "': " + error.message());
    sync_to_disk(directory_of(path), true);
}

namespace {

// The checkpoint's values fed to the digest so that no two different checkpoints feed the same bytes.
class checkpoint_hasher {
public:
    void bytes(const void* data, std::size_t size) { digest_.bytes(data, size); }
    // Length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
    void text(const std::string& s) {
        count(s.size());
        bytes(s.data(), s.size());
    }
    void count(std::uint64_t x) { bytes(&x, sizeof x); }
    template <class T>
    void values(const std::vector<T>& v) {
        count(v.size());
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
    }
    std::string hex() const { return digest_.hex(); }

private:
    digest_builder digest_;
};

}  // namespace

std::string checkpoint_digest(const run_checkpoint& c) {
    checkpoint_hasher h;
    h.count(c.run.size());
    for (const auto& [key, value] : c.run) {
        h.text(key);
        h.text(value);
    }
    h.count(c.frames_written);
    h.count(c.last_good_step);
    h.bytes(&c.wall_seconds, sizeof c.wall_seconds);
    h.text(c.last_frame_digest);
    h.text(to_string(c.engine.precision));
    h.count(c.engine.step);
    for (const auto* words :
         {&c.engine.position_hi, &c.engine.position_lo, &c.engine.velocity_hi, &c.engine.velocity_lo, &c.engine.force})
        h.values(*words);
    if (!c.engine.history_hi.empty()) {  // Adams-Bashforth only: other checkpoints keep their digest
        h.values(c.engine.history_hi);
        h.values(c.engine.history_lo);
    }
    h.values(c.engine.image);
    h.count(c.observables.size());
    for (const auto& [kind, state] : c.observables) {
        h.text(kind);
        h.count(state.reals.size());
        for (const auto& [key, values] : state.reals) {
            h.text(key);
            h.values(values);
        }
        h.count(state.counts.size());
        for (const auto& [key, values] : state.counts) {
            h.text(key);
            h.values(values);
        }
        h.count(state.texts.size());
        for (const auto& [key, value] : state.texts) {
            h.text(key);
            h.text(value);
        }
    }
    return h.hex();
}

std::string trajectory_digest(std::int64_t step, double time, const std::vector<double>& positions) {
    digest_builder h;
    h.bytes(&step, sizeof step);
    h.bytes(&time, sizeof time);
    h.bytes(positions.data(), positions.size() * sizeof(double));
    return h.hex();
}

}  // namespace stokesian::io
