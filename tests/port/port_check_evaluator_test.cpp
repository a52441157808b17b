// stokesian port-check: the two-body lubrication evaluator recorded besides the velocities
// (port/port_evaluators.cpp) and its rounding allowance (two_body_term_allowance,
// physics/two_body_lubrication.hpp; engine/docs/porting.md, "The two-body lubrication evaluator").
//
// What must hold:
//  - a record holds zeta_pair in its four modes at every distance, in float and double, and the
//    absolute evaluation A it is bounded against; the same build compares bitwise with itself;
//  - the allowance is not too small: the float evaluation, a build that rounds every operation
//    differently from the double one, lies within k u_f A of it at every distance and mode;
//  - the allowance does its job: a value moved by a few ulps of its working type is within the
//    bound (it would FAIL without the allowance, whose bound is then 2^-125), a value moved by more
//    than 2 k u_w A is FAIL, and the comparison names the distance and mode;
//  - a record made before the evaluators (no /evaluators) still compares: the evaluator is listed
//    as not compared, not failed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "stokesian/physics/two_body_lubrication.hpp"
#include "stokesian/port/port_check.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using namespace stokesian::port;

namespace {

const port_record& evaluator_test_record() {
    static const port_record r = [] {
        record_options o;
        o.output = fs::temp_directory_path() / ("port_check_evaluator_" + std::to_string(::getpid()) + ".h5");
        o.force = true;
        o.configurations = {"tetrahedron"};
        o.modes = {{precision::f64, precision::f64}};
        std::ostringstream log;
        record(o, log);
        port_record read = read_record(o.output);
        fs::remove(o.output);
        return read;
    }();
    return r;
}

const evaluator_record& two_body_of(const port_record& r) {
    for (const auto& e : r.evaluators)
        if (e.name == "two_body_lubrication") return e;
    throw std::runtime_error("no two_body_lubrication evaluator in the record");
}

evaluator_comparison only_row(const comparison& c, const std::string& working) {
    for (const auto& e : c.evaluators)
        if (e.working == working) return e;
    ADD_FAILURE() << "no comparison of " << working;
    return {};
}

}  // namespace

TEST(PortCheckEvaluator, RecordHoldsTheTwoBodyCorrectionInBothWorkingTypes) {
    const evaluator_record& e = two_body_of(evaluator_test_record());
    const std::size_t m = e.distance.size();
    ASSERT_GT(m, 100u);
    ASSERT_EQ(e.absolute.size(), 4 * m);
    ASSERT_EQ(e.values.size(), 2u);
    for (const auto& [working, v] : e.values) {
        ASSERT_EQ(v.size(), 4 * m) << working;
        for (std::size_t x = 0; x < v.size(); ++x) {
            const double s = e.distance[x / 4];
            // zeta >= 0 and bounded by its absolute evaluation; zero from the cutoff on.
            EXPECT_GE(v[x], 0.0) << working << " s = " << s;
            EXPECT_LE(v[x], e.absolute[x]) << working << " s = " << s;
            if (s >= two_body_lubrication_cutoff) EXPECT_EQ(v[x], 0.0) << working << " s = " << s;
        }
    }
    EXPECT_EQ(e.allowance, two_body_term_allowance);
    const comparison c = compare(evaluator_test_record(), evaluator_test_record());
    ASSERT_EQ(c.evaluators.size(), 2u);
    for (const auto& row : c.evaluators) EXPECT_EQ(row.result, verdict::bitwise) << row.working;
    EXPECT_TRUE(c.not_compared.empty());
}

TEST(PortCheckEvaluator, FloatEvaluationLiesWithinTheAllowanceOfTheDouble) {
    const evaluator_record& e = two_body_of(evaluator_test_record());
    const std::vector<double>&f = e.values.at("float32"), &d = e.values.at("float64");
    const double uf = evaluator_unit_roundoff("float32"), ud = evaluator_unit_roundoff("float64");
    double worst = 0.0;
    for (std::size_t x = 0; x < f.size(); ++x) {
        const double allowed = two_body_term_allowance * (uf + ud) * e.absolute[x];
        const double ratio = allowed > 0 ? std::fabs(f[x] - d[x]) / allowed : (f[x] == d[x] ? 0.0 : INFINITY);
        worst = std::max(worst, ratio);
        EXPECT_LE(ratio, 1.0) << "s = " << e.distance[x / 4] << " mode " << x % 4 << ": float " << f[x] << ", double "
                              << d[x] << ", A " << e.absolute[x];
    }
    std::cout << "largest |zeta_float - zeta_double| / (k u_f A): " << worst << "\n";
    EXPECT_GT(worst, 0.0);  // the float evaluation does round differently
}

TEST(PortCheckEvaluator, FewUlpsAreWithinTheAllowanceMoreIsFail) {
    const port_record& a = evaluator_test_record();
    const evaluator_record& e = two_body_of(a);
    // The distance index of s = 2.1 or the nearest above (inside the table, in full correction).
    std::size_t i = 0;
    while (e.distance[i] < 2.1) ++i;
    for (const std::string working : {"float32", "float64"}) {
        const double u = evaluator_unit_roundoff(working);
        const std::size_t x = 4 * i + 1;  // the squeeze mode
        const double value = e.values.at(working)[x];
        ASSERT_GT(value, 0.0);
        // A few ulps of the working type: a build that rounds differently.
        port_record b = a;
        b.evaluators[0].values[working][x] = value * (1 + 4 * u);
        const evaluator_comparison near = only_row(compare(a, b), working);
        EXPECT_EQ(near.result, verdict::within_bound) << working;
        EXPECT_EQ(near.differing, 1u);
        EXPECT_LT(near.max_bound_ratio, 1.0);
        EXPECT_TRUE(compare(a, b).passed()) << working;
        // More than the bound 2 k u A allows: FAIL, at that distance and mode.
        port_record c = a;
        c.evaluators[0].values[working][x] = value + 4 * two_body_term_allowance * u * e.absolute[x];
        const comparison far = compare(a, c);
        const evaluator_comparison row = only_row(far, working);
        EXPECT_EQ(row.result, verdict::fail) << working;
        EXPECT_EQ(row.worst_distance, e.distance[i]);
        EXPECT_EQ(row.worst_mode, 1);
        EXPECT_FALSE(far.passed()) << working;
    }
}

TEST(PortCheckEvaluator, ARecordWithoutEvaluatorsStillCompares) {
    port_record old = evaluator_test_record();
    old.evaluators.clear();
    old.file = "old.h5";
    const comparison c = compare(old, evaluator_test_record());
    EXPECT_TRUE(c.evaluators.empty());
    ASSERT_EQ(c.not_compared.size(), 1u);
    EXPECT_NE(c.not_compared[0].find("evaluator two_body_lubrication: only in"), std::string::npos)
        << c.not_compared[0];
    EXPECT_TRUE(c.passed());
}
