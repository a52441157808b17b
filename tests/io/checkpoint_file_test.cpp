// The checkpoint file: every word survives the round trip through HDF5 bit for bit (NaN payloads,
// signed zeros, float-float low words), the write is atomic, and the reader checks what it reads.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

bool same_bits(const std::vector<vec3<double>>& a, const std::vector<vec3<double>>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

io::run_checkpoint sample_checkpoint() {
    io::run_checkpoint c;
    c.run = {{"dt", "0.01"}, {"scenario_text", std::string(100000, 'x')}, {"case", ""}};
    c.frames_written = 12;
    c.last_good_step = 1100;
    c.wall_seconds = 3.25;
    c.last_frame_digest = "0123456789abcdef";
    engine_state& e = c.engine;
    e.step = 1234;
    e.precision = {precision::ds, precision::ds};
    const float hi = 1.0f / 3.0f;
    const float lo = -0x1p-27f;  // below half an ulp of hi: a normalised float-float pair
    e.position_hi = {{hi, -0.0, 5.0}, {-hi, static_cast<float>(1e-30), -7.5}};
    e.position_lo = {{lo, 0.0, 0.0}, {-lo, 0.0, 0x1p-30}};
    e.image = {{1, -2, 3}, {-2147483647, 0, 2147483647}};
    e.velocity_hi = {{0.25, -0.0, 3.0}, {hi, 2.0, -1.0}};
    e.velocity_lo = {{0.0, 0.0, 0x1p-26}, {lo, 0.0, 0.0}};
    e.force = {{0.0, 0.0, -1.0}, {0.5f, 0.0, -1.0}};
    saved_state s;
    s.put_reals("series.value", {1.0, -0.0, std::numeric_limits<double>::quiet_NaN(), INFINITY, 5e-324});
    s.put_reals("empty", {});
    s.put_counts("series.step", {0, 1, UINT64_MAX});
    s.put_text("monitor.reason", "jump");
    c.observables.emplace_back("cycle", s);
    c.observables.emplace_back("centre_of_mass", saved_state{});
    return c;
}

class CheckpointFile : public stokesian::test_support::scratch_directory_test {
protected:
    CheckpointFile() : scratch_directory_test("stokesian_checkpoint") {}
};

}  // namespace

TEST_F(CheckpointFile, EveryWordRoundTripsBitForBit) {
    const io::run_checkpoint c = sample_checkpoint();
    const fs::path path = dir_ / "run.h5.checkpoint";
    io::write_checkpoint(path, c);
    EXPECT_FALSE(fs::exists(fs::path(path) += ".tmp"));
    const io::run_checkpoint r = io::read_checkpoint(path);
    EXPECT_EQ(r.run, c.run);
    EXPECT_EQ(r.frames_written, c.frames_written);
    EXPECT_EQ(r.last_good_step, c.last_good_step);
    EXPECT_EQ(r.wall_seconds, c.wall_seconds);
    EXPECT_EQ(r.last_frame_digest, c.last_frame_digest);
    EXPECT_EQ(r.engine.step, c.engine.step);
    EXPECT_EQ(r.engine.precision, c.engine.precision);
    EXPECT_TRUE(same_bits(r.engine.position_hi, c.engine.position_hi));
    EXPECT_TRUE(same_bits(r.engine.position_lo, c.engine.position_lo));
    EXPECT_TRUE(same_bits(r.engine.velocity_hi, c.engine.velocity_hi));
    EXPECT_TRUE(same_bits(r.engine.velocity_lo, c.engine.velocity_lo));
    EXPECT_TRUE(same_bits(r.engine.force, c.engine.force));
    EXPECT_EQ(r.engine.image, c.engine.image);
    ASSERT_EQ(r.observables.size(), 2u);
    EXPECT_EQ(r.observables[0].first, "cycle");
    EXPECT_TRUE(r.observables[0].second == c.observables[0].second);
    EXPECT_EQ(r.observables[1].first, "centre_of_mass");
}

TEST_F(CheckpointFile, ANewCheckpointReplacesTheOldOneWhole) {
    const fs::path path = dir_ / "run.h5.checkpoint";
    io::run_checkpoint c = sample_checkpoint();
    io::write_checkpoint(path, c);
    c.engine.step = 2000;
    c.observables.pop_back();
    // A temporary file left by a killed writer does not get in the way.
    {
        std::FILE* stale = std::fopen((path.string() + ".tmp").c_str(), "w");
        std::fputs("half", stale);
        std::fclose(stale);
    }
    io::write_checkpoint(path, c);
    const io::run_checkpoint r = io::read_checkpoint(path);
    EXPECT_EQ(r.engine.step, 2000u);
    EXPECT_EQ(r.observables.size(), 1u);
}

