// Benchmark support (tools/bench/support, cuda/memory_benchmark.hpp): the regime fits recover exact
// data, the regime split finds the cut, the fcc systems have N = 4 m^3, input files are read (plain
// HDF5 and H5MD), the device peak rates, the memory benchmark's index walk. No timings are asserted.
// The benchmark loop: phase_timing_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "bench/support/device_peak.hpp"
#include "bench/support/regime_fit.hpp"
#include "bench/support/results_table.hpp"
#include "inputs/hdf5/hdf5_derivations.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/cuda/memory_benchmark.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_handles.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

class BenchFiles : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("stokesian_bench_" + std::string(test->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    fs::path dir_;
};

}  // namespace

TEST(RegimeFit, LinearFitRecoversExactData) {
    const std::vector<double> n{100, 200, 400, 800};
    std::vector<double> t;
    for (double x : n) t.push_back(2.5e-4 * x + 0.125);
    const bench::linear_fit f = bench::fit_linear(n, t);
    EXPECT_NEAR(f.slope, 2.5e-4, 1e-15);
    EXPECT_NEAR(f.intercept, 0.125, 1e-12);
    EXPECT_LT(f.residual, 1e-24);
}

TEST(RegimeFit, QuadraticFitRecoversExactData) {
    const std::vector<double> n{1000, 5000, 20000};
    std::vector<double> t;
    for (double x : n) t.push_back(3e-9 * x * x);
    const bench::quadratic_fit f = bench::fit_quadratic(n, t);
    EXPECT_NEAR(f.coefficient / 3e-9, 1.0, 1e-14);
    EXPECT_LT(f.residual, 1e-24);
}

TEST(RegimeFit, SplitFindsTheCutAndTheCrossover) {
    // Linear up to N = 2000, quadratic beyond; the lines meet at N0 = 2500 by construction:
    // c N0^2 = a N0 + b with a = 1e-4, b = 0.05 -> c = 0.3 / 2500^2.
    const double a = 1e-4, b = 0.05, c = (a * 2500 + b) / (2500.0 * 2500.0);
    const std::vector<double> n{256, 500, 1000, 2000, 4000, 8000, 16000, 32000};
    std::vector<double> t;
    for (double x : n) t.push_back(x <= 2000 ? a * x + b : c * x * x);
    // Shuffled input: the split sorts by N.
    std::vector<std::size_t> order{5, 0, 7, 2, 1, 6, 3, 4};
    std::vector<double> ns, ts;
    for (std::size_t k : order) {
        ns.push_back(n[k]);
        ts.push_back(t[k]);
    }
    const bench::regime_split s = bench::split_regimes(ns, ts);
    ASSERT_TRUE(s.linear.has_value());
    EXPECT_EQ(s.linear_points, 4u);
    EXPECT_EQ(s.quadratic_points, 4u);
    EXPECT_EQ(s.linear_max_n, 2000.0);
    EXPECT_EQ(s.quadratic_min_n, 4000.0);
    EXPECT_NEAR(s.linear->slope / a, 1.0, 1e-10);
    EXPECT_NEAR(s.linear->intercept / b, 1.0, 1e-10);
    EXPECT_NEAR(s.quadratic.coefficient / c, 1.0, 1e-12);
    ASSERT_TRUE(s.crossover_n.has_value());
    EXPECT_NEAR(*s.crossover_n, 2500.0, 1e-6);
}

TEST(RegimeFit, FewPointsAreAllQuadraticAndBadPointsAreDropped) {
    const bench::regime_split s = bench::split_regimes({100, 200, 300, 400}, {1.0, 0.0, NAN, 16.0});
    EXPECT_FALSE(s.linear.has_value());
    EXPECT_EQ(s.quadratic_points, 2u);  // the zero and the NaN are ignored
    EXPECT_FALSE(s.crossover_n.has_value());
    EXPECT_THROW(bench::split_regimes({1, 2}, {0.0, NAN}), std::invalid_argument);
    EXPECT_THROW(bench::split_regimes({1, 2}, {1.0}), std::invalid_argument);
}

TEST(RegimeFit, CrossoverNeedsLinesThatMeet) {
    EXPECT_NEAR(*bench::crossover({2.0, 0.0, 0.0}, {1.0, 0.0}), 2.0, 1e-15);  // 2N = N^2
    EXPECT_FALSE(bench::crossover({1.0, 1.0, 0.0}, {0.0, 0.0}).has_value());
}

