#pragma once
// Where this build's checkout, test data and CLI are. Defined in a file CMake generates
// (build/tests/support/build_paths.cpp), so no test source changes with the checkout's location and a
// compiler cache serves every clone of one commit.
namespace stokesian::test_support {
extern const char* const project_source_dir;  // the checkout (CMake's PROJECT_SOURCE_DIR)
extern const char* const built_cli;           // the `stokesian` this build made
}  // namespace stokesian::test_support
