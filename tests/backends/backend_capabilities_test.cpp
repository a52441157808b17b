// Backends are told apart by their registered capabilities, never by their names: a backend added
// from a test that computes on a device as CUDA does (capabilities::devices), or batches its runs
// as the CPU does (capabilities::batches_runs), is batched, sized and recorded as such
// (run/batched_runs.hpp, run/run_size.hpp, regression/observed_run.hpp, engine/README.md "How to
// add a backend"), and timed and compared as such by `bench fcc` (bench/support/timed_backends.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include "bench/support/fcc_results.hpp"
#include "bench/support/timed_backends.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/reference_key.hpp"
#include "stokesian/run/batched_runs.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/run/run_size.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/scratch_directory.hpp"
#include "support/still_engine.hpp"

using namespace stokesian;

namespace {

scenario capability_scenario() {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
}

// A backend named like neither cpu nor cuda: on a device (devices = 1, as cuda) or on the host
// (devices = 0, as cpu), whose runs batch or not.
const backends::backend& capability_backend(const std::string& name, unsigned devices, bool batches_runs) {
    backends::registry& r = backends::backend_registry();
    if (const backends::backend* known = r.find(name)) return *known;
    backends::backend b;
    b.name = name;
    b.title = "the " + name + " backend";
    b.can.devices = devices;
    b.can.batches = true;
    b.can.batches_runs = batches_runs;
    const bool device = devices > 0;
    b.make_engine = [device](const engine_config& c, const device_context&, const initial_state& s) {
        return std::unique_ptr<engine>(new test_support::still_engine(c, s, device));
    };
    r.add(std::move(b));
    return *r.find(name);
}

// capability_backend with a phase timer (backend::time_phases: whatever it times, `bench fcc` may
// time it), under the name `name`.
const backends::backend& timed_capability_backend(const std::string& name, unsigned devices) {
    backends::registry& r = backends::backend_registry();
    if (r.find(name) == nullptr) {
        backends::backend b = capability_backend(name + "-untimed", devices, false);
        b.name = name;
        b.time_phases = [](const engine_config&, const initial_state&, const phase_run&) { return phase_timing{}; };
        r.add(std::move(b));
    }
    return *r.find(name);
}

// One timed configuration of `bench fcc` whose HI update took `hi_ms` (median) per step.
bench::fcc_measurement timed_configuration(const std::string& backend, std::size_t particles, double hi_ms) {
    bench::fcc_measurement m{backend, "k", reference_precision_mode, particles, {}, {}};
    m.timing.phase[static_cast<std::size_t>(step_phase::hi)].median_ms = hi_ms;
    m.row = {{"hi_median_ms", hi_ms}, {"step_median_ms", 2 * hi_ms}};
    return m;
}

run_request capability_request(const std::string& backend) {
    run_request q;
    q.scenario_ = capability_scenario();
    q.scenario_.run.backend = backend;
    q.threads = 1;
    return q;
}

initial_state capability_particles(std::size_t n) {
    initial_state s;
    for (std::size_t i = 0; i < n; ++i) {
        s.positions.push_back({3.0 * double(i % 64), 3.0 * double(i / 64 % 64), 3.0 * double(i / 4096)});
        s.external_forces.push_back({0, 0, -1});
    }
    return s;
}

class BackendCapabilities : public test_support::scratch_directory_test {
protected:
    BackendCapabilities() : scratch_directory_test("stokesian_backend_capabilities") {}
};

}  // namespace

// Runs batch where the backend says a batch member computes what the run computes alone, whatever
// its name; a backend whose batch factory runs another engine (as cuda's) keeps its runs alone.
TEST(BackendCapabilitiesBatching, RunsBatchWhereTheBackendSaysItsBatchesAreItsRuns) {
    const std::string batching = capability_backend("test-batching-device", 1, true).name;
    const std::string alone = capability_backend("test-alone-device", 1, false).name;
    std::string why;
    const std::string key = batch_key(capability_request(batching), &why);
    EXPECT_EQ(key.rfind(batching + "|", 0), 0u) << key << " / " << why;
    why.clear();
    EXPECT_EQ(batch_key(capability_request(alone), &why), "");
    EXPECT_EQ(why, "backend " + alone + " runs alone what no batch runs");
}

// A backend whose batch runs one of its kernels (as cuda's runs its kernel "fused") batches the runs
// of that kernel and keeps the others alone.
TEST(BackendCapabilitiesBatching, RunsOfTheBatchKernelBatchAndOthersRunAlone) {
    backends::registry& r = backends::backend_registry();
    const std::string name = "test-kernel-batching";
    if (r.find(name) == nullptr) {
        backends::backend b = capability_backend("test-kernel-batching-base", 1, true);
        b.name = name;
        b.can.hi_kernels = {"step", "whole"};
        b.can.batch_kernel = "whole";
        r.add(std::move(b));
    }
    run_request q = capability_request(name);
    q.scenario_.run.hi_kernel = "whole";
    std::string why;
    EXPECT_EQ(batch_key(q, &why).rfind(name + "|whole|", 0), 0u) << why;
    q.scenario_.run.hi_kernel = "step";
    why.clear();
    EXPECT_EQ(batch_key(q, &why), "");
    EXPECT_EQ(why, "backend " + name + " batches runs of hi-kernel whole, not step");
}