TEST(BenchInputs, FccSystemsHaveFourCellsCubedParticlesAtTheDensity) {
    for (int m : {2, 4, 5, 6}) {
        const bench::benchmark_system s = bench::fcc_system(m, 0.1, true, true);
        EXPECT_EQ(s.state.size(), 4u * unsigned(m * m * m));
        EXPECT_EQ(s.state.size(), bench::fcc_particles(m));
        EXPECT_EQ(s.state.positions, fcc_lattice(m, fcc_lattice_constant(0.1)));
        const double edge = s.system.box.edges.x;
        EXPECT_NEAR(double(s.state.size()) / (edge * edge * edge), 0.1, 1e-4 * 0.1);
        EXPECT_TRUE(s.system.lubrication.enabled);
        for (const auto& f : s.state.external_forces) EXPECT_EQ(f, (vec3<double>{0.0, 0.0, -1.0}));
        for (const auto& r : s.state.positions) {
            EXPECT_GE(r.x, -0.5 * edge);
            EXPECT_LT(r.x, 0.5 * edge);
        }
    }
    // The default sizes span 150 ... 200 000 as in the paper; --max-n caps, --large adds 500 000 and 10^6.
    const std::vector<int> cells = bench::fcc_cells_to_run({}, 0, false);
    EXPECT_EQ(bench::fcc_particles(cells.front()), 256u);
    EXPECT_EQ(bench::fcc_particles(cells.back()), 202612u);
    EXPECT_EQ(bench::fcc_cells_to_run({}, 4000, false), (std::vector<int>{4, 6, 8, 10}));
    EXPECT_EQ(bench::fcc_particles(bench::fcc_cells_to_run({}, 0, true).back()), 1000188u);
    EXPECT_EQ(bench::fcc_cells_to_run({8, 4, 8}, 0, false), (std::vector<int>{4, 8}));
    EXPECT_THROW(bench::fcc_cells_to_run({0}, 0, false), input_error);
    // A box too small for the lubrication range (L > 6 a) is refused.
    EXPECT_THROW(bench::fcc_system(1, 0.1, true, true), input_error);
}

TEST(BenchInputs, UniformSystemIsReproducibleAndInTheBox) {
    const auto a = bench::uniform_system(500, 0.1, 7, true, false), b = bench::uniform_system(500, 0.1, 7, true, false);
    EXPECT_EQ(a.state.positions, b.state.positions);
    EXPECT_NE(a.state.positions, bench::uniform_system(500, 0.1, 8, true, false).state.positions);
    const double edge = std::cbrt(500 / 0.1);
    EXPECT_DOUBLE_EQ(a.system.box.edges.z, edge);
    for (const auto& r : a.state.positions) {
        EXPECT_GE(r.y, -0.5 * edge);
        EXPECT_LT(r.y, 0.5 * edge);
    }
    EXPECT_FALSE(bench::uniform_system(500, 0.1, 7, false, false).system.box.periodic);
}

TEST_F(BenchFiles, HiUpdateFileReadsBack) {
    const bench::benchmark_system s = bench::fcc_system(3, 0.1, true, true);
    frame f;
    f.position = s.state.positions;
    f.force = s.state.external_forces;
    f.velocity.assign(s.state.size(), {0.5, -0.25, 3.0});
    const fs::path path = dir_ / "update.h5";
    bench::write_hi_update(path, f, s.system, {{"backend", "cpu"}});
    const bench::benchmark_system r = bench::read_system(path, true, 0.1, true);
    EXPECT_EQ(r.state.positions, s.state.positions);
    EXPECT_EQ(r.state.external_forces, s.state.external_forces);
    EXPECT_EQ(r.system.box.edges, s.system.box.edges);
    EXPECT_TRUE(r.system.box.periodic);
    const io::h5md_file file(path, io::h5md_group::not_required);
    EXPECT_EQ(file.shape("velocities"), (std::vector<std::size_t>{s.state.size(), 3}));
    EXPECT_EQ(file.string_attribute("/", "backend").value_or(""), "cpu");
}

TEST_F(BenchFiles, H5mdTrajectoryIsReadFromItsFirstFrameAndWrapped) {
    const fs::path path = dir_ / "traj.h5";
    const vec3<double> edges{12.0, 13.0, 14.0};
    {
        io::h5md_options options;
        options.path = path;
        io::h5md_writer w(options, 2, {true, edges});
        for (int t = 0; t < 2; ++t) {
            frame f;
            f.step = std::uint64_t(t);
            f.position = {{1.0 + t, 2.0, 3.0}, {-4.0, 5.0, 13.5}};  // 13.5 is outside [-7, 7): wrapped
            f.image = {{0, 0, 0}, {0, 0, 0}};
            f.velocity = {{0, 0, 0}, {0, 0, 0}};
            f.force = {{0.0, 0.0, -2.0}, {1.0, 0.0, 0.0}};
            w.append_frame(f);
        }
        w.finish();
    }
    const bench::benchmark_system r = bench::read_system(path, true, 0.1, false);
    ASSERT_EQ(r.state.size(), 2u);
    EXPECT_EQ(r.state.positions[0], (vec3<double>{1.0, 2.0, 3.0}));
    EXPECT_EQ(r.state.positions[1], (vec3<double>{-4.0, 5.0, -0.5}));
    EXPECT_EQ(r.state.external_forces[0], (vec3<double>{0.0, 0.0, -2.0}));
    EXPECT_EQ(r.system.box.edges, edges);
    // Open boundaries keep the positions as they are.
    EXPECT_EQ(bench::read_system(path, false, 0.1, false).state.positions[1], (vec3<double>{-4.0, 5.0, 13.5}));
}

