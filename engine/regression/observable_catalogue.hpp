#pragma once
// The regression observables: how each is read from a result file. A name is the observable
// group and the quantity ("cycle.window_period"); reference_data/checks.toml refers to these
// names and reference_data/README.md explains each one.
#include <functional>
#include <string>
#include <vector>

#include "stokesian/io/h5md.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/regression/value_comparison.hpp"

namespace stokesian::regression {

struct catalogue_entry {
    std::string name;
    std::string meaning;
    // Fills `out` and returns true when the result holds this observable.
    std::function<bool(const io::h5md_file&, observed_value&)> extract;
};

const std::vector<catalogue_entry>& observable_catalogue();

// What NaN means in an observable: `none` for the times of events that may never happen (the loss
// of periodicity, the approach speed's first sign change and the gap there, the critical-gap
// crossing: "NaN: never" in reference_data/README.md), `undefined` for every other (a drift or
// period that too short a run cannot give).
nan_meaning nan_meaning_of(const std::string& observable);

}  // namespace stokesian::regression
