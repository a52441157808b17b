// One command-line vocabulary across the subcommands (docs/reference/cli.md "Command-line vocabulary", issue #12
// item 5): --backend, --precision and --hi-kernel are spelled, read and checked alike everywhere;
// bad values are one line and exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/settings/run_overrides.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"
#include "support/text_checks.hpp"

using stokesian::test_support::line_count;
using stokesian::test_support::with;

namespace fs = std::filesystem;
using outcome = stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

class CliVocabulary : public stokesian::test_support::scratch_directory_test {
protected:
    CliVocabulary() : scratch_directory_test("stokesian_cli_vocabulary") {}
    std::string file(const std::string& name) const { return (dir_ / name).string(); }
};

std::vector<std::string> csv_rows(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);) rows.push_back(line);
    if (!rows.empty()) rows.erase(rows.begin());  // the header
    return rows;
}

// Short, CPU-only invocations of every subcommand that chooses a backend, precision or HI kernel.
std::vector<std::string> bench_steps(const std::string& csv) {
    return {"bench", "steps", tetrahedron_toml, "--steps", "2", "--warmup", "1", "--threads", "1", "--csv", csv};
}
std::vector<std::string> bench_fcc() {
    return {"bench", "fcc", "--sizes-cells", "2", "--cpu-steps", "1", "--cpu-warmup", "1", "--threads", "1"};
}
}  // namespace

TEST_F(CliVocabulary, EverySubcommandTakesTheNewSpellings) {
    const outcome run = run_cli({"run", tetrahedron_toml, "--time", "1", "--backend", "cpu", "--precision", "ds/f32",
                                 "--hi-kernel", "all-pairs", "--threads", "1", "-o", file("t.h5"), "--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("\"precision\":\"hi=ds,int=f32\""), std::string::npos) << run.out;
    EXPECT_EQ(run.err, "");

    const outcome steps = run_cli(
        with(bench_steps(file("s.csv")), {"--backend", "cpu", "--hi-kernel", "all-pairs", "--precision", "f64"}));
    ASSERT_EQ(steps.exit_code, 0) << steps.err;
    EXPECT_EQ(steps.err, "");

    const outcome fcc = run_cli(
        with(bench_fcc(), {"--backend", "cpu", "--hi-kernel", "tiling,naive", "--precision", "hi=f64,int=f64"}));
    ASSERT_EQ(fcc.exit_code, 0) << fcc.err;
    EXPECT_EQ(fcc.err, "");

    const outcome record =
        run_cli({"port-check", "record", file("p.h5"), "--configs", "tetrahedron", "--backend", "cpu", "--precision",
                 "hi=f64,int=f64", "--hi-kernel", "all-pairs", "--threads", "1"});
    ASSERT_EQ(record.exit_code, 0) << record.err;

    // bench hi needs a device: without one it says so (exit 2), after reading the options.
    const outcome hi = run_cli({"bench", "hi", "--sizes", "64", "--repeats", "1", "--hi-kernel", "naive", "--precision",
                                "f32", "--csv", file("hi.csv")});
    EXPECT_TRUE(hi.exit_code == 0 || (hi.exit_code == 2 && hi.err.find("CUDA") != std::string::npos)) << hi.err;

    // A study reads its options before anything runs: this one stops at --time, after them.
    const outcome study = run_cli({"study", "precision", tetrahedron_toml, "--backend", "cpu", "--precision",
                                   "ds/f32;f64", "--time", "-1", "--output-dir", file("study")});
    EXPECT_EQ(study.exit_code, 2) << study.err;
    EXPECT_NE(study.err.find("key '--time'"), std::string::npos) << study.err;
}

