// The broken HDF5 inputs (bad_hdf5_corpus.hpp). Each case says in its expected message what a
// user sees; the derivations (hdf5_derivations.hpp) are deterministic (no randomness).
#include "bad_hdf5_corpus.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>

#include "inputs/hdf5/hdf5_derivations.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

namespace stokesian::test_inputs {

namespace fs = std::filesystem;

namespace {

void put_string_dataset(hid_t file, const char* path) {
    if (H5Lexists(file, path, H5P_DEFAULT) > 0) remove_object(file, path);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, 8);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t dataset = H5Dcreate2(file, path, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(dataset, std::string("creating ") + path);
    check(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, "eleven!"), "writing a string");
    H5Dclose(dataset);
    H5Sclose(space);
    H5Tclose(type);
}

// A string attribute as the H5MD writer writes them (variable length, UTF-8) or as checkpoints
// do (fixed length).
void put_string_attribute(hid_t file, const char* object, const char* name, const char* value, bool variable = true) {
    const hid_t target = H5Oopen(file, object, H5P_DEFAULT);
    check(target, std::string("opening ") + object);
    if (H5Aexists(target, name) > 0) check(H5Adelete(target, name), "deleting an attribute");
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, variable ? H5T_VARIABLE : std::strlen(value));
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(target, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    check(variable ? H5Awrite(attribute, type, &value) : H5Awrite(attribute, type, value), "writing an attribute");
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Oclose(target);
}

void put_number_attribute(hid_t file, const char* object, const char* name, double value) {
    const hid_t target = H5Oopen(file, object, H5P_DEFAULT);
    check(target, std::string("opening ") + object);
    if (H5Aexists(target, name) > 0) check(H5Adelete(target, name), "deleting an attribute");
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(target, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    check(H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value), "writing an attribute");
    H5Aclose(attribute);
    H5Sclose(space);
    H5Oclose(target);
}

// Changes the first value of the last row of a [T, ...] dataset of numbers.
void change_last_sample(hid_t file, const char* path) {
    const hid_t dataset = H5Dopen2(file, path, H5P_DEFAULT);
    check(dataset, std::string("opening ") + path);
    const hid_t space = H5Dget_space(dataset);
    hsize_t dims[3] = {1, 1, 1};
    const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
    check(rank >= 1 ? 0 : -1, "a dataset with rows");
    const hsize_t row = rank == 1 ? 1 : rank == 2 ? dims[1] : dims[1] * dims[2];
    std::vector<double> values(dims[0] * row);
    check(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "reading");
    values[(dims[0] - 1) * row] += 0.5;
    check(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "writing");
    H5Sclose(space);
    H5Dclose(dataset);
}

void cut_samples(hid_t file, const char* path, hsize_t frames) {
    const hid_t dataset = H5Dopen2(file, path, H5P_DEFAULT);
    check(dataset, std::string("opening ") + path);
    const hid_t space = H5Dget_space(dataset);
    hsize_t dims[3] = {0, 0, 0};
    const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
    dims[0] = frames;
    check(rank > 0 ? H5Dset_extent(dataset, dims) : -1, "cutting");
    H5Sclose(space);
    H5Dclose(dataset);
}

// ---- the corpus --------------------------------------------------------------------------------

struct corpus_writer {
    fs::path dir, base;
    std::vector<bad_file_case> cases;

    fs::path valid_output() const { return base / "interrupted.h5"; }
    fs::path valid_checkpoint() const { return base / "interrupted.h5.checkpoint"; }
    fs::path valid_journal() const { return base / "interrupted.h5.frames"; }
    fs::path complete() const { return base / "complete.h5"; }

