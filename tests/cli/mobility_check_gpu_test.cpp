// The CUDA backend's mobility checks (stokesian/cuda/mobility_backend.hpp): the operator bit for bit
// the CPU's, cuSOLVER's Cholesky verdict and leading minor against LAPACK's, the GPU Lanczos verdict,
// and the memory guard. Skips without a device; the cuSOLVER cases skip where the host has no
// libcusolver (cusolver_library.hpp) with a message saying so.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/observables/definiteness_verdict.hpp"
#include "stokesian/observables/positive_definiteness.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/require_device.hpp"

using namespace stokesian;

namespace {

struct lattice_case {
    std::vector<vec3<double>> sites;
    system_parameters system;
};

// The fcc lattice at n = 0.1 a^-3, periodic (nearest image: indefinite) or open (positive definite).
lattice_case fcc(int cells, bool periodic) {
    const double b = fcc_lattice_constant(0.1);
    lattice_case c{fcc_lattice(cells, b), {}};
    c.system.box.periodic = periodic;
    if (periodic) c.system.box.edges = {cells * b, cells * b, cells * b};
    return c;
}

const backends::backend& cuda_backend() { return *backends::backend_registry().find("cuda"); }

// The IEEE device build (the default) rounds as the host; the paper-fast build does not.
bool ieee_device_build() { return cuda::device_description(0).at("cuda_fp_profile") == "ieee"; }

// Runs the device factorisation; false (and a skip message) where the host has no cuSOLVER.
bool device_cholesky(const lattice_case& c, device_cholesky_result& out) {
    try {
        out = cuda_backend().device_cholesky(c.system, c.sites, {}, 0.0);
        return true;
    } catch (const input_error& e) {
        if (std::string(e.what()).find("cuSOLVER") == std::string::npos) throw;
        return false;
    }
}

}  // namespace

TEST(MobilityCheckGpu, TheCudaOperatorIsTheCpuOperatorBitForBit) {
    REQUIRE_DEVICE();
    if (!ieee_device_build()) GTEST_SKIP() << "paper-fast device build: not bit for bit by design";
    for (const lattice_case& c : {fcc(5, true), fcc(3, false)}) {
        const auto gpu = cuda_backend().make_mobility(c.system, c.sites, {}, 0);
        const auto cpu = backends::backend_registry().find("cpu")->make_mobility(c.system, c.sites, {}, 0);
        std::vector<double> f(3 * c.sites.size()), a(f.size()), b(f.size());
        std::mt19937_64 rng(7);
        std::normal_distribution<double> g;
        for (double& x : f) x = g(rng);
        gpu->apply(f, a);
        cpu->apply(f, b);
        // The exact tiling kernel sums in the CPU's order with the IEEE device flags.
        for (std::size_t i = 0; i < f.size(); ++i) ASSERT_EQ(a[i], b[i]) << i << " of " << f.size();
    }
}

TEST(MobilityCheckGpu, CusolverCholeskyAgreesWithLapackOnVerdictAndLeadingMinor) {
    REQUIRE_DEVICE();
    // N = 500 and 1372 (cells 5, 7): periodic indefinite, open positive definite. Blocked and
    // unblocked factorisations round differently, but the minor where a pivot first turns
    // non-positive is decided by pivots far from zero here (the fcc eigenvalues are -1.5 ... O(10)):
    // the same minor is expected.
    for (int cells : {5, 7}) {
        for (bool periodic : {true, false}) {
            const lattice_case c = fcc(cells, periodic);
            device_cholesky_result gpu;
            if (!device_cholesky(c, gpu)) GTEST_SKIP() << "this host has no libcusolver: cuSOLVER cases skipped";
            int info = 0;
            const bool host = cholesky_factorises(mobility_matrix(c.sites, c.system), info);
            EXPECT_EQ(gpu.factorised, host) << cells << (periodic ? " periodic" : " open");
            EXPECT_EQ(gpu.info, info) << cells << (periodic ? " periodic" : " open");
            EXPECT_EQ(gpu.factorised, !periodic);
            if (!gpu.factorised) {
                // The failure vector proves indefiniteness on the host's evaluation of M.
                const quadratic_form_value q = mobility_quadratic_form(c.sites, c.system, gpu.failure_vector);
                EXPECT_TRUE(q.proves_indefinite()) << q.value << " +- " << q.bound;
            }
        }
    }
}

