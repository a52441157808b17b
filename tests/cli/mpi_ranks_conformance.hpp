#pragma once
// `mpirun -n R stokesian run --backend B` on every registered backend that splits its targets over
// MPI ranks (capabilities::ranks), in the precision modes the instantiation names: the output is
// the one-process output bit for bit (every frame, observable and analysis result, the final state
// digest). Included by quick_mpi_ranks_test.cpp (the host backends: 3 ranks oversubscribed on the
// CPU, label quick) and mpi_ranks_gpu_test.cpp (the device backends: 2 ranks, one device each,
// label gpu). Skipped with a message in a build without MPI, where the backend cannot run here or
// not across ranks, and for a device backend on fewer than 2 devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/ctest_gpu_groups.hpp"
#include "support/h5md_comparison.hpp"
#include "support/kill_resume.hpp"
#include "support/mpi_launch.hpp"
#include "support/scratch_directory.hpp"

class MpiRanksConformance : public stokesian::test_support::scratch_directory_test,
                            public testing::WithParamInterface<stokesian::test_support::backend_mode> {
protected:
    MpiRanksConformance() : scratch_directory_test("stokesian_mpi_conformance") {}

    void SetUp() override {
        using stokesian::test_support::mpiexec;
        if (mpiexec.empty()) GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev openmpi-bin, reconfigure)";
        if (!std::filesystem::exists(mpiexec)) GTEST_SKIP() << mpiexec << " is not on this host (install openmpi-bin)";
        const stokesian::backends::backend* b = stokesian::backends::backend_registry().find(GetParam().backend);
        ASSERT_NE(b, nullptr) << GetParam().backend;
        const stokesian::backends::availability a = stokesian::backends::check_availability(*b);
        if (!a.available) GTEST_SKIP() << b->title << ": " << a.refusal;
        if (!b->can.ranks) GTEST_SKIP() << b->title << " does not run across MPI ranks in this build";
        on_devices_ = b->can.devices > 0;
        if (const std::string withheld = stokesian::test_support::gpus_withheld(2, a.devices_present);
            on_devices_ && !withheld.empty())
            GTEST_FAIL() << withheld;  // a skip would hide the test on every host (ctest_gpu_groups.hpp)
        if (on_devices_ && a.devices_present < 2)
            GTEST_SKIP() << "fewer than 2 devices (" << a.devices_present << "): MPI rank test skipped";
        scratch_directory_test::SetUp();
    }

    // One device per rank: 2 ranks on 2 devices; on the host 3 ranks (more than CI's 2 cores).
    unsigned ranks() const { return on_devices_ ? 2 : 3; }

    // The run alone and across ranks(): both complete, the same final digest, the same file; one
    // writer (one summary on stdout, nothing of stokesian's on stderr); the output's engine says how
    // many ranks (and, on devices, how many devices). A run longer than its patience (seconds on
    // the host, the fcc N = 4000 on devices) is a hang: a rank left waiting.
    void expect_ranks_equal_one(const std::string& scenario, const std::vector<std::string>& options,
                                const std::string& name) {
        using namespace stokesian::test_support;
        namespace fs = std::filesystem;
        const double patience_seconds = on_devices_ ? 300.0 : 120.0;
        const fs::path one = dir_ / (name + "_1.h5"), many = dir_ / (name + "_" + std::to_string(ranks()) + ".h5");
        std::vector<std::string> args{"run", scenario, "--backend", GetParam().backend, "--json"};
        if (!on_devices_) args.insert(args.end(), {"--threads", "1"});  // one worker thread per rank
        args.insert(args.end(), options.begin(), options.end());
        std::vector<std::string> args_one = args, args_many = args;
        args_one.insert(args_one.end(), {"-o", one.string()});
        args_many.insert(args_many.end(), {"-o", many.string()});
        const cli_outcome alone = run_cli_at_most(patience_seconds, args_one, dir_);
        ASSERT_EQ(alone.exit_code, 0) << name << ": " << what_ran(alone);
        // NVLink multicast off in every rank (as on the GPU hosts here).
        const cli_outcome spread = launch_ranks(ranks(), args_many, dir_, patience_seconds, {"NCCL_NVLS_ENABLE=0"});
        ASSERT_EQ(spread.exit_code, 0) << name << ": " << what_ran(spread);
        EXPECT_EQ(stokesian_lines(spread.err).size(), 0U) << spread.err;
        EXPECT_EQ(std::count(spread.out.begin(), spread.out.end(), '\n'), 1) << spread.out;
        EXPECT_FALSE(json_field(alone.out, "final_state_digest").empty()) << alone.out;
        EXPECT_EQ(json_field(spread.out, "final_state_digest"), json_field(alone.out, "final_state_digest")) << name;
        EXPECT_EQ(first_difference(one.string(), many.string()), "") << name;
        const stokesian::io::h5md_file written(many);
        EXPECT_EQ(written.string_attribute("/parameters/engine", "mpi_ranks").value_or(""), std::to_string(ranks()))
            << name;
        EXPECT_FALSE(stokesian::io::h5md_file(one).string_attribute("/parameters/engine", "mpi_ranks").has_value())
            << name;
        if (on_devices_) {
            EXPECT_EQ(written.string_attribute("/parameters/engine", "device_count").value_or(""),
                      std::to_string(ranks()))
                << name;
        }
    }

private:
    bool on_devices_ = false;
};

// For the instantiations (quick_mpi_ranks_test.cpp, mpi_ranks_gpu_test.cpp).
using stokesian::test_support::backend_mode_name;
using stokesian::test_support::backend_place;
using stokesian::test_support::in_modes;
using stokesian::test_support::registered_backend_modes;

TEST_P(MpiRanksConformance, TheTetrahedronIsOneProcessBitForBit) {
    const std::string mode = stokesian::to_string(GetParam().mode);
    expect_ranks_equal_one(stokesian::test_support::tetrahedron_toml, {"--time", "20", "--precision", mode},
                           "tetrahedron_" + mode);
}
