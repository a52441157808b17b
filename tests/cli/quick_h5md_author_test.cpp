// `stokesian run --author` and $STOKESIAN_AUTHOR as a user meets them (issue #17 item 4): the name
// lands in /h5md/author; a bad one stops the run before anything is written, with exit status 2
// and one line naming the option or variable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "stokesian/io/h5md.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::run_cli;

namespace {

using ::stokesian::test_support::tetrahedron_toml;

class RunAuthor : public stokesian::test_support::scratch_directory_test {
protected:
    RunAuthor() : scratch_directory_test("stokesian_author") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        if (const char* v = std::getenv("STOKESIAN_AUTHOR")) saved_ = v;
        ::unsetenv("STOKESIAN_AUTHOR");
    }
    void TearDown() override {
        if (saved_) ::setenv("STOKESIAN_AUTHOR", saved_->c_str(), 1);
        else ::unsetenv("STOKESIAN_AUTHOR");
        scratch_directory_test::TearDown();
    }
    std::optional<std::string> saved_;
};

}  // namespace

TEST_F(RunAuthor, TheOptionAndTheVariableNameTheAuthor) {
    const fs::path given = dir_ / "given.h5";
    const auto o =
        run_cli({"run", tetrahedron_toml, "--time", "2", "--output", given.string(), "--author", "Ada Lovelace"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(stokesian::io::h5md_file(given).string_attribute("/h5md/author", "name"), "Ada Lovelace");

    ::setenv("STOKESIAN_AUTHOR", "Nightly CI \xCE\xBC", 1);
    const fs::path from_environment = dir_ / "environment.h5";
    ASSERT_EQ(run_cli({"run", tetrahedron_toml, "--time", "2", "--output", from_environment.string()}).exit_code, 0);
    EXPECT_EQ(stokesian::io::h5md_file(from_environment).string_attribute("/h5md/author", "name"),
              "Nightly CI \xCE\xBC");
}

TEST_F(RunAuthor, ABadNameIsBadInputAndWritesNothing) {
    const fs::path out = dir_ / "t.h5";
    const auto option =
        run_cli({"run", tetrahedron_toml, "--time", "2", "--output", out.string(), "--author", "two\nlines"});
    EXPECT_EQ(option.exit_code, 2) << option.err;
    EXPECT_EQ(std::count(option.err.begin(), option.err.end(), '\n'), 1) << option.err;
    EXPECT_NE(option.err.find("--author"), std::string::npos) << option.err;

    ::setenv("STOKESIAN_AUTHOR", "\xFF\xFE", 1);
    const auto variable = run_cli({"run", tetrahedron_toml, "--time", "2", "--output", out.string()});
    EXPECT_EQ(variable.exit_code, 2) << variable.err;
    EXPECT_EQ(std::count(variable.err.begin(), variable.err.end(), '\n'), 1) << variable.err;
    EXPECT_NE(variable.err.find("STOKESIAN_AUTHOR"), std::string::npos) << variable.err;
    EXPECT_NE(variable.err.find("UTF-8"), std::string::npos) << variable.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(fs::path(out) += ".partial"));

    // A suite says so once, before any run starts.
    const fs::path results = dir_ / "suite";
    const auto suite =
        run_cli({"suite", "run",
                 std::string(::stokesian::test_support::project_source_dir) + "/reference_data/suites/nightly.toml",
                 "--backend", "cpu", "--scale", "0.01", "--only", "tetrahedron_f64-f64_dt0.01", "--output-dir",
                 results.string()});
    EXPECT_EQ(suite.exit_code, 2) << suite.out << suite.err;
    EXPECT_EQ(std::count(suite.err.begin(), suite.err.end(), '\n'), 1) << suite.err;
    EXPECT_NE(suite.err.find("STOKESIAN_AUTHOR"), std::string::npos) << suite.err;
    EXPECT_FALSE(fs::exists(results));
}
