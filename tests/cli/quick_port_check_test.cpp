// `stokesian port-check` as a user meets it: record, compare, the report files and the exit codes
// (0 pass, 1 FAIL, 2 bad input with one line). The verdicts themselves are derived and tested in
// tests/port/port_check_compare_test.cpp; here: the command's contract.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/text_checks.hpp"

using stokesian::test_support::line_count;
using stokesian::test_support::with;

namespace fs = std::filesystem;
using stokesian::test_support::read_text;
using stokesian::test_support::run_cli;

namespace {

struct workspace {
    fs::path dir = fs::temp_directory_path() / ("port_check_cli_" + std::to_string(::getpid()));
    workspace() { fs::create_directories(dir); }
    ~workspace() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};

// Two small configurations and three modes keep the test quick; the full set runs the same code.
const std::vector<std::string> small{
    "--configs", "tetrahedron,fcc_500", "--precision", "hi=f64,int=f64;hi=ds,int=f32;hi=f32,int=f32", "--threads", "2"};

}  // namespace

TEST(PortCheckCli, RecordTwiceCompareIsBitwiseWithAReport) {
    workspace w;
    const fs::path a = w.dir / "a.h5", b = w.dir / "b.h5", report = w.dir / "report";
    ASSERT_EQ(run_cli(with({"port-check", "record", a.string()}, small), w.dir).exit_code, 0);
    ASSERT_EQ(run_cli(with({"port-check", "record", b.string(), "--steps", "3"}, small), w.dir).exit_code, 0);
    const auto r = run_cli({"port-check", "compare", a.string(), b.string(), "--report", report.string()}, w.dir);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
    for (const char* f : {"report.md", "report.html", "report.json", "histograms.csv", "verdicts.csv"})
        EXPECT_TRUE(fs::is_regular_file(report / f)) << f;
    const std::string md = read_text(report / "report.md");
    EXPECT_NE(md.find("| hi=f64,int=f64 | bitwise |"), std::string::npos) << md;
    EXPECT_EQ(md.find("FAIL"), std::string::npos);
    EXPECT_NE(read_text(report / "report.json").find("\"passed\":true"), std::string::npos);
    // existing output is not replaced without --force
    const auto again = run_cli(with({"port-check", "record", a.string()}, small), w.dir);
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_EQ(line_count(again.err), 1u) << again.err;
}

TEST(PortCheckCli, SwappedModeIsFailWithExitOne) {
    workspace w;
    const fs::path a = w.dir / "a.h5", b = w.dir / "b.h5";
    ASSERT_EQ(run_cli(with({"port-check", "record", a.string()}, small), w.dir).exit_code, 0);
    ASSERT_EQ(run_cli(with({"port-check", "record", b.string(), "--swap-mode", "hi=f32,int=f32:hi=f64,int=f64"}, small),
                      w.dir)
                  .exit_code,
              0);
    const auto r = run_cli(
        {"port-check", "compare", a.string(), b.string(), "--report", (w.dir / "rep").string(), "--no-plots"}, w.dir);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("hi=f64,int=f64: FAIL"), std::string::npos) << r.out;
    EXPECT_NE(read_text(w.dir / "rep" / "report.md").find("FAIL"), std::string::npos);
    // Without the renderer's Python (a GPU host with the bundle only) the data stays complete, the
    // verdict and exit status are the comparison's, and the command says how to render later.
    const auto bare = run_cli({"port-check", "compare", a.string(), b.string(), "--report", (w.dir / "bare").string(),
                               "--python", (w.dir / "no-python").string()},
                              w.dir);
    EXPECT_EQ(bare.exit_code, 1) << bare.out << bare.err;
    EXPECT_NE(bare.out.find("hi=f64,int=f64: FAIL"), std::string::npos) << bare.out;
    EXPECT_NE(bare.out.find("render"), std::string::npos) << bare.out;
    EXPECT_NE(bare.out.find("report: " + (w.dir / "bare" / "report.json").string()), std::string::npos) << bare.out;
    EXPECT_NE(read_text(w.dir / "bare" / "report.json").find("\"passed\":false"), std::string::npos);
    EXPECT_FALSE(fs::exists(w.dir / "bare" / "report.md"));
}

// An error once the record has begun (its progress line open) starts on a line of its own; an
// explicit backend this host cannot run is refused before the progress begins (one line).
TEST(PortCheckCli, AnErrorDuringTheRecordStartsOnItsOwnLine) {
    workspace w;
    const fs::path x = w.dir / "x.h5";
    auto r = run_cli({"port-check", "record", x.string(), "--configs", "tetrahedron", "--hi-kernel", "tiling"}, w.dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("\nstokesian: unknown CPU hi-kernel 'tiling'"), std::string::npos) << r.err;
    EXPECT_TRUE(r.err.ends_with("\n")) << r.err;
    EXPECT_FALSE(fs::exists(x));
    EXPECT_FALSE(fs::exists(w.dir / "x.h5.partial"));
    r = run_cli({"port-check", "record", x.string(), "--configs", "tetrahedron", "--backend", "cuda"}, w.dir);
    if (r.exit_code == 0) return;  // a host with a CUDA device
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("stokesian: ", 0), 0u) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("CUDA"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(x));
}

