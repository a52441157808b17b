#pragma once
// Which devices one run drives (scenario key run.devices, option --devices): "0,1,2,3" or "all".
// Not given (the default): one device, ordinal 0, as before the key existed. The ordinals are
// checked against the devices present where their number is known (the backend's probe:
// backends::device_context_for, stokesian/backends/registry.hpp).
#include <string>
#include <string_view>
#include <vector>

namespace stokesian {

struct device_selection {
    bool all = false;           // every device present
    std::vector<int> ordinals;  // distinct, >= 0, in the order given (the first is the primary)

    bool given() const { return all || !ordinals.empty(); }
    bool operator==(const device_selection&) const = default;
};

// "0,1,2,3" (spaces around the items allowed) or "all". Throws std::invalid_argument saying what is
// wrong: an empty list or item, not a whole number, negative, a device named twice.
device_selection parse_device_selection(std::string_view text);
// The spelling parse_device_selection reads back: "all", "0,1", or "" when not given.
std::string to_string(const device_selection& selection);

// The ordinals `selection` names where `present` devices exist (all: 0 ... present - 1). Throws
// std::invalid_argument for an ordinal that is not present.
std::vector<int> resolve_devices(const device_selection& selection, unsigned present);

// The rule resolve_devices applies to a list of ordinals where `present` devices exist: each
// present (0 <= d < present) and none named twice. Throws std::invalid_argument saying which is
// not ("device 7 is not present (2 here: ordinals 0 to 1)", "device 0 is named twice"): the one
// place these messages are made (the CUDA backend's cuda::check_device_ordinals calls it too).
void check_ordinals(const std::vector<int>& ordinals, unsigned present);
// "2 here: ordinals 0 to 1", "no device here": what check_ordinals says is present.
std::string present_devices(unsigned present);

}  // namespace stokesian