// The size estimate times a device backend on the larger sample (32768 particles) and a host
// backend on the smaller one (2048), by capabilities::devices, not by the name "cpu".
TEST(BackendCapabilitiesRunSize, TheSampleFollowsWhetherTheBackendComputesOnADevice) {
    const initial_state state = capability_particles(40000);
    engine_config c = make_engine_config(capability_scenario());
    c.backend = capability_backend("test-sized-device", 1, false).name;
    run_size_estimate e = estimate_run_size(c, state);
    EXPECT_EQ(e.backend, "test-sized-device");
    EXPECT_EQ(e.measured_particles, 32768u);
    c.backend = capability_backend("test-sized-host", 0, false).name;
    e = estimate_run_size(c, state);
    EXPECT_EQ(e.backend, "test-sized-host");
    EXPECT_EQ(e.measured_particles, 2048u);
}

// A result of a backend on a device records the engine's device in its reference provenance and is
// of the gpu reference class; one of a host backend names the host and is of the cpu class.
TEST_F(BackendCapabilities, AResultRecordsTheDeviceOfABackendThatComputesOnOne) {
    for (const bool device : {true, false}) {
        const std::string name = device ? "test-recorded-device" : "test-recorded-host";
        run_request q = capability_request(capability_backend(name, device ? 1 : 0, false).name);
        q.scenario_.run.time = 1.0;
        q.scenario_.run.steps.reset();
        q.output.path = dir_ / (name + ".h5");
        q.invocation = {{"host", "testhost"}};
        ASSERT_EQ(run_scenario(q).status.rfind("completed", 0), 0u) << name;
        const regression::observed_run r = regression::read_observed_run(q.output.path);
        EXPECT_EQ(r.provenance.at("backend"), name);
        EXPECT_EQ(r.provenance.at("device_name"), device ? "Test Device 7" : "CPU (host testhost)") << name;
        EXPECT_EQ(r.provenance.at("compute_capability"), device ? "7.7" : "-") << name;
        EXPECT_EQ(r.key.backend_class, device ? "gpu" : "cpu") << name;
        EXPECT_EQ(regression::backend_class_of(name), device ? "gpu" : "cpu");
    }
    EXPECT_THROW(regression::backend_class_of("tpu"), std::invalid_argument);
}

// `bench fcc` times a backend that computes on a device with the device kernels and one on the host
// with the host's loop (timed_backends::on_device, on_host), and gives the device's rows and fits
// their speedup over the host's, by capabilities::devices: backends named like neither cpu nor cuda.
TEST(BackendCapabilitiesBench, FccPairsADeviceBackendWithAHostBackendWhateverTheirNames) {
    const std::string device = timed_capability_backend("test-timed-device", 1).name;
    const std::string host = timed_capability_backend("test-timed-host", 0).name;
    const bench::timed_backends timed = bench::phase_timed_backends({device, host, device});
    ASSERT_EQ(timed.on_device.size(), 1u);
    EXPECT_EQ(timed.on_device.front()->name, device);
    ASSERT_EQ(timed.on_host.size(), 1u);
    EXPECT_EQ(timed.on_host.front()->name, host);
    EXPECT_EQ(timed.names(), host + "," + device);
    EXPECT_EQ(std::string(bench::computes_on(device)), "device");  // the tables' column
    EXPECT_EQ(std::string(bench::computes_on(host)), "host");
    // A backend with no phase timer is refused by name.
    EXPECT_THROW(bench::phase_timed_backends({capability_backend("test-recorded-host", 0, false).name}), input_error);

    std::vector<bench::fcc_measurement> all{timed_configuration(device, 1000, 2.0),
                                            timed_configuration(host, 1000, 10.0),
                                            timed_configuration(device, 2000, 4.0)};
    bench::results_table fits = bench::fit_table();
    bench::add_fits(all, fits);
    ASSERT_TRUE(all[0].row.count("speedup_vs_cpu"));
    EXPECT_EQ(std::get<double>(all[0].row.at("speedup_vs_cpu")), 5.0);  // host 10 ms / device 2 ms at N = 1000
    EXPECT_EQ(all[1].row.count("speedup_vs_cpu"), 0u);                  // the host's own row
    EXPECT_EQ(all[2].row.count("speedup_vs_cpu"), 0u);                  // no host time at N = 2000
    // The fits: one per backend and quantity; the device's compared with the host's (quadratic regime).
    ASSERT_EQ(fits.rows(), 4u);
    for (std::size_t i = 0; i < fits.rows(); ++i) {
        const bool on_device = fits.texts("backend")[i] == device;
        EXPECT_EQ(fits.texts("computes_on")[i], on_device ? "device" : "host");
        EXPECT_EQ(std::isfinite(fits.numbers("speedup_vs_cpu")[i]), on_device) << fits.texts("backend")[i];
    }
}
