// backends::device_context_for (stokesian/backends/registry.hpp): run.devices checked against the
// chosen backend, where the number of devices present is known (its probe).
#include <stdexcept>
#include <string>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/rank_devices.hpp"

namespace stokesian::backends {

namespace {

// "cuda": the backends that take a device list.
std::string device_backends() {
    std::string names;
    for (const backend& b : backend_registry().all())
        if (b.can.devices > 0) names += (names.empty() ? "" : ", ") + b.name;
    return names.empty() ? "none in this build" : names;
}

}  // namespace

device_context device_context_for(const backend& b, const device_selection& selection, communicator* ranks) {
    device_context device;
    device.ranks = ranks;
    if (!selection.given() && !spread(ranks)) return device;  // one device, ordinal 0: as before run.devices
    const std::string value = to_string(selection);
    const auto refuse = [&](const std::string& why) { throw input_error("", "run.devices", value, why); };
    if (b.can.devices == 0) {
        if (!selection.given()) return device;  // a host backend across ranks (cpu): no device
        refuse(b.title +
               " runs on the host and takes no device list (backends that drive devices: " + device_backends() + ")");
    }
    if (spread(ranks)) {
        // One device per rank: its host-local rank's, or the one named (core/rank_devices.hpp). Whether
        // it is present on each rank's host, every rank checks with the others (the backend).
        try {
            device.ordinals = {rank_ordinal(selection, ranks->host().local_rank, ranks->size())};
        } catch (const std::invalid_argument& e) {
            refuse(e.what());
        }
        return device;
    }
    const auto check_count = [&](std::size_t selected) {
        if (selected > b.can.devices)
            refuse(b.title + " drives at most " + std::to_string(b.can.devices) + " device" +
                   (b.can.devices == 1 ? "" : "s") + " per run; " + std::to_string(selected) + " are selected");
    };
    check_count(selection.ordinals.size());
    const availability a = check_availability(b);
    try {
        device.ordinals = resolve_devices(selection, a.devices_present);
    } catch (const std::invalid_argument& e) {
        refuse(e.what());
    }
    check_count(device.ordinals.size());  // "all"
    return device;
}

}  // namespace stokesian::backends
