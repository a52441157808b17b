#pragma once
// Negative controls of the regression suite: a result deliberately labelled with a precision mode
// it did not run (what a bug that runs the wrong mode would produce), so that the reference check
// can be shown to reject it. The relabelled file says so in /parameters/negative_control.
#include <filesystem>
#include <string>

namespace stokesian::regression {

// Marks a finished result as a negative control: /parameters/negative_control gets `description`;
// with a non-empty `label`, /parameters/run precision (and hi_precision, integration_precision)
// becomes `label` and the mode that really ran is kept there too. Throws std::runtime_error on
// HDF5 failures.
void mark_negative_control(const std::filesystem::path& result, const std::string& description,
                           const std::string& label);

}  // namespace stokesian::regression
