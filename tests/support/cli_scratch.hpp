#pragma once
// The fixture base of CLI tests that run the command in a folder of its own and keep what it printed
// apart: <scratch>/work (the child's working directory, its output work/out.h5) and <scratch>/capture
// (its stdout and stderr, tests/support/cli_process.hpp).
#include <filesystem>
#include <string>

#include "support/scratch_directory.hpp"

namespace stokesian::test_support {

class cli_scratch_test : public scratch_directory_test {
protected:
    using scratch_directory_test::scratch_directory_test;

    void SetUp() override {
        scratch_directory_test::SetUp();
        std::filesystem::create_directories(capture());
        std::filesystem::create_directories(work());
    }
    std::filesystem::path capture() const { return dir_ / "capture"; }
    std::filesystem::path work() const { return dir_ / "work"; }
    std::string out() const { return (work() / "out.h5").string(); }
};

}  // namespace stokesian::test_support
