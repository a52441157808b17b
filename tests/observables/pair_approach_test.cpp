// Two spheres pushed together with lubrication (engine/observables/include/stokesian/observables/pair_approach.hpp):
// the predicted approach against an independent implicit solve of the 6x6 system, its s -> 0 limit,
// the explicit scheme's critical gap, and the pair-gap observable on synthetic data.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>

#include "observables/observables_impl.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/observables/mobility_matrix.hpp"
#include "stokesian/observables/pair_approach.hpp"
#include "stokesian/physics/interactions.hpp"
#include "support/dense_solve.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

system_parameters lubricated_pair() {
    system_parameters s;
    s.lubrication.enabled = true;
    s.lubrication.min_gap = 1e-6;
    s.box.periodic = false;
    return s;
}

// The implicit solution v = (I + mu R)^-1 mu F of the paper's Eq. (mobilityCorrection) for two
// spheres, with mu from the dense mobility matrix and R, the lubrication resistance, built column by
// column from lubrication_force() on unit velocities: no formula of the prediction is reused.
double implicit_separation_speed(vec3<double> r0, vec3<double> r1, vec3<double> f0, vec3<double> f1,
                                 const system_parameters& s) {
    const interaction_parameters<double> p = make_interaction_parameters<double>(s);
    const dense_matrix mu = mobility_matrix({r0, r1}, s);
    const vec3<double> r01 = r0 - r1;
    dense_matrix resistance(6);  // F_lub = -R v
    const vec3<double> unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int particle = 0; particle < 2; ++particle)
        for (int c = 0; c < 3; ++c) {
            const vec3<double> v_rel = particle == 0 ? unit[c] : -unit[c];  // v_0 - v_1
            const vec3<double> on0 = lubrication_force(r01, v_rel, p.lubrication);
            const double column[6] = {-on0.x, -on0.y, -on0.z, on0.x, on0.y, on0.z};
            for (int row = 0; row < 6; ++row) resistance(row, 3 * particle + c) = column[row];
        }
    std::vector<double> system(36), rhs(6);
    const double f[6] = {f0.x, f0.y, f0.z, f1.x, f1.y, f1.z};
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            double mr = 0.0;
            for (int k = 0; k < 6; ++k) mr += mu(i, k) * resistance(k, j);
            system[j * 6 + i] = (i == j ? 1.0 : 0.0) + mr;
            rhs[i] += mu(i, j) * f[j];
        }
    }
    const std::vector<double> v = test_support::dense_solve(system, rhs, 6);
    const vec3<double> e = (1.0 / std::sqrt(dot(r01, r01))) * r01;
    return dot(e, vec3<double>{v[0] - v[3], v[1] - v[4], v[2] - v[5]});
}

}  // namespace

TEST(PairApproach, PredictionEqualsTheImplicitSixBySixSolution) {
    // Head-on and oblique forces (the two cases of approaching_pairs.toml) at gaps from deep in the
    // lubrication range to outside it. (I + mu R) has condition number ~ 1 + 2 m zeta <= 20 here;
    // elimination of a 6x6 system then loses at most ~20 x 6 x u ~ 3e-14 relative: 1e-12 is safe.
    const system_parameters s = lubricated_pair();
    for (double gap : {0.01, 0.1, 0.28, 0.5, 0.99, 1.5})
        for (const vec3<double> force : {vec3<double>{1, 0, 0}, vec3<double>{1, 0, 0.5}}) {
            const vec3<double> r0{-(1 + gap / 2), 0, 0}, r1{1 + gap / 2, 0, 0};
            const pair_approach_prediction q = predict_pair_approach(r0, r1, force, -force, s);
            const double implicit = implicit_separation_speed(r0, r1, force, -force, s);
            EXPECT_NEAR(q.separation_speed, implicit, 1e-12 * std::fabs(implicit)) << gap;
            EXPECT_NEAR(q.gap, gap, 1e-14);
            EXPECT_LT(q.separation_speed, 0.0);  // approaching
        }
}

TEST(PairApproach, DecayRateTendsToFourMu0FOverAAtContact) {
    // rate = 2m / (s (1 + 2 m zeta)) = 4 / (1 + 2s/m - 0.9 s ln s) (units mu0 = a = F = 1), so
    // |rate - 4| <= 4 (2s/m + 0.9 s |ln s|) with m -> 3/8: at s = 1e-5, 4 (5.3e-5 + 1.0e-4) = 6.2e-4.
    const system_parameters s = lubricated_pair();
    const double gap = 1e-5;
    const pair_approach_prediction q =
        predict_pair_approach({-(1 + gap / 2), 0, 0}, {1 + gap / 2, 0, 0}, {1, 0, 0}, {-1, 0, 0}, s);
    EXPECT_NEAR(q.decay_rate, 4.0, 4 * (2 * gap / 0.375 + 0.9 * gap * std::fabs(std::log(gap))));
    EXPECT_NEAR(q.mobility_difference, 0.375, 1e-5);  // mu0 - mu_par(2a) = 1 - 5/8
    // Without lubrication the pair closes at 2 m F: no decay of the gap's logarithm at contact.
    system_parameters dry = s;
    dry.lubrication.enabled = false;
    const pair_approach_prediction d = predict_pair_approach({-1.25, 0, 0}, {1.25, 0, 0}, {1, 0, 0}, {-1, 0, 0}, dry);
    EXPECT_NEAR(d.separation_speed, -2 * (1 - (1.5 / 2.5 - 1 / (2.5 * 2.5 * 2.5))), 1e-15);
}