TEST(PortCheckCli, BadInputIsExitTwoWithOneLine) {
    workspace w;
    const fs::path a = w.dir / "a.h5";
    ASSERT_EQ(run_cli(with({"port-check", "record", a.string()}, small), w.dir).exit_code, 0);
    // missing file
    auto r = run_cli({"port-check", "compare", a.string(), (w.dir / "missing.h5").string(), "--no-plots"}, w.dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("missing.h5"), std::string::npos);
    // another schema: an H5MD run output is not a port-check record
    const fs::path run = w.dir / "tet.h5";
    ASSERT_EQ(
        run_cli({"run", std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml",
                 "--steps", "10", "--output", run.string()},
                w.dir)
            .exit_code,
        0);
    r = run_cli({"port-check", "compare", a.string(), run.string(), "--no-plots"}, w.dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("not a port-check record"), std::string::npos) << r.err;
    // not HDF5 at all
    const fs::path text = w.dir / "text.h5";
    std::ofstream(text) << "hello\n";
    r = run_cli({"port-check", "compare", text.string(), a.string(), "--no-plots"}, w.dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    // unknown configuration and mode
    r = run_cli({"port-check", "record", (w.dir / "x.h5").string(), "--configs", "cube"}, w.dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    r = run_cli({"port-check", "record", (w.dir / "x.h5").string(), "--precision", "hi=f16,int=f32"}, w.dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_FALSE(fs::exists(w.dir / "x.h5"));
    // a configuration of a tensor this build does not register: its allowance is unknown
    const fs::path unknown = w.dir / "unknown_tensor.h5";
    fs::copy_file(a, unknown);
    {
        namespace io = stokesian::io;
        const io::hdf5::file f(H5Fopen(unknown.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
        ASSERT_GE(f.get(), 0);
        io::write_string_attribute(io::require_group(f.get(), "/configurations/fcc_500").get(), "tensor", "stokeslet");
    }
    r = run_cli({"port-check", "compare", a.string(), unknown.string(), "--no-plots"}, w.dir);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("tensor 'stokeslet'"), std::string::npos) << r.err;
}

TEST(PortCheckCli, LongRunObservablesAreCheckedPerMode) {
    // One shortened suite run (fcc, f64, --scale 0.01: one step) against its scale-0.01 reference
    // passes; the same run against the full-length references fails (run.length differs), exit 1.
    workspace w;
    const fs::path a = w.dir / "a.h5", suite = w.dir / "suite";
    ASSERT_EQ(run_cli({"port-check", "record", a.string(), "--configs", "tetrahedron", "--precision", "hi=f64,int=f64"},
                      w.dir)
                  .exit_code,
              0);
    const std::string source = ::stokesian::test_support::project_source_dir;
    const auto s = run_cli({"suite", "run", source + "/reference_data/suites/nightly.toml", "--backend", "cpu",
                            "--scale", "0.01", "--only", "fcc_sedimentation_f64-f64", "--output-dir", suite.string()},
                           w.dir);
    ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
    const std::string result = (suite / "fcc_sedimentation_f64-f64.h5").string();
    auto r = run_cli({"port-check", "compare", a.string(), a.string(), "--report", (w.dir / "ok").string(),
                      "--no-plots", "--reference-dir", source + "/reference_data/scale-0.01", "--results", result},
                     w.dir);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("hi=f64,int=f64: bitwise"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("long runs pass (1 runs)"), std::string::npos) << r.out;
    r = run_cli({"port-check", "compare", a.string(), a.string(), "--report", (w.dir / "bad").string(), "--no-plots",
                 "--reference-dir", source + "/reference_data", "--results", result},
                w.dir);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("long runs FAIL"), std::string::npos) << r.out;
}

// The committed record of the IEEE CUDA build on an H200 (reference_data/port-check/, provenance
// inside) against this build's CPU backend: the exact kernels sum in the CPU's order with the same
// IEEE operations, so every mode must be bitwise, no tolerance. A change of the physics, of the
// order of summation or of the compiler's floating-point contract fails here before any GPU runs
// (and then the record is remade on the GPU: engine/docs/porting.md).
TEST(PortCheckCli, CpuBuildIsBitwiseTheCommittedH200Record) {
    workspace w;
    const fs::path cpu = w.dir / "cpu.h5";
    const fs::path h200 =
        fs::path(::stokesian::test_support::project_source_dir) / "reference_data/port-check/h200-ieee.h5";
    ASSERT_TRUE(fs::is_regular_file(h200)) << h200;
    ASSERT_EQ(run_cli({"port-check", "record", cpu.string(), "--backend", "cpu", "--threads", "2"}, w.dir).exit_code,
              0);
    const auto r = run_cli(
        {"port-check", "compare", h200.string(), cpu.string(), "--report", (w.dir / "rep").string(), "--no-plots"},
        w.dir);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    // The nine modes, and the two-body lubrication evaluator in both working types: the H200's host
    // evaluated it as this CPU does.
    std::size_t bitwise = 0;
    for (auto at = r.out.find(": bitwise"); at != std::string::npos; at = r.out.find(": bitwise", at + 1)) ++bitwise;
    EXPECT_EQ(bitwise, 9u + 2u) << r.out;
    EXPECT_NE(r.out.find("evaluator two_body_lubrication (float32): bitwise"), std::string::npos) << r.out;
}
