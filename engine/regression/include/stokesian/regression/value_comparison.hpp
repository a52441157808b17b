#pragma once
// One observable of a result against its reference value under the rule recorded with it
// (check_rules.hpp describes the kinds; reference_data/README.md the semantics, NaN included).
#include <string>

#include "stokesian/regression/reference_store.hpp"

namespace stokesian::regression {

struct comparison_outcome {
    bool passed = false;
    // Nothing was compared (no window in either run, or a quantity neither run could compute):
    // neither passed nor failed; `detail` says why. A check that compares nothing is never a pass.
    bool skipped = false;
    std::string observed, reference, tolerance;  // formatted for the table
    std::string detail;                          // which element, or why it failed
    double ratio = 0.0;                          // deviation / allowed deviation (< 1 or <= 1 passes); NaN: n/a
};

// What a comparison needs to know about the two runs beyond the values: their loss-of-periodicity
// times (NaN: none; rules with before_loss) and the observed run's length (expected failures).
struct run_context {
    double observed_loss = not_a_number;
    double reference_loss = not_a_number;
    double observed_end = not_a_number;  // tau_s
};

// What NaN stands for in an observable (observable_catalogue.cpp): `none`, a result of its own
// ("never": cycle.lost_periodicity_time), which matches only NaN; or `undefined`, a quantity the run
// could not compute (a drift over too few cycles), so that NaN in both compares nothing (skipped).
enum class nan_meaning { none, undefined };

comparison_outcome compare_value(const observed_value& observed, const reference_value& reference,
                                 const run_context& context = {}, nan_meaning nan = nan_meaning::none);

// "%.10g", NaN as "NaN".
std::string format_number(double x);

}  // namespace stokesian::regression