TEST(PairApproach, CriticalGapOfTheExplicitScheme) {
    // 2 m(s) zeta(s) = 1 with m = 1 - 3/(2r) + 1/r^3 (Rotne-Prager along the line), zeta = 1/(4s) -
    // 9/40 ln s, r = 2 + s: solved independently to s_c = 0.2819764547 (bisection in double).
    const system_parameters s = lubricated_pair();
    const double critical = explicit_lubrication_critical_gap(s);
    EXPECT_NEAR(critical, 0.2819764547, 1e-9);
    // 2 m zeta decreases monotonically on (min_gap, 1), which the bisection assumes.
    double previous = INFINITY;
    for (double gap = 1e-3; gap < 1.0; gap += 1e-3) {
        const double g = -predict_pair_approach({0, 0, 0}, {2 + gap, 0, 0}, {}, {}, s).amplification;
        EXPECT_LT(g, previous) << gap;
        previous = g;
    }
    // |g| = 1 at s_c; no instability without lubrication.
    const double g = predict_pair_approach({0, 0, 0}, {2 + critical, 0, 0}, {}, {}, s).amplification;
    EXPECT_NEAR(g, -1.0, 1e-9);
    system_parameters dry = s;
    dry.lubrication.enabled = false;
    EXPECT_TRUE(std::isnan(explicit_lubrication_critical_gap(dry)));
}

TEST(PairGapObservable, ExponentialGapGivesItsRateAndSignChangesAreCounted) {
    // s(t) = s0 exp(-lambda t): -d ln s/dt = lambda exactly. The sampled gap r/a - 2 carries a few
    // roundings of the positions (~1) in absolute terms, ~4u/s relative: with s >= 0.0167 and
    // dt = 0.01 the rate is good to 2 x 4u/s_min / dt ~ 5e-12; 1e-9 leaves margin. The separation speed is given
    // the sign of the approach, then flipped from t = 0.505 on: one sign change.
    const double s0 = 0.5, lambda = 1.7, dt = 0.01;
    const system_parameters system = lubricated_pair();
    const fs::path path = fs::temp_directory_path() / ("stokesian_pair_gap_" + std::to_string(::getpid()) + ".h5");
    {
        io::h5md_writer out({path, true}, 2, {});
        auto gap_observable = make_pair_gap_observable(system, {{1, 0, 0}, {-1, 0, 0}}, 1);
        frame f;
        f.position.resize(2);
        f.velocity.resize(2);
        for (int k = 0; k <= 200; ++k) {
            const double t = k * dt, gap = s0 * std::exp(-lambda * t);
            f.step = std::uint64_t(k);
            f.time = t;
            f.position = {{-(1 + gap / 2), 0, 0}, {1 + gap / 2, 0, 0}};
            const double speed = (t < 0.505 ? 1.0 : -1.0) * lambda * gap / 2;  // e = -x: v_0 - v_1 along e
            f.velocity = {{speed, 0, 0}, {-speed, 0, 0}};
            gap_observable->sample(f);
        }
        gap_observable->write(out);
        out.finish();
    }
    const io::h5md_file file(path);
    const std::vector<double> rate = file.read_doubles("/observables/pair_gap_decay_rate_observed/value");
    ASSERT_EQ(rate.size(), 200u);
    for (double r : rate) EXPECT_NEAR(r, lambda, 1e-9);
    const std::vector<double> gap = file.read_doubles("/observables/pair_gap_gap/value");
    ASSERT_EQ(gap.size(), 201u);
    EXPECT_NEAR(file.read_doubles("/analysis/pair_gap/minimum_gap")[0], s0 * std::exp(-lambda * 2.0), 1e-14);
    EXPECT_NEAR(file.read_doubles("/analysis/pair_gap/minimum_gap_time")[0], 2.0, 1e-12);
    EXPECT_EQ(file.read_doubles("/analysis/pair_gap/sign_changes")[0], 1.0);
    EXPECT_NEAR(file.read_doubles("/analysis/pair_gap/first_sign_change_time")[0], 0.51, 1e-12);
    // The gap crosses s_c = 0.282 at t = ln(0.5/0.282)/1.7 = 0.337: first sample below is t = 0.34.
    EXPECT_NEAR(file.read_doubles("/analysis/pair_gap/critical_gap_crossing_time")[0], 0.34, 1e-12);
    // The predicted rate is the implicit law's, evaluated by the library (trapezoid over each interval).
    const std::vector<double> predicted = file.read_doubles("/observables/pair_gap_decay_rate_predicted/value");
    const auto at = [&](double t) {
        const double g = s0 * std::exp(-lambda * t);
        return predict_pair_approach({-(1 + g / 2), 0, 0}, {1 + g / 2, 0, 0}, {1, 0, 0}, {-1, 0, 0}, system).decay_rate;
    };
    EXPECT_NEAR(predicted[0], 0.5 * (at(0.0) + at(dt)), 1e-12);
    fs::remove(path);
}
