// The H5md tests' fixture and sample data (h5md_test.cpp, h5md_output_safety_test.cpp).
#pragma once
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/provenance.hpp"

using namespace stokesian;
using namespace stokesian::io;
namespace fs = std::filesystem;

// A named namespace, not an anonymous one: the fixture must be one class in every test file that
// includes it, whichever unity batch each file lands in (gtest requires one fixture class per suite).
namespace h5md_tests {

// A fresh directory per test, removed afterwards.
class H5md : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device seed;
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("stokesian_h5md_" + std::string(test->name()) + "_" +
                                            std::to_string(seed()) + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    fs::path dir_;
};

inline constexpr std::size_t particles = 4;
inline constexpr std::size_t frames = 3;
inline const box_description periodic_box{true, {10.0, 20.0, 30.0}};

// Values that are not round in binary, so a lossy conversion anywhere would show.
inline frame make_frame(std::size_t t) {
    frame f;
    f.step = 100 * t + 7;
    f.time = 0.1 * static_cast<double>(t) + 1e-17;
    for (std::size_t i = 0; i < particles; ++i) {
        const double base = static_cast<double>(10 * t + i);
        f.position.push_back({base / 3.0, -base / 7.0, base * 1e-300});
        f.image.push_back({static_cast<int>(t) - 1, -static_cast<int>(i), 2'000'000'000});
        f.velocity.push_back({std::nextafter(base, 1e9), -0.0, base / 11.0});
        f.force.push_back({base * 1e300, 5e-324, -base / 13.0});
    }
    return f;
}

inline void write_sample_file(const fs::path& path, bool force = false) {
    h5md_writer writer({.path = path, .force = force, .author = "tester"}, particles, periodic_box);
    for (std::size_t t = 0; t < frames; ++t) writer.append_frame(make_frame(t));
    writer.write_parameters("scenario", {{"text", "name = \"tetrahedron\"\n"}, {"dt", "0.01"}});
    writer.write_parameters("build/flags", {{"host", "-ffp-contract=off"}});
    writer.write_parameters("build/flags", {{"host", "replaced"}, {"unicode", "Stokes \xCE\xBC"}});
    const std::vector<std::uint64_t> step{0, 10, 20};
    const std::vector<double> time{0.0, 0.1, 0.2};
    const std::vector<double> value{1.0 / 3.0, -2.5, 1e-310};
    writer.write_time_series("centre_of_mass/x", step, time, value);
    writer.write_result("cycle/period", 1.0 / 7.0, {{"method", "parabola"}});
    const std::vector<double> periods{1.5, 2.5};
    writer.write_result("cycle/periods", periods);
    writer.flush();
    writer.finish();
}

inline std::vector<char> file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Bitwise equality: distinguishes -0.0 from 0.0 and compares NaN payloads.
inline void expect_bits(const std::vector<double>& actual, const std::vector<double>& expected,
                        const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t i = 0; i < actual.size(); ++i)
        EXPECT_EQ(std::bit_cast<std::uint64_t>(actual[i]), std::bit_cast<std::uint64_t>(expected[i]))
            << what << "[" << i << "]: " << actual[i] << " vs " << expected[i];
}

inline std::vector<double> flatten(const std::vector<vec3<double>>& (*select)(const frame&)) {
    std::vector<double> out;
    for (std::size_t t = 0; t < frames; ++t) {
        const frame f = make_frame(t);
        for (const vec3<double>& v : select(f)) out.insert(out.end(), {v.x, v.y, v.z});
    }
    return out;
}

}  // namespace h5md_tests

using namespace h5md_tests;
