#pragma once
// The fixture base of the tests that write files: a fresh directory per test,
// <temp>/<prefix>_<pid>_<test name>, removed afterwards (the pid keeps concurrent ctest processes
// apart, the test name the tests of one process).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

namespace stokesian::test_support {

class scratch_directory_test : public ::testing::Test {
protected:
    explicit scratch_directory_test(std::string prefix) : prefix_(std::move(prefix)) {}

    void SetUp() override {
        // A parametrised test's name holds a '/' ("Body/cpu_f64_f64"): one folder, not two.
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        std::replace(name.begin(), name.end(), '/', '_');
        dir_ = std::filesystem::temp_directory_path() / (prefix_ + "_" + std::to_string(::getpid()) + "_" + name);
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::filesystem::path dir_;

private:
    std::string prefix_;
};

}  // namespace stokesian::test_support