// A list separates modes by ';', and by ',' or spaces between complete modes: "hi=ds,int=f32" is
// one mode, each mode is timed once, in the order given; 'paper' is the reference and the
// paper's four.
TEST_F(CliVocabulary, PrecisionListsKeepHiIntPairsTogether) {
    const outcome o = run_cli(with(bench_steps(file("s.csv")),
                                   {"--precision", "hi=ds,int=f32,hi=f64,int=f64", "--precision", "f32/ds; ds/f32"}));
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const std::vector<std::string> rows = csv_rows(file("s.csv"));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_NE(rows[0].find("\"hi=ds,int=f32\""), std::string::npos) << rows[0];
    EXPECT_NE(rows[1].find("\"hi=f64,int=f64\""), std::string::npos) << rows[1];
    EXPECT_NE(rows[2].find("\"hi=f32,int=ds\""), std::string::npos) << rows[2];

    ASSERT_EQ(run_cli(with(bench_steps(file("p.csv")), {"--precision", "paper"})).exit_code, 0);
    const std::vector<std::string> paper = csv_rows(file("p.csv"));
    ASSERT_EQ(paper.size(), 5u);
    EXPECT_NE(paper[0].find("\"hi=f64,int=f64\""), std::string::npos) << paper[0];
}

TEST_F(CliVocabulary, BadValuesAreOneLineAndExitCodeTwo) {
    const std::string p = file("p.h5");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"run", tetrahedron_toml, "--backend", "quantum"},
         "key '--backend' = quantum: expected cpu, cuda, or auto"},  // the registry's names
        {{"run", tetrahedron_toml, "--precision", "hi=f32,int=f32;f64"}, "key '--precision'"},
        // One mode, read by run.precision's parser: the list keywords are refused as the scenario file refuses them.
        {{"run", tetrahedron_toml, "--precision", "paper"}, "key '--precision' = paper"},
        {{"run", tetrahedron_toml, "--hi-kernel", ""}, "key '--hi-kernel': expected auto, fast"},
        {{"run", tetrahedron_toml, "--devices", "0,0"}, "key '--devices' = 0,0"},
        {{"port-check", "record", p, "--devices", "0,x"}, "key '--devices' = 0,x"},
        {{"mobility-check", tetrahedron_toml, "--backend", "gpu"}, "key '--backend' = gpu"},
        {with(bench_steps(file("s.csv")), {"--precision", "hi=f16,int=f32"}), "'f16' is not one of f32, ds, f64"},
        {with(bench_steps(file("s.csv")), {"--backend", "gpu"}), "key '--backend' = gpu"},
        {with(bench_fcc(), {"--backend", "cpu,gpu"}), "key '--backend' = gpu"},
        // The fused engine is a kernel of cuda, not a backend: refused with its one spelling.
        {{"run", tetrahedron_toml, "--backend", "cuda-fused"},
         "key '--backend' = cuda-fused: expected cpu, cuda, or auto; the backend cuda with hi-kernel fused"},
        {with(bench_fcc(), {"--backend", "cuda-fused"}), "key '--backend' = cuda-fused"},
        {with(bench_fcc(), {"--precision", "hi=ds"}), "both hi= and int= are required"},
        {with(bench_fcc(), {"--hi-kernel", ","}), "key '--hi-kernel': empty list"},
        {{"bench", "hi", "--precision", "x/f32"}, "key '--precision'"},
        {{"port-check", "record", p, "--precision", "hi=ds,int=f32,int=f64"}, "key '--precision'"},
        {{"port-check", "record", p, "--backend", "gpu"}, "key '--backend' = gpu"},
        {{"suite", "run", tetrahedron_toml, "--backend", "gpu"}, "key '--backend' = gpu"},
        {{"study", "precision", tetrahedron_toml, "--precision", "hi=f16,int=f32"}, "key '--precision'"},
        {{"study", "timestep", tetrahedron_toml, "--backend", "both"}, "key '--backend' = both"},
    };
    for (const auto& [args, expected] : cases) {
        const outcome o = run_cli(args);
        std::string line;
        for (const auto& a : args) line += a + " ";
        EXPECT_EQ(o.exit_code, 2) << line << "\n" << o.err;
        EXPECT_EQ(line_count(o.err), 1u) << line << "\n" << o.err;
        EXPECT_EQ(o.err.rfind("stokesian: ", 0), 0u) << line << "\n" << o.err;
        EXPECT_NE(o.err.find(expected), std::string::npos) << line << "\nexpected '" << expected << "' in " << o.err;
    }
    EXPECT_FALSE(fs::exists(p));
}

