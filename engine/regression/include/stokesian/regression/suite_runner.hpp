#pragma once
// Runs a suite's runs concurrently: a pool of `jobs` threads, each taking the next run and
// executing it with run_scenario() into <output_dir>/<name>.h5. On CUDA every host thread launches
// on its own per-thread default stream (the CUDA targets are compiled with
// --default-stream per-thread), so the small fused tetrahedron kernels of several runs overlap.
// Several manifests can share one pool (prepare_suites: `stokesian suite run A.toml B.toml`), so
// that on a GPU their runs share one CUDA context instead of time-slicing two.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/regression/reference_check.hpp"
#include "stokesian/regression/suite_manifest.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian::regression {

// Whether runs that can share a batch (stokesian/run/batched_runs.hpp) do (`--batch`, [suite] batch):
// off; auto, the default: runs on a device (CUDA, where a batch is one fused launch sequence instead
// of one per run); on: wherever they can, the CPU too (where it saves nothing: for tests).
enum class batch_mode { off, automatic, on };
batch_mode parse_batch_mode(const std::string& text);  // "off", "auto", "on"; throws std::invalid_argument
std::string to_string(batch_mode mode);

// How a run whose reference stores segment boundaries is verified (`--verify`;
// engine/docs/segmented-verification.md): in segments from the stored states, each required to end
// bit for bit at the next (a run whose segments do not is run continuously); or continuously.
enum class verify_mode { segments, continuous };
verify_mode parse_verify_mode(const std::string& text);  // "segments", "continuous"; throws std::invalid_argument

struct suite_options {
    std::string backend;  // overrides the runs' backend ("" : theirs, or auto)
    std::filesystem::path output_dir = ".";
    unsigned jobs = 0;              // 0: every run at once on CUDA, one per core on the CPU
    double scale = 1.0;             // multiplies the run lengths (scalable runs)
    bool force = false;             // replace existing outputs
    std::vector<std::string> only;  // glob patterns of run names to run (empty: all)
    // The GPUs the device runs are spread over (--gpus; place_on_gpus). Not given: every device present.
    device_selection gpus;
    // Runs that share a batch key run as one batch (suite_batching.cpp). Unset: the manifests'
    // [suite] batch, else auto.
    std::optional<batch_mode> batch;
    std::map<std::string, std::string> invocation;  // host, user, date, command (provenance)
    // Where the runs' references are (--reference-dir): runs whose entry stores segment boundaries
    // verify in segments with verify_mode::segments. Empty: every run runs continuously.
    std::filesystem::path reference_dir;
    verify_mode verify = verify_mode::segments;
    const std::atomic<int>* stop_signal = nullptr;  // non-zero: every run stops after its current step
};

struct suite_run_status {
    std::string name;
    std::string suite;  // the manifest's suite name when several share the pool, else empty
    std::filesystem::path output;
    std::string backend;            // a registered backend, as resolved (never auto)
    std::string devices;            // run.devices as placed ("1"; empty: not given, device 0 or the host)
    std::string state = "waiting";  // waiting, running, completed, failed, interrupted
    std::string message;            // the run's status line or the error
    // How it was verified: "verified in K segments", or why a run with stored boundaries ran
    // continuously (the first segment that did not end bit for bit); empty: no boundaries stored.
    std::string verification;
    std::uint64_t steps = 0, total_steps = 0;
    double wall_seconds = 0.0;
};

// "suite/name" when the run shares a pool with other manifests' runs, else "name".
std::string run_label(const suite_run_status& status);

// A prepared run: the scenario with the suite's settings applied, ready for run_scenario().
struct prepared_run {
    suite_run_spec spec;
    std::string suite;  // its manifest's suite name when several manifests share the pool, else empty
    scenario scenario_;
    std::filesystem::path output;
    std::string equivalent_command;  // `stokesian run ...` that reproduces it alone
    unsigned threads = 0;
    // Runs with the same non-empty key (run/batched_runs.hpp, batch_key) and the same run.devices
    // run as one batch; empty: alone (not batchable, or batching off).
    std::string batch_key;
};

// The reference folder holding the boundaries `run` verifies against: a negative control's own
// (suite_manifest.hpp, segment_references), else `reference_dir`.
const std::filesystem::path& boundary_folder(const prepared_run& run, const std::filesystem::path& reference_dir);
// The segment boundaries stored in the entry of `run` in `references` (boundary_folder's; a GPU run
// without a gpu entry: the cpu entry, as the check does): empty when there is none, or the
// reference file cannot be read (the check will say why).
boundary_states stored_boundaries(const prepared_run& run, reference_library& references);

// Loads and checks every run's scenario with the suite's settings, before anything runs.
// Throws input_error for a bad scenario, an override the scenario rejects, a run its backend cannot
// run (the registry's capabilities), or an output the output rule refuses (run/run_output_claim.hpp:
// an existing one without `force`; a manifest or scenario of the suite, `force` or not).
std::vector<prepared_run> prepare_suite(const suite_manifest& manifest, const suite_options& options);

