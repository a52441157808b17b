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
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/conformance_instantiation.hpp"
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

    // `stokesian run scenario` on the parameter's backend with `options`; on the host one worker
    // thread per rank.
    std::vector<std::string> run_args(const std::string& scenario, const std::vector<std::string>& options) const {
        std::vector<std::string> args{"run", scenario, "--backend", GetParam().backend, "--json"};
        if (!on_devices_) args.insert(args.end(), {"--threads", "1"});
        args.insert(args.end(), options.begin(), options.end());
        return args;
    }

    // A run longer than this (seconds on the host, the fcc N = 4000 on devices) is a hang: a rank
    // left waiting.
    double patience_seconds() const { return on_devices_ ? 300.0 : 120.0; }

    // `args` in one process, or across `ranks` ranks (NVLink multicast off in every rank, as on
    // the GPU hosts here) where ranks > 1.
    stokesian::test_support::cli_outcome run_on(unsigned ranks, const std::vector<std::string>& args) const {
        using namespace stokesian::test_support;
        if (ranks == 1) return run_cli_at_most(patience_seconds(), args, dir_);
        return launch_ranks(ranks, args, dir_, patience_seconds(), {"NCCL_NVLS_ENABLE=0"});
    }

    // The run alone and across ranks(): both complete, the same final digest, the same file; one
    // writer (one summary on stdout, nothing of stokesian's on stderr); the output's engine says how
    // many ranks (and, on devices, how many devices).
    void expect_ranks_equal_one(const std::string& scenario, const std::vector<std::string>& options,
                                const std::string& name) {
        using namespace stokesian::test_support;
        namespace fs = std::filesystem;
        const fs::path one = dir_ / (name + "_1.h5"), many = dir_ / (name + "_" + std::to_string(ranks()) + ".h5");
        std::vector<std::string> args_one = run_args(scenario, options), args_many = args_one;
        args_one.insert(args_one.end(), {"-o", one.string()});
        args_many.insert(args_many.end(), {"-o", many.string()});
        const cli_outcome alone = run_on(1, args_one);
        ASSERT_EQ(alone.exit_code, 0) << name << ": " << what_ran(alone);
        const cli_outcome spread = run_on(ranks(), args_many);
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

    // A run stopped across ranks() at step `stop_across` and resumed in one process, and one
    // stopped in one process at `stop_alone` and resumed across ranks(): each completed file is the
    // straight run's bit for bit (every frame, observable and analysis result; kill_resume.hpp).
    void expect_a_checkpoint_resumes_on_another_number_of_ranks(const std::string& scenario,
                                                                const std::vector<std::string>& options,
                                                                const std::string& stop_across,
                                                                const std::string& stop_alone) {
        using namespace stokesian::test_support;
        namespace fs = std::filesystem;
        const std::vector<std::string> run = run_args(scenario, options);
        const fs::path reference = dir_ / "reference.h5";
        std::vector<std::string> args = run;
        args.insert(args.end(), {"-o", reference.string()});
        const cli_outcome straight = run_on(1, args);
        ASSERT_EQ(straight.exit_code, 0) << what_ran(straight);
        struct leg {
            unsigned first_ranks, then_ranks;
            std::string stop;
        };
        for (const leg& l : {leg{ranks(), 1, stop_across}, leg{1, ranks(), stop_alone}}) {
            const fs::path out = dir_ / ("split_" + std::to_string(l.first_ranks) + ".h5");
            args = run;
            args.insert(args.end(), {"-o", out.string(), "--stop-at-step", l.stop});
            const cli_outcome first = run_on(l.first_ranks, args);
            ASSERT_EQ(first.exit_code, 0) << what_ran(first);
            ASSERT_EQ(json_field(first.out, "status").rfind("stopped at step " + l.stop, 0), 0U) << first.out;
            ASSERT_TRUE(fs::exists(stokesian::io::checkpoint_path_for(out)));
            std::vector<std::string> resume{"run", "--resume", out.string(), "--json"};
            if (!on_devices_) resume.insert(resume.end(), {"--threads", "1"});
            const cli_outcome then = run_on(l.then_ranks, resume);
            EXPECT_EQ(difference_from_reference(out, then, reference, straight), "")
                << l.first_ranks << " ranks, then " << l.then_ranks;
        }
    }

private:
    bool on_devices_ = false;
};

TEST_P(MpiRanksConformance, TheTetrahedronIsOneProcessBitForBit) {
    const std::string mode = stokesian::to_string(GetParam().mode);
    expect_ranks_equal_one(stokesian::test_support::tetrahedron_toml, {"--time", "20", "--precision", mode},
                           "tetrahedron_" + mode);
}
