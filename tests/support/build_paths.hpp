#pragma once
// Where this build's checkout, test data and CLI are. Defined in a file CMake generates
// (build/tests/support/build_paths.cpp), so no test source changes with the checkout's location and a
// compiler cache serves every clone of one commit.
#include <filesystem>
#include <string>
#include <string_view>

namespace stokesian::test_support {
extern const char* const project_source_dir;  // the checkout (CMake's PROJECT_SOURCE_DIR)
extern const char* const built_cli;           // the `stokesian` this build made

// A file of the checkout by its path relative to it.
inline std::string checkout_file(std::string_view relative) {
    return std::string(project_source_dir) + "/" + std::string(relative);
}
// The paper's tetrahedron, the scenario most CLI tests run.
inline const std::string tetrahedron_toml = checkout_file("scenarios/tetrahedron.toml");
// The folder of the committed scenarios.
inline const std::filesystem::path scenario_folder = checkout_file("scenarios");

}  // namespace stokesian::test_support