// One manifest of several run in one pool, with the folder its outputs go to.
struct suite_part {
    suite_manifest manifest;
    std::filesystem::path output_dir;
};

// prepare_suite() for several manifests at once (options.output_dir is ignored: each part has its
// own). Every run is labelled with its suite's name (prepared_run::suite) when there are several
// parts; the CPU threads per run are shared out over all runs. Throws input_error as prepare_suite()
// does, and for two runs with the same output file; --only must match some run of some manifest.
std::vector<prepared_run> prepare_suites(const std::vector<suite_part>& parts, const suite_options& options);

// The work of a run for placing and ordering: its pair evaluations, N^2 x steps.
double estimated_work(const prepared_run& p);

// Longest first onto the least-loaded device: for each cost (in the order given) the index of its
// device in `loads` (each device's work so far; at least one). Ties go to the lowest index.
std::vector<std::size_t> balance_over_devices(const std::vector<double>& costs, std::vector<double> loads);

// Places the runs whose backend drives devices and that name no run.devices of their own on the
// GPUs `gpus` selects (not given: all present), by balance_over_devices(), setting run.devices to one
// ordinal (recorded in the output). With one device present and `gpus` not given nothing changes.
// Throws input_error for `gpus` naming a device that is not present, or given where no run drives
// a device (the CPU backend).
void place_on_gpus(std::vector<prepared_run>& runs, const device_selection& gpus);

// Whether a backend that computes on a device can run here (a CUDA device is present in a CUDA build).
bool device_backend_available();

// Sets the run's batch_key as `mode` allows (suite_batching.cpp): auto batches runs on a device only.
void assign_batch_key(prepared_run& run, batch_mode mode);
// The runs `among` (indices into runs) grouped by batch_key (and run.devices, with `by_device`), in
// the order of their first run; a run without a key is a group of its own.
std::vector<std::vector<std::size_t>> group_by_batch_key(const std::vector<prepared_run>& runs,
                                                         const std::vector<std::size_t>& among, bool by_device);
// The runs grouped into what runs together: each group one run alone or a batch of runs with the
// same batch_key and run.devices.
std::vector<std::vector<std::size_t>> batch_groups(const std::vector<prepared_run>& runs);
// The work of a group (estimated_work): a batch lasts as long as its longest run.
double group_work(const std::vector<prepared_run>& runs, const std::vector<std::size_t>& group);

// How many runs go at once: `requested` if set, else all of them when any runs on a device (CUDA:
// each fused tetrahedron occupies one warp), else one per core; never more than there are runs.
unsigned concurrent_runs(const std::vector<prepared_run>& runs, unsigned requested);

class suite_execution {
public:
    suite_execution(std::vector<prepared_run> runs, suite_options options);
    ~suite_execution();  // waits for the workers
    suite_execution(const suite_execution&) = delete;
    suite_execution& operator=(const suite_execution&) = delete;

    // Starts the workers. `on_finished` is called once per run, from the worker that ran it, one
    // call at a time.
    void start(std::function<void(const suite_run_status&)> on_finished);
    // Waits up to `timeout`; true when every run has ended.
    bool wait_for(std::chrono::milliseconds timeout);
    std::vector<suite_run_status> snapshot() const;
    unsigned jobs() const { return jobs_; }
    std::size_t size() const { return runs_.size(); }
    // How many batches of several runs there are, and the runs in them.
    std::size_t batches() const;
    std::size_t batched_runs() const;

private:
    void work();
    void execute(const std::vector<std::size_t>& group);
    void execute_alone(std::size_t index);
    // A run with stored boundaries (segmented_runs.cpp): in segments, else continuously.
    void execute_segmented(std::size_t index);
    void execute_batch(const std::vector<std::size_t>& group);
    run_request request_for(std::size_t index);
    void mark_running(std::size_t index);
    // The end of a run: its result, or the error it threw; reports it (on_finished).
    void ended(std::size_t index, const run_result* result, const std::exception_ptr& error);
    void report(const suite_run_status& final_status);

    std::vector<prepared_run> runs_;
    std::vector<boundary_states> boundaries_;  // per run: what verifies it in segments (empty: continuously)
    suite_options options_;
    unsigned jobs_ = 1;
    std::function<void(const suite_run_status&)> on_finished_;
    mutable std::mutex mutex_;
    std::mutex report_mutex_;
    std::condition_variable all_done_;
    std::vector<suite_run_status> status_;
    std::vector<std::vector<std::size_t>> groups_;  // batch_groups(runs_)
    std::vector<std::size_t> order_;                // the groups' indices, longest (estimated_work) first
    std::atomic<std::size_t> next_{0};
    std::size_t ended_ = 0;
    std::vector<std::thread> workers_;
};

}  // namespace stokesian::regression