// Every registered backend is a name wherever one is taken, and the fused engine is reached one way:
// the CUDA backend's kernel "fused". It runs (a GPU host) or says that no device or no CUDA build is
// here (exit code 2), never that the name is unknown.
TEST_F(CliVocabulary, EveryRegisteredBackendIsAName) {
    const outcome run = run_cli({"run", tetrahedron_toml, "--time", "1", "--backend", "cuda", "--hi-kernel", "fused",
                                 "-o", file("f.h5"), "--json"});
    if (run.exit_code == 0) {
        EXPECT_NE(run.out.find("\"backend\":\"cuda\""), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("\"hi_kernel\":\"fused\""), std::string::npos) << run.out;
    } else {
        EXPECT_EQ(run.exit_code, 2) << run.err;
        EXPECT_EQ(run.err.find("expected cpu"), std::string::npos) << run.err;
        EXPECT_NE(run.err.find("CUDA"), std::string::npos) << run.err;
    }
    const outcome help = run_cli({"run", "--help"});
    EXPECT_NE(help.out.find("cpu | cuda | auto"), std::string::npos) << help.out;
    // The kernel names too come from the registry, the requests (auto, fast) first.
    EXPECT_NE(help.out.find("cpu: auto | fast | all-pairs | symmetric"), std::string::npos) << help.out;
}

namespace {

// The lines of a --help that list `option` ("  --backend TEXT ...").
std::size_t option_lines(const std::string& help, std::string_view option) {
    std::size_t count = 0;
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.compare(first, option.size(), option) == 0 &&
            (line.size() == first + option.size() || line[first + option.size()] == ' ' ||
             line[first + option.size()] == ','))
            ++count;
    }
    return count;
}

}  // namespace

// Every [run] key (each has a command-line spelling in the field table, engine/settings/
// run_table.cpp) is an option of `stokesian run` once, with the table's help: a key given one there
// needs no edit of the command (tools/cli/options_run.cpp builds the group from
// settings::run_options()), and a hand-written option of the same name would differ in its help.
TEST_F(CliVocabulary, RunKeysOfTheTableAreOptionsOfRun) {
    const outcome help = run_cli({"run", "--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    const std::vector<stokesian::settings::run_option> options = stokesian::settings::run_options();
    ASSERT_GE(options.size(), 12u) << "every [run] key: dt ... devices";
    for (const auto& o : options) {
        EXPECT_EQ(option_lines(help.out, o.option), 1u) << o.option << help.out;
        EXPECT_NE(help.out.find(o.help), std::string::npos) << o.help << "\n" << help.out;
    }
    // Every command that takes a text key (--backend, --precision, --hi-kernel, --devices) takes the
    // table's option, or a list of it, with the table's description: none spells its own.
    const std::vector<std::vector<std::string>> commands{
        {"bench", "steps"}, {"bench", "fcc"},       {"bench", "hi"},       {"bench", "tune"}, {"port-check", "record"},
        {"suite", "run"},   {"study", "precision"}, {"study", "timestep"}, {"mobility-check"}};
    for (const auto& command : commands) {
        const outcome h = run_cli(with(command, {"--help"}));
        ASSERT_EQ(h.exit_code, 0) << command.front() << h.err;
        for (const auto& o : options) {
            if (o.type != stokesian::settings::run_option::kind::text || option_lines(h.out, o.option) == 0) continue;
            EXPECT_EQ(option_lines(h.out, o.option), 1u) << command.front() << " " << o.option;
            EXPECT_NE(h.out.find(o.description), std::string::npos)
                << command.front() << " " << o.option << ": not the table's description\n"
                << h.out;
        }
    }
    // The same options where other commands take a run key: bench steps --steps, study --time.
    const outcome steps = run_cli({"bench", "steps", "--help"});
    const outcome study = run_cli({"study", "timestep", "--help"});
    for (const auto& o : options) {
        if (o.key == "steps") EXPECT_NE(steps.out.find(o.help), std::string::npos) << steps.out;
        if (o.key == "time" || o.key == "sample_every")
            EXPECT_NE(study.out.find(o.help), std::string::npos) << study.out;
    }
}
