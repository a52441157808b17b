// Inputs a hostile or careless user gives (issue #18): counts past what a double holds, text
// files without end, far-flung lattice perturbations, 100 kB option values, HDF5's reports of a
// full disk. Each is refused with one line naming it, or handled as documented.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/core/step_count.hpp"
#include "stokesian/io/hdf5_failure.hpp"
#include "stokesian/numeric/precision.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/text_input.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using namespace stokesian;

namespace {

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no exception)";
}

run_settings run_of(double dt, std::optional<double> time, std::optional<std::uint64_t> steps, double sample_every) {
    run_settings r;
    r.dt = dt;
    r.time = time;
    r.steps = steps;
    r.sample_every = sample_every;
    return r;
}

class HostileFiles : public test_support::scratch_directory_test {
protected:
    HostileFiles() : scratch_directory_test("stokesian_hostile_files") {}
};

}  // namespace

// ---- counts of steps (#18.7) ---------------------------------------------------------------------

TEST(StepCounts, WholeMultiplesWithinTheMaximumAndNothingElse) {
    EXPECT_EQ(whole_steps(0.1, 0.01), 10u);
    EXPECT_EQ(whole_steps(5170.0, 0.01), 517000u);
    EXPECT_EQ(whole_steps(double(max_step_count), 1.0), max_step_count);
    EXPECT_FALSE(whole_steps(double(max_step_count) + 2.0, 1.0));  // the next double above 2^53
    EXPECT_FALSE(whole_steps(1e300, 0.01));                        // llround overflowed here
    EXPECT_FALSE(whole_steps(1.0, 1e-300));                        // a ratio of 1e300
    EXPECT_FALSE(whole_steps(1.0, 1e-320));  // an infinite ratio passed the old "multiple of dt" test
    EXPECT_FALSE(whole_steps(1e308, 0.01));  // infinite too
    EXPECT_FALSE(whole_steps(0.105, 0.01));  // not whole
    EXPECT_FALSE(whole_steps(0.004, 0.01));  // less than one step
}

TEST(StepCounts, CommandLineCountsAreDecimalDigitsWithinTheMaximum) {
    EXPECT_EQ(read_step_count("100"), 100u);
    EXPECT_EQ(read_step_count("9007199254740992"), max_step_count);
    for (const char* text : {"-1", "0", "9007199254740993", "18446744073709551615", "1e23", "0x10", " 7", "7x", ""})
        EXPECT_FALSE(read_step_count(text)) << text;
}

