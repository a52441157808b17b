#pragma once
// The corpus of broken scenarios (tests/inputs/bad/*.toml): each file's first line is
// "# expect: <part of the message>", what loading it must say. Read by the loader's test
// (tests/settings/scenario_loader_test.cpp) and the CLI's (tests/cli/quick_bad_inputs_test.cpp).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/build_paths.hpp"

namespace stokesian::test_support {

struct bad_scenario {
    std::filesystem::path path;
    std::string expected;  // the part of the message the first line names; empty: no "# expect: " line
};

// Every tests/inputs/bad/*.toml, in the order of their names.
inline std::vector<bad_scenario> bad_scenarios() {
    std::vector<bad_scenario> corpus;
    for (const auto& entry : std::filesystem::directory_iterator(checkout_file("tests/inputs/bad"))) {
        if (entry.path().extension() != ".toml") continue;
        std::ifstream in(entry.path());
        std::string header;
        std::getline(in, header);
        const std::string tag = "# expect: ";
        corpus.push_back({entry.path(), header.rfind(tag, 0) == 0 ? header.substr(tag.size()) : ""});
    }
    std::sort(corpus.begin(), corpus.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    return corpus;
}

}  // namespace stokesian::test_support