TEST_F(CheckpointFile, WordsThatDoNotFitThePrecisionAreRefused) {
    const fs::path path = dir_ / "run.h5.checkpoint";
    auto refused = [&](const io::run_checkpoint& c, const std::string& expected) {
        io::write_checkpoint(path, c);
        try {
            io::read_checkpoint(path);
            ADD_FAILURE() << "accepted: " << expected;
        } catch (const input_error& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    };
    io::run_checkpoint c = sample_checkpoint();
    c.engine.position_hi[0].x = 0.1;  // not a float
    refused(c, "/checkpoint/engine/position_hi");
    c = sample_checkpoint();
    c.engine.velocity_lo[0].z = 0.5;  // larger than half an ulp of its high word
    refused(c, "/checkpoint/engine/velocity_hi");
    c = sample_checkpoint();
    c.engine.position_hi[1].y = NAN;
    refused(c, "not a finite");
    c = sample_checkpoint();
    c.engine.force.pop_back();
    refused(c, "/checkpoint/engine/force");
    c = sample_checkpoint();
    c.frames_written = 5000;
    refused(c, "frames_written");
    c = sample_checkpoint();
    c.last_frame_digest = "xyz";
    refused(c, "last_frame_digest");
}

namespace {

// The string attribute `name` of /checkpoint, or nothing when it is missing.
std::optional<std::string> root_attribute(const fs::path& path, const char* name) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(file, 0);
    std::optional<std::string> value;
    if (H5Aexists_by_name(file, "/checkpoint", name, H5P_DEFAULT) > 0) {
        const hid_t attribute = H5Aopen_by_name(file, "/checkpoint", name, H5P_DEFAULT, H5P_DEFAULT);
        const hid_t type = H5Aget_type(attribute);
        std::string text(H5Tget_size(type), '\0');
        H5Aread(attribute, type, text.data());
        value = text.substr(0, text.find('\0'));
        H5Tclose(type);
        H5Aclose(attribute);
    }
    H5Fclose(file);
    return value;
}

void delete_root_attribute(const fs::path& path, const char* name) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    EXPECT_GE(H5Adelete_by_name(file, "/checkpoint", name, H5P_DEFAULT), 0);
    H5Fclose(file);
}

std::string read_error(const fs::path& path) {
    try {
        io::read_checkpoint(path);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// A checkpoint names the algorithm of its digests next to them.
TEST_F(CheckpointFile, ACheckpointCarriesItsDigestAlgorithm) {
    const fs::path path = dir_ / "run.h5.checkpoint";
    io::write_checkpoint(path, sample_checkpoint());
    EXPECT_EQ(root_attribute(path, "digest_algorithm"), "fnv1a64");
    EXPECT_EQ(io::read_checkpoint(path).run, sample_checkpoint().run);
}

// A checkpoint without the tag (one of the retired digest basis) is refused with one line naming
// the file, before any of its digests is compared.
TEST_F(CheckpointFile, ACheckpointWithoutItsDigestTagIsRefusedWithOneLine) {
    const fs::path path = dir_ / "run.h5.checkpoint";
    io::write_checkpoint(path, sample_checkpoint());
    delete_root_attribute(path, "digest_algorithm");
    const std::string error = read_error(path);
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find("has no digest_algorithm"), std::string::npos) << error;
    EXPECT_EQ(error.find("content digest mismatch"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST_F(CheckpointFile, AnUnknownDigestAlgorithmIsRefused) {
    const fs::path path = dir_ / "run.h5.checkpoint";
    io::write_checkpoint(path, sample_checkpoint());
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    const hid_t root = H5Gopen2(file, "/checkpoint", H5P_DEFAULT);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, 4);
    const hid_t space = H5Screate(H5S_SCALAR);
    H5Adelete(root, "digest_algorithm");
    const hid_t attribute = H5Acreate2(root, "digest_algorithm", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, type, "xxh3");
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Gclose(root);
    H5Fclose(file);
    const std::string error = read_error(path);
    EXPECT_NE(error.find("digest_algorithm"), std::string::npos) << error;
    EXPECT_NE(error.find("fnv1a64"), std::string::npos) << error;
}
