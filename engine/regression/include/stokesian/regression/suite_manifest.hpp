#pragma once
// A suite manifest (reference_data/suites/*.toml, format in reference_data/README.md): the runs of
// a regression suite, each a scenario with its case, precision mode, dt, run length, integrator
// and sampling, and the HI kernel to use on each backend.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stokesian::regression {

struct suite_run_spec {
    std::string name;                // output file <name>.h5; [A-Za-z0-9_.-]+, unique
    std::filesystem::path scenario;  // resolved against the manifest's directory
    std::string case_name;
    std::string precision;      // "hi=X,int=Y"
    double dt = 0.0;            // tau_s
    double time = 0.0;          // run length in tau_s
    double sample_every = 1.0;  // tau_s
    std::string integrator = "euler";
    std::string backend;  // empty: the suite's default ("auto")
    // The HI kernel per registered backend, from the keys <backend>_hi_kernel (cpu_hi_kernel,
    // cuda_hi_kernel, ...); a backend without one runs auto (backends/hi_kernel_choice.hpp).
    std::map<std::string, std::string> hi_kernels;
    unsigned threads = 0;  // CPU threads (0: cores / concurrent runs)
    bool write_trajectory = false;
    bool scalable = true;  // --scale shortens it (false: already short, keep its length)
    // Negative controls only (reference_data/suites/negative_control.toml): after the run, label the
    // result as this precision mode, as a bug that runs the wrong mode would; the result keeps a
    // /parameters/negative_control group saying so.
    std::string relabel_precision;
    std::string negative_control;  // what the perturbation is (text; required with relabel_precision)
    // Negative controls only: the reference folder whose entry of this (perturbed) run stores the
    // boundaries it is verified in segments against, resolved against the manifest's directory;
    // empty: --reference-dir (engine/docs/segmented-verification.md, "The negative control").
    std::filesystem::path segment_references;
};

struct suite_manifest {
    std::filesystem::path source;
    std::string name, description;
    std::string batch;  // [suite] batch: "off", "auto" or "on" (suite_runner.hpp, batch_mode); "": not given
    std::vector<suite_run_spec> runs;
};

// Throws input_error naming the file, the run and the key.
suite_manifest load_suite_manifest(const std::filesystem::path& path);
suite_manifest parse_suite_manifest(const std::string& text, const std::filesystem::path& origin);

// The run length after --scale: time x scale rounded to whole sample intervals, at least one
// (unchanged for runs with scalable = false).
double scaled_time(const suite_run_spec& run, double scale);

}  // namespace stokesian::regression
