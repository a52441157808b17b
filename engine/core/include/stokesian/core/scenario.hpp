#pragma once
// A scenario file (scenarios/*.toml), validated and with units resolved. The format is
// documented in docs/reference/scenario-file.md; every key is checked, unknown keys are errors. The keys of
// each struct are listed once, in the field tables of the settings layer (engine/settings/*_table.cpp),
// which reads, writes and checks scenarios (stokesian/settings/scenario_loader.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/output_key_extensions.hpp"
#include "stokesian/core/system.hpp"

namespace stokesian {

struct run_settings {
    double dt = 0.01;                    // tau_s
    std::optional<double> time;          // run length in tau_s ...
    std::optional<std::uint64_t> steps;  // ... or in steps (exactly one of them)
    double sample_every = 1.0;           // tau_s between samples (a multiple of dt)
    std::string backend = "cpu";         // a registered backend or auto (backends/registry.hpp)
    std::string hi_kernel = "auto";      // auto, fast or a kernel of the backend (backends/hi_kernel_choice.hpp)
    precision_mode precision = reference_precision_mode;
    integrator_kind integrator = integrator_kind::euler;
    bool write_trajectory = true;            // particles/ group (positions, velocities, forces)
    std::optional<double> checkpoint_every;  // tau_s between checkpoints (a multiple of dt); none: wall clock only
    double min_separation = 1.0;             // a: a blow-up when two centres come closer (0: off)
    device_selection devices;                // run.devices; not given: one device (core/device_selection.hpp)

    std::uint64_t total_steps() const;  // from time or steps
    std::uint64_t sample_interval_steps() const;
    std::uint64_t checkpoint_interval_steps() const;  // 0 without checkpoint_every
};

// Streaming observables the scenario asks for (engine/observables/include/stokesian/observables/).
struct observable_settings {
    // Extrema of one coordinate of one particle -> period and amplitude per cycle (paper Sec. 5).
    struct cycle_spec {
        std::size_t particle = 0;             // 0-based index
        int component = 0;                    // 0 = x, 1 = y, 2 = z
        double window = 1e4;                  // tau_s: period and amplitude averaged over windows (paper)
        double period_jump_tolerance = 0.05;  // relative: loss of periodicity (engine/docs/observables.md)
    };
    std::optional<cycle_spec> cycle;
    bool tetrahedron_symmetry = false;  // symmetry residuals of the four-sphere configuration
    // Positive definiteness of the dense 3N x 3N mobility matrix (LAPACK), every `every` samples.
    struct positive_definiteness_spec {
        std::uint64_t every = 100;
    };
    std::optional<positive_definiteness_spec> positive_definiteness;
    bool pair_gap = false;         // gap, decay rate vs the lubrication law (two particles)
    bool velocity_spread = false;  // mean velocity and spread over the particles per sample
};

// Where and how the run is written. The base holds the members of the keys a build appends to the
// [output] table (CMake's STOKESIAN_EXTRA_OUTPUT_KEY_HEADERS; none by default).
struct output_settings : output_key_extensions {
    // /h5md/author name. Precedence: --author, then $STOKESIAN_AUTHOR, then this, then the account
    // name (io/provenance.hpp); empty: not set by the scenario.
    std::string author;
};

// [particles.file]: positions read from an H5MD, NumPy (.npy) or XYZ file. Kept with the scenario
// so that the resolved configuration says where its positions came from.
struct positions_file_settings {
    std::string path;                    // as written: relative to the scenario file's folder
    std::string format;                  // "h5md", "npy" or "xyz"; from the file name when not given
    std::optional<std::uint64_t> frame;  // h5md and xyz: the frame read (the last when not given)
    std::string group = "trajectory";    // h5md: the particles group, particles/<group>/position
};

// [particles.random]: spheres placed one by one at uniformly random points of the box, each at least
// a surface gap from every sphere placed before (random sequential addition). Two of count, volume
// fraction and the box edges give the third.
struct random_suspension_settings {
    std::optional<std::uint64_t> count;     // N
    std::optional<double> volume_fraction;  // phi = N (4/3) pi a^3 / V
    double min_gap = 0.0;                   // the least surface gap r - 2a between two spheres, in a
    std::uint64_t seed = 1;                 // of std::mt19937_64 (core/portable_random.hpp)
};

struct scenario {
    std::string name;
    std::string description;
    std::string case_name;  // for files with [cases]
    std::filesystem::path source_path;
    std::string source_text;  // the file as read (stored as provenance)
    system_parameters system;
    initial_state particles;
    // Where the positions came from when neither written out nor a lattice (resolved: format, frame,
    // count, volume fraction); at most one is set.
    std::optional<positions_file_settings> positions_file;
    std::optional<random_suspension_settings> random_suspension;
    run_settings run;
    observable_settings observables;
    output_settings output;
};

}  // namespace stokesian
