// Files and limits that made the CLI hang, die without a word or flood its one line (issue #27,
// items 3, 13, 17, 18, 19; engine/docs/reliability.md, "Bad input"):
//   - an HDF5 external link in a result, a reference file or a checkpoint (here to a FIFO, which
//     blocks whoever opens it) is refused, never followed;
//   - `analyze` of a live run's partial output: in use by that run, not damaged;
//   - a run past the file size limit with SIGXFSZ at its default action (as CI runners leave it):
//     the one-line "file too large" answer, not a kill by the signal;
//   - positions whose pair distances overflow a double: refused when the scenario is loaded;
//   - a 900 kB status attribute is echoed shortened.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <hdf5.h>

#include "inputs/hdf5/bad_hdf5_corpus.hpp"
#include "output_rule_support.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "support/build_paths.hpp"
#include "support/cli_expectations.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::cli_outcome;
using test_support::cli_process;
using test_support::run_cli;
using test_support::run_cli_at_most;

namespace {

using ::stokesian::test_support::expect_one_line_exit_two;

namespace h5 = io::hdf5;

using ::stokesian::test_support::tetrahedron_toml;
const std::string checks = ::stokesian::test_support::checkout_file("reference_data/checks.toml");

// A refusal takes well under a second; a command still running after this is blocked.
constexpr double reader_patience_seconds = 20.0;

// The object `name` of the HDF5 file `path` replaced by an external link to `name` in `target`.
void link_to_another_file(const fs::path& path, const std::string& name, const fs::path& target) {
    const h5::file file(h5::check(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening " + path.string()));
    h5::check(H5Ldelete(file.get(), name.c_str(), H5P_DEFAULT), "deleting " + name);
    h5::check(H5Lcreate_external(target.c_str(), name.c_str(), file.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
              "linking " + name);
}

// The first member of the root group of the HDF5 file `path`.
std::string first_root_member(const fs::path& path) {
    const h5::file file(h5::check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "opening " + path.string()));
    std::string first;
    auto take = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        *static_cast<std::string*>(out) = name;
        return 1;  // stop
    };
    h5::check(H5Literate(file.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, take, &first), "listing /");
    return "/" + first;
}

class ReaderSafety : public test_support::cli_scratch_test {
protected:
    ReaderSafety() : cli_scratch_test("stokesian_reader_safety") {}

    // A short completed tetrahedron result.
    fs::path short_result(const std::string& name = "r.h5") const {
        return output_rule::short_result(dir_ / name, capture());
    }

    // A reference directory with an entry recorded from `result`.
    fs::path references_of(const fs::path& result) const {
        const fs::path references = dir_ / "references";
        const cli_outcome o = run_cli(
            {"reference", "record", result.string(), "--reference-dir", references.string(), "--checks", checks},
            capture());
        EXPECT_EQ(o.exit_code, 0) << o.err;
        return references;
    }
};

}  // namespace

// ---- item 3: external links are never followed -------------------------------------------------

TEST_F(ReaderSafety, AResultGroupLinkedToAFifoIsRefusedByAnalyzeAndReferenceCheckAndRecord) {
    const fs::path result = short_result();
    const fs::path references = references_of(result);
    const fs::path fifo = dir_ / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string group : {"/parameters", "/analysis"}) {
        const fs::path linked = dir_ / ("linked" + std::string(group).replace(0, 1, "_") + ".h5");
        fs::copy_file(result, linked);
        link_to_another_file(linked, group, fifo);
        const std::vector<std::vector<std::string>> commands{
            {"analyze", linked.string()},
            {"reference", "check", linked.string(), "--reference-dir", references.string()},
            {"reference", "record", linked.string(), "--reference-dir", (dir_ / "new").string(), "--checks", checks},
        };
        for (const auto& command : commands) {
            const std::string what = command[0] + " " + command[1] + " with " + group + " linked to a FIFO";
            const cli_outcome o = run_cli_at_most(reader_patience_seconds, command, capture());
            expect_one_line_exit_two(o, linked.string() + ": ", what);
            // The target's name comes from the file: shortened like every text from a file.
            EXPECT_NE(o.err.find("external link '" + group + "' to '" + group + "' in '" + fifo.string().substr(0, 40)),
                      std::string::npos)
                << what << ": " << o.err;
        }
    }
}

TEST_F(ReaderSafety, AReferenceFileOrACheckpointWithAnExternalLinkIsRefused) {
    const fs::path result = short_result();
    const fs::path references = references_of(result);
    const fs::path fifo = dir_ / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);

    const fs::path reference = references / "tetrahedron.h5";
    const std::string entry_level = first_root_member(reference);
    link_to_another_file(reference, entry_level, fifo);
    const cli_outcome checked =
        run_cli_at_most(reader_patience_seconds,
                        {"reference", "check", result.string(), "--reference-dir", references.string()}, capture());
    expect_one_line_exit_two(checked, reference.string() + ": ", "reference file");
    EXPECT_NE(checked.err.find("external link '" + entry_level + "'"), std::string::npos) << checked.err;

    // An interrupted run's files (bad_hdf5_corpus.hpp) with its checkpoint's run record linked away.
    const fs::path base = dir_ / "base";
    test_inputs::write_valid_base_files(base);
    const fs::path out = dir_ / "out.h5";
    for (const char* suffix : {"", ".checkpoint", ".frames"})
        fs::copy_file(fs::path(base / "interrupted.h5") += suffix, fs::path(out) += suffix);
    link_to_another_file(fs::path(out) += ".checkpoint", "/checkpoint/run", fifo);
    const cli_outcome resumed = run_cli_at_most(reader_patience_seconds, {"run", "--resume", out.string()}, capture());
    expect_one_line_exit_two(resumed, out.string() + ".checkpoint: ", "checkpoint");
    EXPECT_NE(resumed.err.find("external link '/checkpoint/run'"), std::string::npos) << resumed.err;
}

