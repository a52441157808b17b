// stokesian port-check: record and compare in-process (stokesian/port/port_check.hpp).
//
// What must hold, and why (derivations: engine/docs/porting.md):
//  - the same build run twice on the CPU computes every velocity bit for bit (fixed summation
//    order, no atomics, deterministic configurations): verdict bitwise in every mode;
//  - the CPU's symmetric loop (each pair tensor once, used for mu_ij and mu_ji, serial) sums in
//    another order than the all-pairs loop; the terms themselves are the same, so the two differ only
//    by the reordering, which the bound 2 gamma_{N-1}(u_a) A_ic covers (the bound also allows k u_w
//    per term for builds that compute the terms differently): verdict within rounding bound (or
//    bitwise) in every mode, and the f32-accumulating modes really differ somewhere (else the test
//    would not exercise the bound);
//  - one velocity component changed by 1e-3 relative is FAIL wherever 1e-3 |v_ic| exceeds the bound
//    of that component (asserted as a precondition from the record's own A_ic, not assumed);
//  - a record with another mode's velocities stored under hi=f64,int=f64 is FAIL;
//  - a missing file or a file of another schema is input_error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "stokesian/port/port_check.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using namespace stokesian::port;

namespace {

// The small part of the standard set (fcc_4000 is left to the CLI test and the GPU record).
const std::vector<std::string> small_set{"tetrahedron", "fcc_500", "random_1000", "near_contact"};

fs::path temp_record(const std::string& tag) {
    return fs::temp_directory_path() / ("port_check_" + std::to_string(::getpid()) + "_" + tag + ".h5");
}

port_record make_record(const std::string& tag, const std::string& kernel, const std::string& swap_from = "",
                        const std::string& swap_to = "") {
    record_options o;
    o.output = temp_record(tag);
    o.force = true;
    o.backend = "cpu";
    o.hi_kernel = kernel;
    o.configurations = small_set;
    o.threads = 2;
    o.swap_from = swap_from;
    o.swap_to = swap_to;
    std::ostringstream log;
    record(o, log);
    port_record r = read_record(o.output);
    fs::remove(o.output);
    return r;
}

const port_record& all_pairs_record() {
    static const port_record r = make_record("a", "all-pairs");
    return r;
}

}  // namespace

TEST(PortCheck, RecordHoldsEveryModeAndConfiguration) {
    const port_record& r = all_pairs_record();
    ASSERT_EQ(r.configurations.size(), small_set.size());
    for (const auto& c : r.configurations) {
        EXPECT_EQ(c.modes.size(), 9u) << c.name;
        EXPECT_EQ(c.position.size(), 3 * c.particles);
        for (double a : c.absolute_sum) EXPECT_GT(a, 0.0) << c.name;  // every particle carries a force
    }
    EXPECT_FALSE(r.build.at("version").empty());
    EXPECT_EQ(r.device.at("backend"), "cpu");
}

TEST(PortCheck, SameBuildTwiceIsBitwiseInEveryMode) {
    const port_record again = make_record("b", "all-pairs");
    const comparison c = compare(all_pairs_record(), again);
    ASSERT_EQ(c.per_mode.size(), 9u);
    for (const auto& row : c.rows)
        EXPECT_EQ(row.result, verdict::bitwise) << row.configuration << " " << to_string(row.mode);
    EXPECT_TRUE(c.passed());
}

TEST(PortCheck, SymmetricOrderDiffersFromAllPairsOnlyWithinTheRoundingBound) {
    const port_record symmetric = make_record("s", "symmetric");
    const comparison c = compare(all_pairs_record(), symmetric);
    bool f32_differs = false;
    for (const auto& row : c.rows) {
        EXPECT_NE(row.result, verdict::fail)
            << row.configuration << " " << to_string(row.mode) << ": max |dv|/bound " << row.max_bound_ratio;
        EXPECT_LE(row.max_bound_ratio, 1.0);
        if (row.mode.hi == precision::f32 && row.differing_components > 0) f32_differs = true;
        std::printf("  %-12s %-14s %-22s max ULP %-8g max rel %-10.3g max/bound %.3g\n", row.configuration.c_str(),
                    to_string(row.mode).c_str(), to_string(row.result).c_str(), row.max_ulp, row.max_relative,
                    row.max_bound_ratio);
    }
    EXPECT_TRUE(f32_differs)
        << "the two summation orders gave identical f32 sums everywhere: the test exercises nothing";
    EXPECT_TRUE(c.passed());
}

TEST(PortCheck, OneVelocityOffByOnePermilleIsFail) {
    const port_record& a = all_pairs_record();
    for (std::size_t m = 0; m < 9; ++m) {
        port_record b = a;
        const auto it = std::find_if(b.configurations.begin(), b.configurations.end(),
                                     [](const configuration_record& c) { return c.name == "fcc_500"; });
        ASSERT_NE(it, b.configurations.end());
        configuration_record& cfg = *it;
        ASSERT_EQ(cfg.modes.size(), 9u);
        mode_record& mr = cfg.modes[m];
        const std::size_t x = 3 * 17 + 2;  // z of particle 17, where the weight acts
        const double v = mr.hi[x] + mr.lo[x];
        const double bound =
            rounding_bound_factor(mr.mode, cfg.particles, cfg.tensor) * cfg.absolute_sum[x] + cfg.particles * 0x1p-125;
        ASSERT_GT(1e-3 * std::fabs(v), bound) << "precondition: the perturbation must exceed the bound";
        // change by 1e-3 relative, rounded to the storage type
        const double changed = v * (1 + 1e-3);
        if (mr.mode.hi == precision::f32) mr.hi[x] = double(float(changed));
        else if (mr.mode.hi == precision::ds)
            mr.hi[x] = double(float(changed)), mr.lo[x] = double(float(changed - double(float(changed))));
        else mr.hi[x] = changed;
        const comparison c = compare(a, b);
        EXPECT_EQ(c.per_mode.at(to_string(mr.mode)), verdict::fail) << to_string(mr.mode);
        EXPECT_FALSE(c.passed());
        for (const auto& [mode, v2] : c.per_mode)
            if (mode != to_string(mr.mode)) EXPECT_EQ(v2, verdict::bitwise) << mode;
    }
}

