// output.author, the scenario key added through the field table alone (engine/README.md, "How to add
// a scenario key"): read, written into the resolved configuration and reaching /h5md/author, below
// --author and $STOKESIAN_AUTHOR.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "stokesian/io/h5md.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::run_cli;

namespace {

class ScenarioAuthor : public stokesian::test_support::scratch_directory_test {
protected:
    ScenarioAuthor() : scratch_directory_test("stokesian_scenario_author") {}
    void SetUp() override {
        scratch_directory_test::SetUp();
        if (const char* v = std::getenv("STOKESIAN_AUTHOR")) saved_ = v;
        ::unsetenv("STOKESIAN_AUTHOR");
        std::ifstream in(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
        std::stringstream text;
        text << in.rdbuf() << "\n[output]\nauthor = \"Grace Hopper\"\n";
        scenario_ = dir_ / "authored.toml";
        std::ofstream(scenario_) << text.str();
    }
    void TearDown() override {
        if (saved_) ::setenv("STOKESIAN_AUTHOR", saved_->c_str(), 1);
        else ::unsetenv("STOKESIAN_AUTHOR");
        scratch_directory_test::TearDown();
    }
    std::string author_of_run(const std::string& name, std::vector<std::string> extra = {}) {
        const fs::path out = dir_ / name;
        std::vector<std::string> args{"run", scenario_.string(), "--time", "2", "--output", out.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto o = run_cli(args);
        EXPECT_EQ(o.exit_code, 0) << o.err;
        return stokesian::io::h5md_file(out).string_attribute("/h5md/author", "name").value_or("");
    }
    std::optional<std::string> saved_;
    fs::path scenario_;
};

}  // namespace

TEST_F(ScenarioAuthor, TheScenarioNamesTheAuthorBelowOptionAndVariable) {
    EXPECT_EQ(author_of_run("scenario.h5"), "Grace Hopper");
    EXPECT_EQ(author_of_run("option.h5", {"--author", "Ada Lovelace"}), "Ada Lovelace");
    ::setenv("STOKESIAN_AUTHOR", "Nightly CI", 1);
    EXPECT_EQ(author_of_run("variable.h5"), "Nightly CI");
}

TEST_F(ScenarioAuthor, TheResolvedConfigurationStoredInTheOutputHasIt) {
    const fs::path out = dir_ / "configuration.h5";
    ASSERT_EQ(run_cli({"run", scenario_.string(), "--time", "2", "--output", out.string()}).exit_code, 0);
    const std::string configuration =
        stokesian::io::h5md_file(out).string_attribute("/parameters/scenario", "resolved_configuration").value_or("");
    EXPECT_NE(configuration.find("[output]\nauthor = \"Grace Hopper\"\n"), std::string::npos) << configuration;
}
