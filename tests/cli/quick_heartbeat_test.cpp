// The heartbeat in CI logs (tools/cli/heartbeat.hpp, issue #14): when stderr is not a terminal,
// `stokesian run`, `suite run` and `study` print a progress line every --heartbeat seconds on
// stderr (from the run's sample events, run_request::on_event; from the suite's status), none with
// --heartbeat 0; a negative interval is bad input. Tiny intervals keep the runs short.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

namespace {

const fs::path source = ::stokesian::test_support::project_source_dir;

class Heartbeat : public stokesian::test_support::scratch_directory_test {
protected:
    Heartbeat() : scratch_directory_test("stokesian_heartbeat") {}
};

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
}

}  // namespace

TEST_F(Heartbeat, RunPrintsAProgressLineEveryIntervalWhenStderrIsNotATerminal) {
    // ~0.5-2 s of steps on one thread; samples (and so heartbeat chances) every ~0.2 s of wall time.
    const std::vector<std::string> run{"run",
                                       (source / "scenarios/tetrahedron.toml").string(),
                                       "--time",
                                       "4000",
                                       "--threads",
                                       "1",
                                       "--no-trajectory",
                                       "--heartbeat"};
    std::vector<std::string> beating = run;
    beating.insert(beating.end(), {"0.05", "-o", (dir_ / "a.h5").string()});
    const cli_outcome o = run_cli(beating, dir_);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const std::size_t beats = lines_starting(o.err, "heartbeat ");
    EXPECT_GE(beats, 1u) << o.err;
    EXPECT_NE(o.err.find(" run a.h5: ["), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(" steps/s "), std::string::npos) << o.err;
    EXPECT_EQ(lines_starting(o.out, "heartbeat "), 0u) << o.out;  // stdout stays the command's (--json)

    std::vector<std::string> silent = run;
    silent.insert(silent.end(), {"0", "-o", (dir_ / "b.h5").string()});
    const cli_outcome quiet = run_cli(silent, dir_);
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(lines_starting(quiet.err, "heartbeat "), 0u) << quiet.err;

    std::vector<std::string> bad = run;
    bad.insert(bad.end(), {"-1", "-o", (dir_ / "c.h5").string()});
    const cli_outcome refused = run_cli(bad, dir_);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_FALSE(fs::exists(dir_ / "c.h5"));
}

TEST_F(Heartbeat, SuiteRunPrintsTheSuiteStatusEveryInterval) {
    const cli_outcome o = run_cli({"suite", "run", (source / "reference_data/suites/nightly.toml").string(),
                                   "--backend", "cpu", "--scale", "0.01", "--only", "tetrahedron_f64-f64_dt0.001",
                                   "--heartbeat", "0.05", "--output-dir", (dir_ / "suite").string()},
                                  dir_);
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_GE(lines_starting(o.err, "heartbeat "), 1u) << o.err;
    EXPECT_NE(o.err.find(" suite nightly: 0/1 runs done, 1 running"), std::string::npos) << o.err;
}
