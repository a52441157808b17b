// The evaluators port-check records besides the velocities: the two-body lubrication model's pair
// correction (physics/two_body_lubrication.hpp) on a fixed set of centre distances, in float and
// double, with its absolute evaluation, and their comparison (engine/docs/porting.md, "The two-body
// lubrication evaluator").
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "stokesian/core/errors.hpp"
#include "stokesian/physics/two_body_lubrication.hpp"
#include "stokesian/port/port_check.hpp"

namespace stokesian::port {

namespace {

constexpr double evaluator_min_gap = 1e-6;

// Gaps 10^-6 ... 10^0.55 a every 0.05 decade (both near-contact forms, every table segment), the
// taper and beyond it; each distance a float, so that both working types evaluate the same input.
std::vector<double> two_body_distances() {
    std::vector<double> s;
    for (int k = 0; k <= 131; ++k) s.push_back(double(float(2.0 + std::pow(10.0, -6.0 + 0.05 * k))));
    for (double x : {5.0, 5.1, 5.25, 5.4, 5.5, 6.0, 10.0}) s.push_back(double(float(x)));
    return s;
}

template <class W>
std::vector<double> two_body_values(const std::vector<double>& distances) {
    std::vector<double> out;
    out.reserve(4 * distances.size());
    for (const double d : distances) {
        const two_body_modes<W> z = two_body_correction(static_cast<W>(d), static_cast<W>(evaluator_min_gap));
        for (const W v : {z.x_sum, z.x_difference, z.y_sum, z.y_difference}) out.push_back(double(v));
    }
    return out;
}

// A(s) per mode, the absolute evaluation two_body_term_allowance is counted against
// (physics/two_body_lubrication.hpp): every term of the formula replaced by its absolute value, the
// Chebyshev coefficients weighted by (k+1)^2 (the recurrence's growth and the series' slope in x).
std::array<double, 4> two_body_absolute(double distance) {
    namespace t = two_body_table;
    const double gap = std::max(distance - 2.0, evaluator_min_gap), s = 2.0 + gap;
    const double log_inverse = -std::log(gap);
    const double singular = 1.0 / (2.0 * gap) + 0.45 * std::fabs(log_inverse);
    std::array<double, 4> exact{};
    if (gap < t::contact_gap) {
        const auto signed_form = [&](double h2, double a, double h3) {
            return h2 * log_inverse + a + h3 * gap * log_inverse;
        };
        const auto absolute_form = [&](double h2, double a, double h3) {
            return std::fabs(h2 * log_inverse) + std::fabs(a) + std::fabs(h3 * gap * log_inverse);
        };
        const double b11 = absolute_form(t::Y11B_log, t::Y11B_constant, t::Y11B_xi_log);
        const double b12 = absolute_form(t::Y12B_log, t::Y12B_constant, t::Y12B_xi_log);
        const double c11 = signed_form(t::Y11C_log, t::Y11C_constant, t::Y11C_xi_log);
        const double c12 = signed_form(t::Y12C_log, t::Y12C_constant, t::Y12C_xi_log);
        const double a = absolute_form(t::Y11A_log, t::Y11A_constant, t::Y11A_xi_log) +
                         absolute_form(t::Y12A_log, t::Y12A_constant, t::Y12A_xi_log);
        exact[0] = std::fabs(t::x_sum_shift) + std::fabs(t::x_sum_shift_slope * gap);
        exact[1] = singular + std::fabs(3.0 / 56.0 * gap * log_inverse) + std::fabs(t::x_difference_shift) +
                   std::fabs(t::x_difference_shift_slope * gap);
        exact[2] = a + (b11 + b12) * (b11 + b12) / (3.0 * std::fabs(c11 - c12)) + std::fabs(t::y_sum_shift) +
                   std::fabs(t::y_sum_shift_slope * gap);
        exact[3] = a + (b11 + b12) * (b11 + b12) / (3.0 * std::fabs(c11 + c12)) + std::fabs(t::y_difference_shift) +
                   std::fabs(t::y_difference_shift_slope * gap);
    } else {
        const double u = (-log_inverse - t::first_log_gap) * t::inverse_segment_width;
        const int segment = std::min(static_cast<int>(u), t::segments - 1);
        for (int mode = 0; mode < 4; ++mode) {
            const int base = (mode * t::segments + segment) * t::terms;
            for (int k = 0; k < t::terms; ++k)
                exact[std::size_t(mode)] +=
                    double((k + 1) * (k + 1)) * std::fabs(two_body_detail::chebyshev_coefficient(base + k));
        }
        exact[1] += singular;
    }
    const double inverse = 1.0 / s, inverse3 = inverse * inverse * inverse;
    const double t_x = 1.5 * inverse - inverse3, t_y = 0.75 * inverse + 0.5 * inverse3;
    const std::array<double, 4> far{1.0 / std::fabs(1.0 + t_x), 1.0 / std::fabs(1.0 - t_x), 1.0 / std::fabs(1.0 + t_y),
                                    1.0 / std::fabs(1.0 - t_y)};
    const double w = two_body_taper(s);
    std::array<double, 4> out{};
    for (std::size_t m = 0; m < 4; ++m) out[m] = w * (exact[m] + far[m]);
    return out;
}

// The distance in ulps of the working type between two of its values (widened to double).
double working_ulps(double a, double b, const std::string& working) {
    const double larger = std::max(std::fabs(a), std::fabs(b));
    if (larger == 0.0) return 0.0;
    const int digits = working == "float32" ? 24 : 53;
    return std::fabs(a - b) / std::ldexp(1.0, std::ilogb(larger) - (digits - 1));
}

}  // namespace

evaluator_record two_body_evaluator_record() {
    evaluator_record r;
    r.name = "two_body_lubrication";
    r.description =
        "zeta_pair = w(s) (R_exact - R_far) of the two-body lubrication model in its four modes "
        "(x_sum, x_difference, y_sum, y_difference; units 1/mu0), min_gap 1e-6, evaluated on the host";
    r.distance = two_body_distances();
    for (const double d : r.distance) {
        const auto a = two_body_absolute(d);
        r.absolute.insert(r.absolute.end(), a.begin(), a.end());
    }
    r.values["float32"] = two_body_values<float>(r.distance);
    r.values["float64"] = two_body_values<double>(r.distance);
    r.allowance = two_body_term_allowance;
    return r;
}

double evaluator_unit_roundoff(const std::string& working) { return working == "float32" ? 0x1p-24 : 0x1p-53; }

void compare_evaluators(const port_record& a, const port_record& b, comparison& out) {
    for (const evaluator_record& ea : a.evaluators) {
        const auto eb_it = std::find_if(b.evaluators.begin(), b.evaluators.end(),
                                        [&](const evaluator_record& e) { return e.name == ea.name; });
        if (eb_it == b.evaluators.end()) {
            out.not_compared.push_back("evaluator " + ea.name + ": only in " + a.file.string());
            continue;
        }
        const evaluator_record& eb = *eb_it;
        if (ea.distance != eb.distance || ea.absolute.size() != 4 * ea.distance.size())
            throw input_error(b.file.string(), "", "",
                              "evaluator " + ea.name + " differs from " + a.file.string() +
                                  " (its distances): records of different versions of the evaluator set");
        for (const auto& [working, va] : ea.values) {
            const auto vb_it = eb.values.find(working);
            if (vb_it == eb.values.end()) {
                out.not_compared.push_back("evaluator " + ea.name + "/" + working + ": only in " + a.file.string());
                continue;
            }
            const std::vector<double>& vb = vb_it->second;
            evaluator_comparison row;
            row.evaluator = ea.name;
            row.working = working;
            row.allowance = two_body_term_allowance;  // this build's count for the evaluator
            row.bound_factor = 2.0 * row.allowance * evaluator_unit_roundoff(working);
            for (std::size_t x = 0; x < va.size(); ++x) {
                if (std::bit_cast<std::uint64_t>(va[x]) == std::bit_cast<std::uint64_t>(vb[x])) continue;
                ++row.differing;
                const double diff = std::fabs(va[x] - vb[x]);
                const double bound = row.bound_factor * ea.absolute[x] + 0x1p-125;
                const double ratio = std::isfinite(diff) ? diff / bound : INFINITY;
                row.max_ulp = std::max(row.max_ulp, working_ulps(va[x], vb[x], working));
                if (!(ratio <= row.max_bound_ratio)) {
                    row.max_bound_ratio = ratio;
                    row.worst_distance = ea.distance[x / 4];
                    row.worst_mode = int(x % 4);
                }
            }
            row.result = row.differing == 0           ? verdict::bitwise
                         : row.max_bound_ratio <= 1.0 ? verdict::within_bound
                                                      : verdict::fail;
            out.evaluators.push_back(row);
        }
    }
    for (const evaluator_record& eb : b.evaluators)
        if (std::none_of(a.evaluators.begin(), a.evaluators.end(), [&](const auto& e) { return e.name == eb.name; }))
            out.not_compared.push_back("evaluator " + eb.name + ": only in " + b.file.string());
}

}  // namespace stokesian::port