// ---- item 17: a live run's partial output is in use, not damaged ---------------------------------

TEST_F(ReaderSafety, AnalyzeOfALiveRunsPartialOutputSaysWhichRunIsWritingIt) {
    const fs::path out = dir_ / "live.h5", partial = fs::path(out) += ".partial";
    // Twenty million steps: far longer than this test; killed at its end.
    cli_process live({"run", tetrahedron_toml, "--time", "200000", "--sample-every", "10", "--threads", "1",
                      "--no-trajectory", "-o", out.string()},
                     capture());
    ASSERT_TRUE(test_support::wait_for_file(partial, std::chrono::seconds(20))) << "the run never started";
    // Its superblock and /parameters are written and flushed right after the file is created.
    for (int waited = 0; fs::file_size(partial) == 0 && waited < 2000; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const cli_outcome o = run_cli({"analyze", partial.string()}, capture());
    expect_one_line_exit_two(o, partial.string() + ": in use: the run of process " + std::to_string(live.pid()),
                             "analyze of a live partial output");
    EXPECT_EQ(o.err.find("damaged"), std::string::npos) << o.err;
    live.signal(SIGKILL);
    live.wait();
}

// ---- item 13: the file size limit with SIGXFSZ at its default action -------------------------------

TEST_F(ReaderSafety, ARunPastTheFileSizeLimitSaysSoInsteadOfDyingOfSigxfsz) {
    const std::string prlimit = "/usr/bin/prlimit";
    if (!fs::exists(prlimit)) GTEST_SKIP() << "no " << prlimit << " (util-linux)";
    const fs::path out = dir_ / "t.h5";
    // The child inherits the disposition: the default one, whatever ctest set for this process.
    const auto previous = std::signal(SIGXFSZ, SIG_DFL);
    cli_process limited({"--fsize=1048576", test_support::cli_program(), "run", tetrahedron_toml, "--time", "2000",
                         "--sample-every", "0.01", "-o", out.string()},
                        capture(), prlimit);
    const cli_outcome o = limited.wait_at_most(60.0);
    std::signal(SIGXFSZ, previous);
    EXPECT_NE(o.exit_code, 128 + SIGXFSZ) << "killed by SIGXFSZ";
    expect_one_line_exit_two(o, "file too large: " + out.string() + ".", "1 MiB file size limit");
}

// ---- item 18: positions whose pair distances overflow ----------------------------------------------

TEST_F(ReaderSafety, MobilityCheckOfPositionsWhosePairDistancesOverflowIsOneLine) {
    const std::string scenario =
        ::stokesian::test_support::checkout_file("tests/inputs/bad/positions_pair_distance_overflows.toml");
    for (const char* method : {"auto", "cholesky", "eigen", "lanczos"}) {
        const cli_outcome o = run_cli({"mobility-check", scenario, "--method", method}, capture());
        expect_one_line_exit_two(o, scenario + ": key 'particles.positions'", method);
        EXPECT_NE(o.err.find("particles 0 and 1"), std::string::npos) << method << ": " << o.err;
    }
}

// ---- item 19: text from a file is echoed shortened ---------------------------------------------------

TEST_F(ReaderSafety, AHugeStatusAttributeIsEchoedShortened) {
    const fs::path intact = short_result("intact.h5");
    const fs::path references = references_of(intact);
    const fs::path result = dir_ / "huge_status.h5";
    fs::copy_file(intact, result);
    const std::string status(900000, 'x');
    {
        const h5::file file(h5::check(H5Fopen(result.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening the result"));
        const h5::group run(h5::check(H5Gopen2(file.get(), "/parameters/run", H5P_DEFAULT), "opening the group"));
        io::write_string_attribute(run.get(), "status", status);
    }
    const cli_outcome recorded = run_cli(
        {"reference", "record", result.string(), "--reference-dir", (dir_ / "new").string(), "--checks", checks},
        capture());
    expect_one_line_exit_two(recorded, "the run did not complete", "record");
    EXPECT_LT(recorded.err.size(), 400u) << recorded.err.substr(0, 400);
    const cli_outcome checked =
        run_cli({"reference", "check", result.string(), "--reference-dir", references.string()}, capture());
    EXPECT_EQ(checked.exit_code, 1) << checked.err.substr(0, 400);
    EXPECT_NE(checked.out.find("the run did not complete"), std::string::npos) << checked.out.substr(0, 2000);
    EXPECT_EQ(checked.out.find(std::string(1000, 'x')), std::string::npos) << "the status echoed whole";
}