// validate_run_settings guards every path into the run driver (scenario, command line, suites,
// studies, checkpoints): none of these may reach llround.
TEST(StepCounts, RunSettingsWithCountsPastTheMaximumAreRefused) {
    struct bad_case {
        run_settings run;
        std::string key;
    };
    const std::vector<bad_case> cases{
        {run_of(0.01, 1e300, std::nullopt, 1.0), "run.time"},
        {run_of(1e-300, 1.0, std::nullopt, 1.0), "run.time"},
        {run_of(0.01, std::nullopt, std::numeric_limits<std::uint64_t>::max(), 1.0), "run.steps"},  // --steps -1
        {run_of(0.01, std::nullopt, max_step_count + 1, 1.0), "run.steps"},
        {run_of(0.01, 1.0, std::nullopt, 1e308), "run.sample_every"},
        {run_of(1e-320, std::nullopt, 10, 1.0), "run.sample_every"},
    };
    for (const auto& c : cases) {
        const std::string m = message_of([&] { validate_run_settings(c.run, "command line"); });
        EXPECT_NE(m.find("key '" + c.key + "'"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    run_settings every = run_of(0.01, 1.0, std::nullopt, 1.0);
    every.checkpoint_every = 1e308;
    EXPECT_NE(message_of([&] { validate_run_settings(every, "x"); }).find("key 'run.checkpoint_every'"),
              std::string::npos);
    // The largest run accepted.
    EXPECT_NO_THROW(validate_run_settings(run_of(1.0, std::nullopt, max_step_count, 1.0), "x"));
}

// ---- text inputs read whole (#18.9) --------------------------------------------------------------

TEST_F(HostileFiles, OnlyRegularTextFilesUpToTheLimitAreRead) {
    EXPECT_NE(message_of([] {
                  load_scenario("/dev/zero");
              }).find("/dev/zero: cannot read the scenario file (not a regular file)"),
              std::string::npos);
    EXPECT_NE(message_of([&] { load_scenario(dir_); }).find("(is a directory)"), std::string::npos);
    const fs::path fifo = dir_ / "fifo.toml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(message_of([&] { load_scenario(fifo); }).find("not a regular file"), std::string::npos);  // never blocks
    // One byte past the limit (sparse: no disk space used).
    const fs::path large = dir_ / "large.toml";
    { std::ofstream(large) << "[scenario]\n"; }
    fs::resize_file(large, max_text_input_bytes + 1);
    const std::string m = message_of([&] { load_scenario(large); });
    EXPECT_NE(m.find(std::to_string(max_text_input_bytes + 1) + " bytes, more than the 64 MiB a text input may have"),
              std::string::npos)
        << m;
    fs::resize_file(large, max_text_input_bytes);
    EXPECT_EQ(read_text_input(large, "x").size(), max_text_input_bytes);
}

// ---- lattice perturbation far beyond the box (#18.11) ---------------------------------------------

TEST(HostileLattice, AnyPerturbationIsWrappedIntoTheBoxAsDocumented) {
    const double b = fcc_lattice_constant(0.1);
    const vec3<double> edges{2 * b, 2 * b, 2 * b};
    for (const double amplitude : {1e3, 1e20, 1e200, 1e308, std::numeric_limits<double>::max()}) {
        auto positions = fcc_lattice(2, b);
        perturb_positions(positions, amplitude, 7, edges);
        for (const auto& r : positions)
            for (const double x : {r.x, r.y, r.z}) {
                ASSERT_TRUE(std::isfinite(x)) << amplitude;
                ASSERT_GE(x, -0.5 * edges.x) << amplitude;
                ASSERT_LT(x, 0.5 * edges.x) << amplitude;
            }
    }
}

// ---- messages --------------------------------------------------------------------------------------

TEST(HostileMessages, LongValuesAreEchoedShortened) {
    const std::string value(100000, 'x');
    const std::string m = input_error("command line", "--precision", value, "expected hi=..,int=..").what();
    EXPECT_LT(m.size(), 200u) << m.substr(0, 300);
    EXPECT_NE(m.find("... (100000 bytes)"), std::string::npos);
    const std::string precision = message_of([&] { parse_precision_mode("hi=" + value + ",int=f32"); });
    EXPECT_LT(precision.size(), 300u) << precision.substr(0, 400);
    EXPECT_EQ(echoed("hi=f16,int=f32"), "hi=f16,int=f32");  // short values whole
}

// HDF5's sec2 driver's report of a write to a full device, as HDF5 1.10 writes it.
TEST(HostileMessages, AFullDeviceIsOneLineNamingTheFile) {
    const std::string report =
        "file write failed: time = Thu Nov 26 15:57:36 2026\n, filename = 'small/x.h5.partial', file descriptor = 3, "
        "errno = 28, error message = 'No space left on device', buf = 0x55abe2da1aa0, total write size = 64376, bytes "
        "this sub-write = 64376, bytes actually written = 18446744073709551615, offset = 0";
    const auto failure = io::hdf5::os_failure_in(report);
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->file, "small/x.h5.partial");
    EXPECT_EQ(failure->error_number, ENOSPC);
    try {
        io::hdf5::throw_failure("writing a sample", report);
        FAIL() << "no exception";
    } catch (const no_space_error& e) {
        EXPECT_EQ(std::string(e.what()), "no space left on device: small/x.h5.partial (HDF5: writing a sample)");
        EXPECT_EQ(e.path(), "small/x.h5.partial");
    }
    // Another system error stays a runtime failure, on one line.
    std::string denied = report;
    denied.replace(denied.find("errno = 28"), 10, "errno = 5");
    try {
        io::hdf5::throw_failure("writing a sample", denied);
        FAIL() << "no exception";
    } catch (const input_error& e) {
        FAIL() << "an I/O error is not the user's: " << e.what();
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "HDF5: writing a sample: file write failed: 'small/x.h5.partial': Input/output error");
    }
    EXPECT_EQ(io::hdf5::one_line_reason("truncated file: eof = 1\nmore"), "truncated file: eof = 1 more");
}
