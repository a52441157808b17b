// `stokesian port-check record --devices 0,1` (label gpu; skipped with a message where fewer than
// two devices are, or the build has no NCCL): the record of every configuration and precision mode
// on two devices -- the velocities at construction and the state after a short run -- is the
// one-device record bit for bit (engine/docs/multi-gpu.md: every target sums its sources as on one
// device). No tolerance: every mode's verdict must be `bitwise`, every short run bitwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "stokesian/port/port_check.hpp"
#include "support/cli_process.hpp"
#include "support/multi_device.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
using namespace stokesian::test_support;
namespace fs = std::filesystem;

namespace {

class MultiDevicePortCheckGpu : public scratch_directory_test {
protected:
    MultiDevicePortCheckGpu() : scratch_directory_test("stokesian_multi_device_port_check") {}
};

}  // namespace

TEST_F(MultiDevicePortCheckGpu, ARecordOnTwoDevicesIsTheOneDeviceRecordBitForBit) {
    REQUIRE_TWO_DEVICES();
    // Every mode, three configurations (N = 4, 500 and the near-contact pairs with lubrication:
    // its short run is the implicit solve), 20 steps of short run.
    const std::vector<std::string> record{
        "port-check", "record", "--backend", "cuda", "--configs", "tetrahedron,fcc_500,near_contact", "--steps", "20"};
    const fs::path one = dir_ / "one.h5", two = dir_ / "two.h5";
    std::vector<std::string> args = record;
    args.push_back(one.string());
    const cli_outcome a = run_cli_at_most(600, args, dir_);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    args = record;
    args.insert(args.end(), {two.string(), "--devices", "0,1"});
    const cli_outcome b = run_cli_at_most(600, args, dir_);
    ASSERT_EQ(b.exit_code, 0) << b.err;

    const port::port_record ra = port::read_record(one), rb = port::read_record(two);
    EXPECT_EQ(rb.settings.count("devices") ? rb.settings.at("devices") : "", "0,1");
    EXPECT_EQ(rb.device.count("device_count") ? rb.device.at("device_count") : "", "2");
    const port::comparison c = port::compare(ra, rb);
    EXPECT_TRUE(c.not_compared.empty());
    EXPECT_EQ(c.rows.size(), 3U * precision_modes.size());
    for (const port::mode_comparison& row : c.rows) {
        const std::string what = row.configuration + " " + to_string(row.mode);
        EXPECT_EQ(row.result, port::verdict::bitwise) << what << ": " << row.differing_components << " differ";
        EXPECT_TRUE(row.has_run) << what;
        EXPECT_TRUE(row.run_bitwise) << what;
    }
}

TEST_F(MultiDevicePortCheckGpu, DevicesThatAreNotPresentOrTheCpuBackendAreOneLineAndExitCodeTwo) {
    REQUIRE_TWO_DEVICES();
    const std::string missing = std::to_string(cuda::device_count());
    for (const auto& [backend, list, expected] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"cuda", "0," + missing, "device " + missing + " is not present"},
             {"cpu", "0", "the CPU backend runs on the host and takes no device list"}}) {
        const fs::path out = dir_ / "refused.h5";
        const cli_outcome o =
            run_cli_at_most(120, {"port-check", "record", out.string(), "--backend", backend, "--devices", list}, dir_);
        EXPECT_EQ(o.exit_code, 2) << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
        EXPECT_NE(o.err.find(expected), std::string::npos) << o.err;
        EXPECT_FALSE(fs::exists(out));
        EXPECT_FALSE(fs::exists(out.string() + ".partial"));
    }
}