TEST(PortCheck, AnotherModeStoredAsTheReferenceIsFail) {
    const port_record swapped = make_record("w", "all-pairs", "hi=f32,int=f64", "hi=f64,int=f64");
    const comparison c = compare(all_pairs_record(), swapped);
    EXPECT_EQ(c.per_mode.at("hi=f64,int=f64"), verdict::fail);
    EXPECT_FALSE(c.passed());
}

TEST(PortCheck, TheBoundGrowsWithNAndShrinksWithPrecision) {
    // f = 2 [gamma_{N-1}(u_a)(1 + k u_w) + k u_w]: at least the reordering term, ordered by the unit roundoffs.
    const hydrodynamic_tensor rp = hydrodynamic_tensor::rotne_prager;
    for (std::size_t n : {4u, 500u, 4000u}) {
        const double f32 = rounding_bound_factor({precision::f32, precision::f32}, n, rp);
        const double ds = rounding_bound_factor({precision::ds, precision::f32}, n, rp);
        const double f64 = rounding_bound_factor({precision::f64, precision::f64}, n, rp);
        EXPECT_GE(f32, 2.0 * double(n - 1) * 0x1p-24);
        EXPECT_GT(f32, ds);
        EXPECT_GT(ds, f64);
        EXPECT_GE(ds, 2.0 * tensor_term_allowance(rp) * 0x1p-24);  // ds terms are single precision
        EXPECT_LT(rounding_bound_factor({precision::f32, precision::f32}, n, rp),
                  rounding_bound_factor({precision::f32, precision::f32}, 2 * n, rp));
    }
}

TEST(PortCheck, BadInputIsInputError) {
    EXPECT_THROW(read_record("/nonexistent/port_check.h5"), input_error);
    const fs::path text = temp_record("text");
    { std::ofstream(text) << "not hdf5\n"; }
    EXPECT_THROW(read_record(text), input_error);
    fs::remove(text);
    record_options o;
    o.output = temp_record("bad");
    o.configurations = {"no_such_configuration"};
    std::ostringstream log;
    EXPECT_THROW(record(o, log), input_error);
}

// The record names each configuration's tensor by its registered name, read back as that tensor.
TEST(PortCheck, RecordNamesTheRegisteredTensor) {
    for (const auto& c : all_pairs_record().configurations)
        EXPECT_EQ(c.tensor, hydrodynamic_tensor::rotne_prager) << c.name;
}

// The bound of a configuration takes the allowance of the tensor the records name, not Rotne-Prager's
// always: the same records relabelled as Oseen (k = 64 instead of 80) give Oseen's factor.
TEST(PortCheck, CompareTakesTheAllowanceOfTheRecordedTensor) {
    ASSERT_NE(tensor_term_allowance(hydrodynamic_tensor::oseen),
              tensor_term_allowance(hydrodynamic_tensor::rotne_prager))
        << "precondition: two tensors of different allowances";
    port_record a = all_pairs_record();
    for (auto& c : a.configurations)
        if (c.name == "fcc_500") c.tensor = hydrodynamic_tensor::oseen;
    const comparison c = compare(a, a);
    std::size_t oseen_rows = 0;
    for (const auto& row : c.rows) {
        const hydrodynamic_tensor t =
            row.configuration == "fcc_500" ? hydrodynamic_tensor::oseen : hydrodynamic_tensor::rotne_prager;
        EXPECT_EQ(row.bound_factor, rounding_bound_factor(row.mode, row.particles, t)) << row.configuration;
        oseen_rows += t == hydrodynamic_tensor::oseen ? 1 : 0;
    }
    EXPECT_EQ(oseen_rows, 9u);
    // Records that name different tensors for one configuration are not comparable.
    EXPECT_THROW(compare(all_pairs_record(), a), input_error);
}

// A record naming a tensor this build does not register is refused (one line, the name in it).
TEST(PortCheck, UnknownTensorIsInputError) {
    record_options o;
    o.output = temp_record("tensor");
    o.force = true;
    o.configurations = {"tetrahedron"};
    o.modes = {{precision::f64, precision::f64}};
    std::ostringstream log;
    record(o, log);
    {
        const io::hdf5::file f(H5Fopen(o.output.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
        ASSERT_GE(f.get(), 0);
        const io::hdf5::group g = io::require_group(f.get(), "/configurations/tetrahedron");
        io::write_string_attribute(g.get(), "tensor", "stokeslet");
    }
    try {
        read_record(o.output);
        ADD_FAILURE() << "a record of an unregistered tensor was read";
    } catch (const input_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("tensor 'stokeslet'"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    fs::remove(o.output);
}
