// Placing a suite's runs on the visible GPUs (suite_runner.hpp, `suite run --gpus`, `study --gpus`):
// longest first onto the least-loaded device, the work of a run estimated as its pair evaluations
// N^2 x steps; the runs of one batch (suite_batching.cpp) together. The device a run lands on changes no number (the CUDA engines are bitwise the same on
// any device of one kind); it is recorded as run.devices in the run's output.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/regression/suite_runner.hpp"

namespace stokesian::regression {

double estimated_work(const prepared_run& p) {
    const double n = double(p.scenario_.particles.size());
    return n * n * double(p.scenario_.run.total_steps());
}

std::vector<std::size_t> balance_over_devices(const std::vector<double>& costs, std::vector<double> loads) {
    if (loads.empty()) throw std::invalid_argument("balance_over_devices: no device");
    std::vector<std::size_t> order(costs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Longest first (ties in the order given), so the long runs spread and the short ones fill in.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
    std::vector<std::size_t> device(costs.size(), 0);
    for (const std::size_t k : order) {
        // The least-loaded device; the lowest index among equals, so the placement is reproducible.
        const auto least = std::min_element(loads.begin(), loads.end());
        device[k] = std::size_t(least - loads.begin());
        *least += costs[k];
    }
    return device;
}

namespace {

// Whether the run's backend drives devices, and how many are present (0 for a host backend).
unsigned devices_present(const prepared_run& p) {
    const backends::backend* b = backends::backend_registry().find(p.scenario_.run.backend);
    if (b == nullptr || b->can.devices == 0) return 0;
    return std::max(1u, backends::check_availability(*b).devices_present);
}

}  // namespace

void place_on_gpus(std::vector<prepared_run>& runs, const device_selection& gpus) {
    std::vector<std::size_t> placed;  // the device runs without their own run.devices
    unsigned present = 0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const unsigned here = devices_present(runs[k]);
        present = std::max(present, here);
        if (here > 0 && !runs[k].scenario_.run.devices.given()) placed.push_back(k);
    }
    if (gpus.given() && present == 0)
        throw input_error("command line", "--gpus", to_string(gpus),
                          "no run drives a device (the backend runs on the host)");
    if (present == 0) return;
    std::vector<int> ordinals;
    try {
        ordinals = resolve_devices(gpus.given() ? gpus : device_selection{true, {}}, present);
    } catch (const std::invalid_argument& e) {
        throw input_error("command line", "--gpus", to_string(gpus), e.what());
    }
    // One device and not asked for: nothing to place; the runs go where a run alone goes (device 0),
    // their outputs as before --gpus existed.
    if (ordinals.size() == 1 && !gpus.given()) return;
    // A run with its own run.devices keeps them; its work counts on each of its devices.
    std::vector<double> loads(ordinals.size(), 0.0);
    for (const prepared_run& p : runs) {
        const device_selection& own = p.scenario_.run.devices;
        if (!own.given() || own.all) continue;
        for (const int d : own.ordinals)
            if (const auto it = std::find(ordinals.begin(), ordinals.end(), d); it != ordinals.end())
                loads[std::size_t(it - ordinals.begin())] += estimated_work(p) / double(own.ordinals.size());
    }
    // Runs that will share a batch (the same batch_key) go to one device, as one unit.
    const std::vector<std::vector<std::size_t>> units = group_by_batch_key(runs, placed, false);
    std::vector<double> costs;
    costs.reserve(units.size());
    for (const auto& unit : units) costs.push_back(group_work(runs, unit));
    const std::vector<std::size_t> device = balance_over_devices(costs, loads);
    for (std::size_t u = 0; u < units.size(); ++u)
        for (const std::size_t k : units[u])
            runs[k].scenario_.run.devices = device_selection{false, {ordinals[device[u]]}};
}

}  // namespace stokesian::regression