TEST(MobilityCheckGpu, VerdictsOnTheGpuProveWhatTheCpuProves) {
    REQUIRE_DEVICE();
    const lattice_case c = fcc(5, true);
    verdict_options o;
    o.backend = "cuda";
    o.method = definiteness_method::lanczos;
    const definiteness_verdict gpu = decide_positive_definiteness(c.sites, c.system, o);
    o.backend = "cpu";
    const definiteness_verdict cpu = decide_positive_definiteness(c.sites, c.system, o);
    EXPECT_EQ(gpu.kind, verdict_kind::proven_indefinite) << gpu.summary();
    // The same operator bit for bit and the same host iteration: the same Ritz values (IEEE build;
    // paper-fast: within the estimate's bound).
    if (ieee_device_build()) {
        EXPECT_EQ(gpu.smallest, cpu.smallest);
        EXPECT_EQ(gpu.lanczos_iterations, cpu.lanczos_iterations);
    } else {
        EXPECT_NEAR(gpu.smallest, cpu.smallest, gpu.smallest_bound + cpu.smallest_bound);
    }
    o.backend = "cuda";
    o.method = definiteness_method::automatic;  // cuSOLVER where the host has it, else Lanczos
    const definiteness_verdict automatic = decide_positive_definiteness(c.sites, c.system, o);
    EXPECT_EQ(automatic.kind, verdict_kind::proven_indefinite) << automatic.summary();
    const lattice_case open = fcc(5, false);
    const definiteness_verdict pd = decide_positive_definiteness(open.sites, open.system, o);
    if (pd.cholesky_run) EXPECT_EQ(pd.kind, verdict_kind::proven_positive_definite) << pd.summary();
    else EXPECT_EQ(pd.kind, verdict_kind::estimate) << pd.summary();
}

TEST(MobilityCheckGpu, AMatrixLargerThanTheDeviceIsBadInputNamingTheLargestN) {
    REQUIRE_DEVICE();
    // N = 50 000: 8 (3N)^2 = 180 GB, more than any device here (H200: 141 GB). Refused before any
    // allocation, so the positions need not be sensible.
    lattice_case c;
    c.sites.assign(50000, vec3<double>{0, 0, 0});
    for (std::size_t i = 0; i < c.sites.size(); ++i) c.sites[i].x = 3.0 * double(i);
    try {
        cuda_backend().device_cholesky(c.system, c.sites, {}, 0.0);
        FAIL() << "expected input_error";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("the largest N that fits is"), std::string::npos) << e.what();
    }
}

// The same guard through the CLI (issue #15, bad input): `mobility-check --method cholesky --backend
// cuda` of a lattice whose dense matrix exceeds the device (fcc cells = 24: N = 55 296, 8 (3N)^2 =
// 220 GB) is one line naming the largest N, exit code 2, and writes nothing.
TEST(MobilityCheckGpu, TheCliRefusesAMatrixLargerThanTheDeviceWithOneLineAndExitTwo) {
    REQUIRE_DEVICE();
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("stokesian_mobility_too_large_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ifstream in(fs::path(::stokesian::test_support::project_source_dir) / "scenarios" / "fcc_sedimentation.toml");
    std::string scenario((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_NE(scenario.find("\ncells = 10"), std::string::npos);
    scenario.replace(scenario.find("\ncells = 10"), 11, "\ncells = 24");
    const fs::path file = dir / "fcc24.toml";
    std::ofstream(file) << scenario;
    const auto o =
        test_support::run_cli({"mobility-check", file.string(), "--method", "cholesky", "--backend", "cuda"}, dir);
    EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    if (o.err.find("cuSOLVER") == std::string::npos)  // a host without libcusolver says so instead
        EXPECT_NE(o.err.find("the largest N that fits is"), std::string::npos) << o.err;
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.path().filename() != "fcc24.toml";
    EXPECT_EQ(files, 0u) << "nothing may be written";
    fs::remove_all(dir);
}