    // A case directory with the companion of the broken file in place; returns the broken file's path.
    fs::path add(const std::string& name, bad_file_role role, const std::string& expected, bool may_succeed = false) {
        const fs::path case_dir = dir / name;
        fs::remove_all(case_dir);
        fs::create_directories(case_dir);
        using kind = bad_file_role;
        if (role == kind::checkpoint || role == kind::journal) fs::copy_file(valid_output(), case_dir / "out.h5");
        if (role != kind::checkpoint && role != kind::analyzed)
            fs::copy_file(valid_checkpoint(), case_dir / "out.h5.checkpoint");
        if (role != kind::journal && role != kind::analyzed) fs::copy_file(valid_journal(), case_dir / "out.h5.frames");
        cases.push_back({name, role, expected, may_succeed});
        const char* broken = role == kind::checkpoint ? "out.h5.checkpoint"
                             : role == kind::partial  ? "out.h5.partial"
                             : role == kind::journal  ? "out.h5.frames"
                                                      : "out.h5";
        return case_dir / broken;
    }

    // A checkpoint that is well-formed HDF5 with a valid content digest but wrong contents.
    void semantic(const std::string& name, const std::string& expected,
                  const std::function<void(io::run_checkpoint&)>& change) {
        io::run_checkpoint c = io::read_checkpoint(valid_checkpoint());
        change(c);
        io::write_checkpoint(add(name, bad_file_role::checkpoint, expected), c);
    }
};

}  // namespace

void write_valid_base_files(const fs::path& dir) {
    fs::create_directories(dir);
    for (const char* name : {"interrupted.h5", "interrupted.h5.checkpoint", "interrupted.h5.frames", "complete.h5"})
        fs::remove(dir / name);
    const std::string scenarios = std::string(::stokesian::test_support::project_source_dir) + "/scenarios/";
    run_request pair;
    pair.scenario_ = load_scenario(scenarios + "approaching_pairs.toml", "head_on");
    pair.scenario_.run.time = 0.5;
    pair.output.path = dir / "interrupted.h5";
    pair.threads = 1;
    pair.checkpoint_wall_seconds = 0.0;
    pair.stop_after_step = 300;
    run_scenario(pair);
    run_request tetrahedron;
    tetrahedron.scenario_ = load_scenario(scenarios + "tetrahedron.toml");
    tetrahedron.scenario_.run.time = 20.0;
    tetrahedron.output.path = dir / "complete.h5";
    tetrahedron.threads = 1;
    run_scenario(tetrahedron);
}