TEST_F(BenchFiles, BadInputFilesGiveOneLineErrors) {
    EXPECT_THROW(bench::read_system(dir_ / "missing.h5", true, 0.1, true), input_error);
    const fs::path empty = dir_ / "empty.h5";
    bench::results_table t({{"x", bench::results_table::kind::number}});
    bench::write_tables_h5(empty, {{"table", &t}}, {});
    try {
        bench::read_system(empty, true, 0.1, true);
        FAIL() << "no error for a file without positions";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("positions"), std::string::npos) << e.what();
    }
    // Positions whose header claims 2^40 rows the file does not store (a damaged or hostile file):
    // one line naming the claim, before any allocation of the 26 TB it claims.
    const fs::path claiming = dir_ / "claims.h5";
    {
        const io::hdf5::file file(H5Fcreate(claiming.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
        ASSERT_TRUE(file);
        test_inputs::put_dataset(file.get(), "positions", H5T_IEEE_F64LE, {hsize_t{1} << 40, 3}, nullptr);
    }
    try {
        bench::read_system(claiming, false, 0.1, false);
        FAIL() << "no error for positions claiming 2^40 rows";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("claims 3298534883328 elements"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(claiming.string()), std::string::npos) << e.what();
    }
}

TEST_F(BenchFiles, ResultsTableWritesCsvAndHdf5) {
    using kind = bench::results_table::kind;
    bench::results_table t({{"name", kind::text}, {"value", kind::number}});
    t.add_row({{"name", std::string("a,b")}, {"value", 1.5}});
    t.add_row({{"value", 2.0}});
    EXPECT_THROW(t.add_row({{"nope", 1.0}}), std::logic_error);
    EXPECT_THROW(t.add_row({{"value", std::string("text")}}), std::logic_error);
    t.write_csv(dir_ / "t.csv");
    std::ifstream in(dir_ / "t.csv");
    std::string header, row1, row2;
    std::getline(in, header);
    std::getline(in, row1);
    std::getline(in, row2);
    EXPECT_EQ(header, "name,value");
    EXPECT_EQ(row1, "\"a,b\",1.5");
    EXPECT_EQ(row2, ",2");
    bench::write_tables_h5(dir_ / "t.h5", {{"g", &t}}, {{"device_name", "test"}});
    const io::h5md_file f(dir_ / "t.h5", io::h5md_group::not_required);
    EXPECT_EQ(f.read_doubles("g/value"), (std::vector<double>{1.5, 2.0}));
    EXPECT_EQ(f.string_attribute("/", "device_name").value_or(""), "test");
}

TEST(DevicePeak, HopperPeakAndFlopCounts) {
    // H100 SXM: 132 SMs at 1980 MHz: 66.9 Tflop/s FP32, 33.5 FP64.
    EXPECT_EQ(*bench::fp32_lanes_per_sm(9, 0), 128);
    EXPECT_EQ(*bench::fp64_lanes_per_sm(9, 0), 64);
    EXPECT_NEAR(bench::peak_gflops(132, 128, 1'980'000), 66908.16, 1e-6);
    EXPECT_FALSE(bench::fp32_lanes_per_sm(3, 5).has_value());
    EXPECT_EQ(bench::flops_per_pair(precision::f32), 41);
    EXPECT_EQ(bench::flops_per_pair(precision::f64), 41);
    EXPECT_EQ(bench::flops_per_pair(precision::ds), 68);
    EXPECT_EQ(bench::arithmetic_unit(precision::ds), "fp32");
    EXPECT_EQ(bench::arithmetic_unit(precision::f64), "fp64");
}

TEST(MemoryBenchmark, IndexWalkFollowsTheAccessPatterns) {
    using cuda::access_pattern;
    for (const access_pattern p : {access_pattern::linear, access_pattern::strided, access_pattern::unordered})
        for (const std::uint32_t n : {1000u, 4099u})
            for (const std::uint32_t step : {1u, 32u, 128u})
                for (const std::uint32_t j : {0u, 5u, 999u}) {
                    const std::uint32_t first = j % step;
                    auto walk = cuda::index_walk::start(p, first, step, j, n);
                    for (std::uint64_t k = first; k < n; k += step) {
                        ASSERT_EQ(walk.index, cuda::mapped_index(p, k, j, n))
                            << int(p) << " n " << n << " step " << step << " j " << j << " k " << k;
                        walk.advance();
                    }
                }
    EXPECT_EQ(cuda::mapped_index(access_pattern::strided, 3, 0, 1000), 393u);
    EXPECT_EQ(cuda::mapped_index(access_pattern::unordered, 3, 40, 1000), (393u + 40u * 32u) % 1000u);
}
