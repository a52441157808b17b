#pragma once
// H5MD 1.1 output (https://www.nongnu.org/h5md/h5md.html) and a small reader for it.
//
// Layout written by h5md_writer:
//   /h5md                      attrs version = [1, 1]
//   /h5md/author               attrs name (--author, $STOKESIAN_AUTHOR or the account: h5md_author)
//   /h5md/creator              attrs name = "stokesian", version = git describe
//                              (these and boundary: fixed-length UTF-8 strings, as H5MD 1.1 asks)
//   /particles/trajectory/box  attrs dimension = 3, boundary = ["periodic"|"none"] x 3;
//                              element edges/{step,time,value}: value [T, 3, 3], H5MD's matrix form,
//                              the edges on the diagonal (open boundaries: the extent the scenario
//                              gives, or 0), step and time hard links to position's (MDAnalysis
//                              reads edges/value[frame] as three edge vectors)
//   /particles/trajectory/{position,image,velocity,force}/{step,time,value}
//                              value [T, N, 3] (double; image int32), step [T] int64, time [T] double,
//                              extensible along T, chunked; image only with a periodic box, its
//                              step and time hard links to position's. The group is named
//                              "trajectory": MDAnalysis 2.4 counts the atoms of a file opened alone
//                              there. unit attributes: h5md_units below
//   /observables/<observable>_<series>/{step,time,value}
//                              time series of scalars, one group each directly under /observables
//                              (MDAnalysis reads each member's value[frame]); with a trajectory they
//                              are sampled at the trajectory's steps
//   /analysis/<name>           time-independent results (cycle extrema, maxima, fits): datasets with
//                              string attributes; kept out of /observables, which H5MD readers
//                              expect to hold time series only
//   /parameters/...            provenance: the scenario text, the resolved configuration, the
//                              precision mode, backend, build flags, host, command line: numbers
//                              (counts, steps, seeds: int64 or uint64; dt, tolerances: double) as
//                              numeric attributes, the rest as strings
//
// Crash safety: the writer builds "<path>.partial.rebuild", renames it to "<path>.partial" once the
// file names its run, and to <path> in finish(); a crash or a kill never leaves a half-written file
// under the final name, nor a readable partial one that does not say which run it belongs to. A resumed run never
// reopens the partial file (an HDF5 1.10 file written without SWMR is not safe to reopen after a
// kill): it builds a fresh one from the checkpoint and the frame journal (run/run.hpp).
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian::io {

// One /parameters attribute: text, or a number stored as a number.
using parameter_value = std::variant<std::string, std::int64_t, std::uint64_t, double>;

// Text attributes (provenance that is text only: build, invocation, engine details) as parameters.
std::map<std::string, parameter_value> text_parameters(const std::map<std::string, std::string>& text);

// The H5MD particles group of a result.
inline constexpr const char* particles_group = "/particles/trajectory";

// The unit attributes of the trajectory. stokesian's units are reduced (lengths in a, time in tau_s,
// forces in F); H5MD readers need unit strings they know (MDAnalysis refuses a file without), so the
// file names MDAnalysis's base units, which it converts by the factor 1: the numbers reach every
// reader unchanged, 1 Angstrom standing for a, 1 ps for tau_s (docs/reference/output.md).
struct h5md_units {
    static constexpr const char* length = "Angstrom";
    static constexpr const char* time = "ps";
    static constexpr const char* velocity = "Angstrom ps-1";
    static constexpr const char* force = "kJ mol-1 Angstrom-1";
};

// Where the time series `name` of an observable ("symmetry/y1": observable, then series) lies:
// "/observables/symmetry_y1". H5MD readers expect each member of /observables to hold
// {step, time, value} directly (MDAnalysis fails on subgroups).
std::string observable_path(const std::string& name);

struct h5md_options {
    std::filesystem::path path;   // final name
    bool force = false;           // replace an existing file at `path`
    std::string author;           // /h5md/author name; empty: h5md_author (io/provenance.hpp) chooses
    std::string scenario_author;  // the scenario's output.author: used without --author and $STOKESIAN_AUTHOR
    bool write_velocity = true;
    bool write_force = true;
    bool write_image = true;  // only used with periodic boxes
};

struct box_description {
    bool periodic = false;
    vec3<double> edges{0.0, 0.0, 0.0};
};

// Selects the constructor that builds a fresh output for a resumed run (below).
struct rebuild_tag {};

class h5md_writer : public result_sink {
public:
    // Creates "<path>.partial.rebuild" (replacing one a killed start left); replace_partial(), once
    // the caller has written and flushed what names the run, or finish() renames it to <path>.partial.
    // Throws input_error (one line naming the path) when <path> exists and force is false, or when
    // the directory is missing or not writable; nothing is created then.
    h5md_writer(const h5md_options& options, std::size_t particles, const box_description& box);
    // For a resumed run: creates "<path>.partial.rebuild" (replacing one a failed resume left) and
    // touches neither <path> nor <path>.partial; the caller appends the frames the checkpoint counts
    // (io::frame_journal) and calls replace_partial(). Throws input_error naming the file.
    h5md_writer(const h5md_options& options, std::size_t particles, const box_description& box, rebuild_tag);
    ~h5md_writer();  // not finished: closes the file, leaves <path>.partial
    h5md_writer(const h5md_writer&) = delete;
    h5md_writer& operator=(const h5md_writer&) = delete;

    // Appends one sample to particles/trajectory/*.
    void append_frame(const frame& f);

    // Attributes on /parameters/<group> (group may contain '/', created as needed): text as a
    // string, integers as int64 or uint64, reals as double (h5md_file::parameter_attributes reads them).
    void write_parameters(const std::string& group, const std::map<std::string, parameter_value>& attributes);

    // observable_path(name)/{step,time,value}: a time series of scalars (written in one go).
    void write_time_series(const std::string& name, std::span<const std::uint64_t> step, std::span<const double> time,
                           std::span<const double> value) override;
    // /analysis/<name>: a time-independent result (scalar or 1-D dataset) with string attributes.
    void write_result(const std::string& name, std::span<const double> value,
                      const std::map<std::string, std::string>& attributes = {}) override;
    void write_result(const std::string& name, double value,
                      const std::map<std::string, std::string>& attributes = {}) override;

    // Makes what was written so far durable (H5Fflush, then fsync): the partial file stays
    // readable with every frame written so far even if the process is killed afterwards.
    void flush();
    std::uint64_t frames() const;  // trajectory frames in the file
    // io::trajectory_digest of the last frame in the file; "" when it has none. A resumed run's next
    // checkpoint names it.
    std::string last_frame_digest() const;
    // Flushes and fsyncs the file being built and renames it onto <path>.partial (atomically
    // replacing an interrupted run's partial output); once per writer.
    void replace_partial();
    // Closes the file and renames <path>.partial to <path> (atomically replacing it with force).
    void finish();
    // Closes and deletes the file (<path>.partial, or the rebuild file before replace_partial()): for
    // a run that could not start (nothing worth keeping).
    void abandon() noexcept;

    const std::filesystem::path& partial_path() const;
    const std::filesystem::path& final_path() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Whether a file read by h5md_file must be H5MD (hold /h5md): stokesian's outputs and H5MD inputs
// must; `bench fcc --input` also reads the plain HDF5 files of other codes.
enum class h5md_group : bool { required, not_required };

// The reader of results (`stokesian analyze`, the reference store), scenario particle files,
// `bench fcc --input` and the tests; reference files and checkpoints have readers of their schema
// that call the same guards. Every failure, HDF5's included, is one input_error naming the file,
// and no dataset is read that claims more than the file stores (stokesian/io/hdf5_reading.hpp).
class h5md_file {
public:
    // Throws input_error if the file is not a readable HDF5 file, or without /h5md where `group`
    // requires it.
    explicit h5md_file(const std::filesystem::path& path, h5md_group group = h5md_group::required);
    ~h5md_file();
    h5md_file(const h5md_file&) = delete;
    h5md_file& operator=(const h5md_file&) = delete;

    bool exists(const std::string& object_path) const;
    bool is_group(const std::string& object_path) const;                      // false when missing or not a group
    bool is_dataset(const std::string& object_path) const;                    // false when missing or not a dataset
    std::vector<std::string> list(const std::string& group_path) const;       // member names, sorted
    std::vector<double> read_doubles(const std::string& dataset_path) const;  // flattened
    std::vector<std::int64_t> read_integers(const std::string& dataset_path) const;
    std::vector<std::size_t> shape(const std::string& dataset_path) const;
    // Row `index` of a numeric dataset whose first dimension counts frames (a value [T, N, 3]: one
    // frame [N, 3]), flattened; only that row is read (a long trajectory is not loaded whole).
    std::vector<double> read_doubles_row(const std::string& dataset_path, std::size_t index) const;
    std::optional<std::string> string_attribute(const std::string& object_path, const std::string& name) const;
    // Every string of a string attribute of any shape (box/boundary holds three), or nothing when the
    // object has no attribute of that name; input_error when the attribute is not made of strings.
    std::optional<std::vector<std::string>> string_array_attribute(const std::string& object_path,
                                                                   const std::string& name) const;
    std::map<std::string, std::string> string_attributes(const std::string& object_path) const;
    // The reader of /parameters: every single string, and every single number as text (an integer
    // in decimal, a double in the shortest form that reads back to it), by name; arrays left out.
    std::map<std::string, std::string> parameter_attributes(const std::string& object_path) const;
    std::optional<std::string> parameter_attribute(const std::string& object_path, const std::string& name) const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace stokesian::io
