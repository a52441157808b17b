// A command line the parser cannot read (an unknown option or command, a surplus argument, a value
// of the wrong type) is one line in the house style, exit code 2, nothing written: the option or
// command as typed, the nearest valid spelling where one is near, and where to look
// ("unknown option '--dtt' (did you mean '--dt'?); see stokesian run --help").
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/cli_scratch.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

class UsageErrors : public stokesian::test_support::cli_scratch_test {
protected:
    UsageErrors() : cli_scratch_test("stokesian_usage_errors") {}
};

struct usage_case {
    std::vector<std::string> args;
    std::string line;  // the whole of stderr
};

}  // namespace

TEST_F(UsageErrors, AreOneLineNamingWhatWasTypedAndTheNearestSpelling) {
    const std::string t = tetrahedron_toml;
    const std::vector<usage_case> cases{
        {{"run", t, "--dtt", "0.01", "-o", out()},
         "stokesian: unknown option '--dtt' (did you mean '--dt'?); see stokesian run --help\n"},
        {{"run", t, "--dtt=0.01", "-o", out()},
         "stokesian: unknown option '--dtt' (did you mean '--dt'?); see stokesian run --help\n"},
        {{"run", t, "--sample-evry", "1", "-o", out()},  // an option of the [run] keys' group
         "stokesian: unknown option '--sample-evry' (did you mean '--sample-every'?); see stokesian run --help\n"},
        {{"run", t, "--trheads", "1", "-o", out()},
         "stokesian: unknown option '--trheads' (did you mean '--threads'?); see stokesian run --help\n"},
        {{"run", t, "--xyzzy", "-o", out()}, "stokesian: unknown option '--xyzzy'; see stokesian run --help\n"},
        {{"runn", t}, "stokesian: unknown command 'runn' (did you mean 'run'?); see stokesian --help\n"},
        {{"suite", "runn", t},
         "stokesian: unknown command 'suite runn' (did you mean 'suite run'?); see stokesian suite --help\n"},
        {{"suite", "run", t, "--job", "2"},
         "stokesian: unknown option '--job' (did you mean '--jobs'?); see stokesian suite run --help\n"},
        {{"run", t, t, "-o", out()}, "stokesian: unexpected argument '" + t + "'; see stokesian run --help\n"},
        {{}, "stokesian: a command is required; see stokesian --help\n"},
        {{"run", t, "--dt", "x", "-o", out()}, "stokesian: command line: key '--dt' = x: expected a number\n"},
        {{"suite", "run", t, "--scale", "abc"}, "stokesian: command line: key '--scale' = abc: expected a number\n"},
    };
    for (const usage_case& c : cases) {
        const cli_outcome o = run_cli(c.args, capture());
        std::string typed;
        for (const std::string& a : c.args) typed += a + " ";
        EXPECT_EQ(o.exit_code, 2) << typed << o.err;
        EXPECT_EQ(o.err, c.line) << typed;
        EXPECT_EQ(o.out, "") << typed;
        EXPECT_TRUE(fs::is_empty(work())) << typed << ": nothing may be written";
    }
}

// --help and --version are not errors: exit code 0.
TEST_F(UsageErrors, HelpAndVersionExitWithZero) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--help"}, {"run", "--help"}, {"suite", "run", "--help"}, {"--version"}}) {
        const cli_outcome o = run_cli(args, capture());
        EXPECT_EQ(o.exit_code, 0) << args.front() << o.err;
        EXPECT_NE(o.out, "") << args.front();
    }
}