std::vector<bad_file_case> write_bad_hdf5_corpus(const fs::path& dir) {
    corpus_writer w{dir, dir / "base", {}};
    write_valid_base_files(w.base);
    using role = bad_file_role;
    const fs::path checkpoint = w.valid_checkpoint(), output = w.valid_output(), complete = w.complete();

    // ---- checkpoints: not HDF5 at all, truncated, bytes flipped --------------------------------
    write_bytes(w.add("checkpoint_empty", role::checkpoint, "not a readable HDF5 file"), "");
    write_bytes(w.add("checkpoint_text", role::checkpoint, "not a readable HDF5 file"), "# a checkpoint\nstep = 300\n");
    fs::create_directories(w.add("checkpoint_is_directory", role::checkpoint, "not a regular file"));
    for (const double fraction : {0.001, 0.1, 0.5, 0.9, 0.999})
        truncated_copy(checkpoint,
                       w.add("checkpoint_truncated_" + std::to_string(int(fraction * 1000)) + "_permille",
                             role::checkpoint, "out.h5.checkpoint: "),
                       fraction);
    flipped_copy(checkpoint, w.add("checkpoint_signature_flipped", role::checkpoint, "not a readable HDF5 file"), 0.0,
                 8);
    // Flipped bytes in metadata or values are refused (the content digest covers every value
    // read); flipped bytes in space the file does not use change nothing, and the resume that
    // follows must then be exactly the one from the intact checkpoint.
    for (const double fraction : {0.002, 0.05, 0.25, 0.5, 0.75, 0.95})
        flipped_copy(checkpoint,
                     w.add("checkpoint_flipped_at_" + std::to_string(int(fraction * 1000)) + "_permille",
                           role::checkpoint, "out.h5.checkpoint: ", true),
                     fraction, 16);

    // ---- checkpoints: the wrong schema ----------------------------------------------------------
    fs::copy_file(output, w.add("checkpoint_is_an_h5md_file", role::checkpoint,
                                "not a stokesian checkpoint (no /checkpoint group)"));
    changed_copy(
        checkpoint, w.add("checkpoint_format_other", role::checkpoint, "not a stokesian checkpoint"),
        [](hid_t f) { put_string_attribute(f, "/checkpoint", "format", "somebody else's checkpoint", false); });
    changed_copy(checkpoint,
                 w.add("checkpoint_variable_length_string", role::checkpoint,
                       "attribute 'format' is a variable-length string (not written by stokesian)"),
                 [](hid_t f) { put_string_attribute(f, "/checkpoint", "format", "stokesian checkpoint"); });
    changed_copy(checkpoint,
                 w.add("checkpoint_version_2", role::checkpoint, "version 2, this stokesian reads version 1"),
                 [](hid_t f) { put_string_attribute(f, "/checkpoint", "version", "2", false); });
    changed_copy(checkpoint,
                 w.add("checkpoint_version_number", role::checkpoint, "attribute 'version' is not a single string"),
                 [](hid_t f) { put_number_attribute(f, "/checkpoint", "version", 1.0); });
    changed_copy(checkpoint, w.add("checkpoint_missing_force", role::checkpoint, "'/checkpoint/engine/force': missing"),
                 [](hid_t f) { remove_object(f, "/checkpoint/engine/force"); });
    changed_copy(checkpoint,
                 w.add("checkpoint_missing_progress", role::checkpoint, "'/checkpoint/progress/step': missing"),
                 [](hid_t f) { remove_object(f, "/checkpoint/progress"); });
    changed_copy(checkpoint,
                 w.add("checkpoint_position_two_columns", role::checkpoint, "entries along axis 1, expected 3"),
                 [](hid_t f) {
                     const double values[4] = {1, 2, 3, 4};
                     put_dataset(f, "/checkpoint/engine/position_lo", H5T_IEEE_F64LE, {2, 2}, values);
                 });
    changed_copy(checkpoint, w.add("checkpoint_position_rank_1", role::checkpoint, "has rank 1, expected 2"),
                 [](hid_t f) {
                     const double values[6] = {1, 2, 3, 4, 5, 6};
                     put_dataset(f, "/checkpoint/engine/position_hi", H5T_IEEE_F64LE, {6}, values);
                 });
    changed_copy(checkpoint, w.add("checkpoint_image_as_floats", role::checkpoint, "expected signed 32-bit integers"),
                 [](hid_t f) {
                     const double values[6] = {0, 0, 0, 0, 0, 0};
                     put_dataset(f, "/checkpoint/engine/image", H5T_IEEE_F64LE, {2, 3}, values);
                 });
    changed_copy(checkpoint, w.add("checkpoint_velocity_as_float32", role::checkpoint, "expected 64-bit floats"),
                 [](hid_t f) {
                     const float values[6] = {0, 0, 0, 0, 0, 0};
                     put_dataset(f, "/checkpoint/engine/velocity_hi", H5T_IEEE_F32LE, {2, 3}, values);
                 });
    changed_copy(checkpoint, w.add("checkpoint_step_signed", role::checkpoint, "expected unsigned 64-bit integers"),
                 [](hid_t f) {
                     const std::int64_t step = -300;
                     put_dataset(f, "/checkpoint/progress/step", H5T_STD_I64LE, {}, &step);
                 });
    changed_copy(checkpoint, w.add("checkpoint_step_string", role::checkpoint, "expected unsigned 64-bit integers"),
                 [](hid_t f) { put_string_dataset(f, "/checkpoint/progress/step"); });
    changed_copy(checkpoint, w.add("checkpoint_step_array", role::checkpoint, "has rank 1, expected 0"), [](hid_t f) {
        const std::uint64_t steps[2] = {300, 300};
        put_dataset(f, "/checkpoint/progress/step", H5T_STD_U64LE, {2}, steps);
    });
    changed_copy(checkpoint,
                 w.add("checkpoint_claims_2_to_40_particles", role::checkpoint, "claims 3298534883328 elements"),
                 [](hid_t f) {
                     put_dataset(f, "/checkpoint/engine/position_hi", H5T_IEEE_F64LE, {hsize_t{1} << 40, 3}, nullptr);
                 });
    changed_copy(checkpoint,
                 w.add("checkpoint_engine_is_a_dataset", role::checkpoint, "attribute 'precision' is missing"),
                 [](hid_t f) {
                     remove_object(f, "/checkpoint/engine");
                     const double one = 1.0;
                     put_dataset(f, "/checkpoint/engine", H5T_IEEE_F64LE, {}, &one);
                 });
    changed_copy(
        checkpoint, w.add("checkpoint_observables_numbered_with_a_gap", role::checkpoint, "without gaps"), [](hid_t f) {
            check(H5Lmove(f, "/checkpoint/observables/001", f, "/checkpoint/observables/007", H5P_DEFAULT, H5P_DEFAULT),
                  "renaming");
        });
    changed_copy(checkpoint, w.add("checkpoint_observable_reals_is_a_dataset", role::checkpoint, "expected a group"),
                 [](hid_t f) {
                     remove_object(f, "/checkpoint/observables/000/reals");
                     const double one = 1.0;
                     put_dataset(f, "/checkpoint/observables/000/reals", H5T_IEEE_F64LE, {}, &one);
                 });
    changed_copy(checkpoint, w.add("checkpoint_content_digest_wrong", role::checkpoint, "content digest mismatch"),
                 [](hid_t f) { put_string_attribute(f, "/checkpoint", "content_fnv1a64", "0123456789abcdef", false); });
    changed_copy(checkpoint, w.add("checkpoint_position_changed_on_disk", role::checkpoint, "content digest mismatch"),
                 [](hid_t f) { change_last_sample(f, "/checkpoint/engine/position_hi"); });
    changed_copy(checkpoint,
                 w.add("checkpoint_engine_step_differs", role::checkpoint, "differs from /checkpoint/progress/step"),
                 [](hid_t f) {
                     const std::uint64_t step = 301;
                     put_dataset(f, "/checkpoint/progress/step", H5T_STD_U64LE, {}, &step);
                 });
    changed_copy(
        checkpoint,
        w.add("checkpoint_engine_precision_unknown", role::checkpoint, "attribute 'precision' = 'hi=f16,int=f64'"),
        [](hid_t f) { put_string_attribute(f, "/checkpoint/engine", "precision", "hi=f16,int=f64", false); });
    changed_copy(
        checkpoint,
        w.add("checkpoint_run_entry_a_number", role::checkpoint, "'/checkpoint/run/dt': expected text as bytes"),
        [](hid_t f) {
            const double dt = 0.001;
            put_dataset(f, "/checkpoint/run/dt", H5T_IEEE_F64LE, {}, &dt);
        });

    // ---- checkpoints: well-formed, digest valid, contents wrong ---------------------------------
    w.semantic("checkpoint_precision_unknown", "attribute 'precision' = 'hi=f16,int=f64'", [](io::run_checkpoint& c) {
        c.run["precision"] = "hi=f16,int=f64";
        c.engine.precision = {precision::f64, precision::f64};
    });
    w.semantic("checkpoint_three_particles", "checkpoint holds 3 particles, the run has 2", [](io::run_checkpoint& c) {
        for (auto* v : {&c.engine.position_hi, &c.engine.position_lo, &c.engine.velocity_hi, &c.engine.velocity_lo,
                        &c.engine.force})
            v->push_back({0.0, 0.0, 0.0});
        c.engine.image.push_back({0, 0, 0});
    });
    // The stored settings rebuild the run: another dt gives another number of steps.
    w.semantic("checkpoint_other_dt", "key 'total_steps' = 500", [](io::run_checkpoint& c) { c.run["dt"] = "0.002"; });
    w.semantic("checkpoint_other_backend", "key 'engine_backend' = cuda",
               [](io::run_checkpoint& c) { c.run["engine_backend"] = "cuda"; });
    w.semantic("checkpoint_identity_missing", "attribute 'min_separation' is missing",
               [](io::run_checkpoint& c) { c.run.erase("min_separation"); });
    // The pair's observables: centre_of_mass, positive_definiteness, pair_gap.
    w.semantic("checkpoint_observable_kind_other", "expected the observable 'pair_gap'",
               [](io::run_checkpoint& c) { c.observables[2].first = "cycle"; });
    w.semantic("checkpoint_observable_missing", "holds 2 observables, the run has 3",
               [](io::run_checkpoint& c) { c.observables.pop_back(); });
    w.semantic("checkpoint_observable_state_missing", "missing real state 'gap.time'",
               [](io::run_checkpoint& c) { c.observables[2].second.reals.erase("gap.time"); });
    w.semantic("checkpoint_observable_series_lengths_differ", "state 'gap.value' has",
               [](io::run_checkpoint& c) { c.observables[2].second.reals["gap.value"].push_back(1.0); });
    w.semantic("checkpoint_velocity_not_finite", "not a finite f64 number",
               [](io::run_checkpoint& c) { c.engine.velocity_hi[1].y = INFINITY; });
    w.semantic("checkpoint_f64_with_low_words", "not a finite f64 number",
               [](io::run_checkpoint& c) { c.engine.position_lo[0].x = 1e-20; });
    w.semantic("checkpoint_wall_seconds_negative", "expected a finite number >= 0",
               [](io::run_checkpoint& c) { c.wall_seconds = -1.0; });
    w.semantic("checkpoint_more_frames_than_the_journal", "holds fewer than the",
               [](io::run_checkpoint& c) { c.frames_written += 1; });
    w.semantic("checkpoint_last_frame_of_another_run", "differs from the one the checkpoint recorded",
               [](io::run_checkpoint& c) { c.last_frame_digest = "0000000000000000"; });
    w.semantic("checkpoint_scenario_text_edited", "key 'scenario_text_fnv1a64'",
               [](io::run_checkpoint& c) { c.run["scenario_text_fnv1a64"] = "0000000000000000"; });

    // ---- the interrupted run's closed output (after a signal): its status decides -------------
    write_bytes(w.add("output_text", role::output, "not a readable HDF5 file"), "interrupted\n");
    truncated_copy(output, w.add("output_truncated_half", role::output, "out.h5: "), 0.5);
    changed_copy(output, w.add("output_completed", role::output, "cannot resume a run with status 'completed'"),
                 [](hid_t f) { put_string_attribute(f, "/parameters/run", "status", "completed"); });
    stalled_global_heap_copy(
        output, w.add("output_global_heap_object_of_size_0", role::output, "claims 0 bytes (damaged file)"));

    // ---- what a kill leaves as out.h5.partial: the resume rebuilds the output without it ----------
    write_bytes(w.add("partial_text", role::partial, ""), "interrupted\n");
    truncated_copy(output, w.add("partial_truncated_half", role::partial, ""), 0.5);
    changed_copy(output, w.add("partial_without_positions", role::partial, ""),
                 [](hid_t f) { remove_object(f, "/particles/trajectory/position"); });
    changed_copy(output, w.add("partial_with_fewer_frames", role::partial, ""),
                 [](hid_t f) { cut_samples(f, "/particles/trajectory/position/value", 3); });
    changed_copy(output, w.add("partial_last_frame_changed", role::partial, ""),
                 [](hid_t f) { change_last_sample(f, "/particles/trajectory/position/value"); });
    changed_copy(output, w.add("partial_three_particles", role::partial, ""), [](hid_t f) {
        put_dataset(f, "/particles/trajectory/velocity/value", H5T_IEEE_F64LE, {40, 3, 3}, nullptr);
    });
    stalled_global_heap_copy(output, w.add("partial_global_heap_object_of_size_0", role::partial, ""));
    w.add("partial_missing", role::partial, "");

    // ---- the frame journal the resume rebuilds the trajectory from -------------------------------
    w.add("journal_missing", role::journal, "the frame journal the checkpoint counts on cannot be opened");
    write_bytes(w.add("journal_text", role::journal, "not the frame journal of this run"), "frames\n");
    flipped_copy(w.valid_journal(),
                 w.add("journal_byte_order_flipped", role::journal, "not the frame journal of this run"), 0.0, 16);
    truncated_copy(w.valid_journal(), w.add("journal_truncated_half", role::journal, "holds fewer than the"), 0.5);
    {
        // Record k starts at the 32-byte header + k * (record size); its first word is k, its last
        // the checksum of the rest (engine/io/include/stokesian/io/frame_journal.hpp).
        const std::string bytes = bytes_of(w.valid_journal());
        const std::size_t frames = io::read_checkpoint(checkpoint).frames_written,
                          record = (bytes.size() - 32) / frames;
        std::string renumbered = bytes, changed = bytes, middle = bytes, other_format = bytes;
        renumbered[32 + 5 * record] = 9;
        changed[32 + (frames - 1) * record + 24] ^= 1;  // the last counted frame's first coordinate
        middle[32 + 3 * record + 24] ^= 1;              // a frame before it: the rebuilt output would hold it
        other_format[7] = '1';                          // "STKFRMS1": another format of the journal
        write_bytes(w.add("journal_record_renumbered", role::journal, "record 5 is numbered 9"), renumbered);
        write_bytes(
            w.add("journal_last_frame_changed", role::journal, "record " + std::to_string(frames - 1) + " is damaged"),
            changed);
        write_bytes(w.add("journal_middle_frame_changed", role::journal, "record 3 is damaged"), middle);
        write_bytes(w.add("journal_of_another_format", role::journal, "not the frame journal of this run"),
                    other_format);
    }

    // ---- H5MD outputs for `stokesian analyze` ---------------------------------------------------
    write_bytes(w.add("analyzed_empty", role::analyzed, "not a readable HDF5 file"), "");
    write_bytes(w.add("analyzed_text", role::analyzed, "not a readable HDF5 file"), "time,x\n0,1\n");
    for (const double fraction : {0.01, 0.3, 0.6, 0.99})
        truncated_copy(
            complete,
            w.add("analyzed_truncated_" + std::to_string(int(fraction * 100)) + "_percent", role::analyzed, "out.h5: "),
            fraction);
    for (const double fraction : {0.003, 0.1, 0.4, 0.8})
        flipped_copy(complete,
                     w.add("analyzed_flipped_at_" + std::to_string(int(fraction * 1000)) + "_permille", role::analyzed,
                           "out.h5", true),
                     fraction, 16);
    fs::copy_file(checkpoint, w.add("analyzed_a_checkpoint", role::analyzed, "not an H5MD file (no /h5md group)"));
    stalled_global_heap_copy(
        complete, w.add("analyzed_global_heap_object_of_size_0", role::analyzed, "global heap collection at byte"));
    changed_copy(complete, w.add("analyzed_result_is_text", role::analyzed, "is not numeric"),
                 [](hid_t f) { put_string_dataset(f, "/analysis/cycle/period_mean"); });
    changed_copy(
        complete, w.add("analyzed_result_claims_2_to_40_values", role::analyzed, "claims 1099511627776 elements"),
        [](hid_t f) { put_dataset(f, "/analysis/cycle/period", H5T_IEEE_F64LE, {hsize_t{1} << 40}, nullptr); });
    changed_copy(complete, w.add("analyzed_dangling_link", role::analyzed, "no dataset '/analysis/cycle/dangling'"),
                 [](hid_t f) {
                     check(H5Lcreate_soft("/nowhere", f, "/analysis/cycle/dangling", H5P_DEFAULT, H5P_DEFAULT),
                           "linking");
                 });
    changed_copy(
        complete,
        w.add("analyzed_external_link_to_nothing", role::analyzed, "external link '/analysis/cycle/elsewhere'"),
        [](hid_t f) {
            check(H5Lcreate_external("no_such_file.h5", "/x", f, "/analysis/cycle/elsewhere", H5P_DEFAULT, H5P_DEFAULT),
                  "linking");
        });
    return w.cases;
}

}  // namespace stokesian::test_inputs
