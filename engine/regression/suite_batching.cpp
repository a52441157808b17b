// Which suite runs share a batch (suite_runner.hpp, batch_mode; stokesian/run/batched_runs.hpp):
// runs whose batch_key and run.devices are equal, as `--batch` or the manifest's [suite] batch allow.
#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "stokesian/backends/registry.hpp"
#include "stokesian/regression/suite_runner.hpp"
#include "stokesian/run/batched_runs.hpp"

namespace stokesian::regression {

batch_mode parse_batch_mode(const std::string& text) {
    if (text == "off") return batch_mode::off;
    if (text == "auto") return batch_mode::automatic;
    if (text == "on") return batch_mode::on;
    throw std::invalid_argument("expected off, auto or on");
}

std::string to_string(batch_mode mode) {
    switch (mode) {
        case batch_mode::off: return "off";
        case batch_mode::automatic: return "auto";
        case batch_mode::on: return "on";
    }
    return "auto";
}

void assign_batch_key(prepared_run& run, batch_mode mode) {
    run.batch_key.clear();
    if (mode == batch_mode::off) return;
    // auto: a batch saves launches on a device; on the host it would only change the threading.
    const backends::backend* b = backends::backend_registry().find(run.scenario_.run.backend);
    if (mode == batch_mode::automatic && (b == nullptr || b->can.devices == 0)) return;
    run_request request;
    request.scenario_ = run.scenario_;
    request.threads = run.threads;
    run.batch_key = batch_key(request);
}

std::vector<std::vector<std::size_t>> group_by_batch_key(const std::vector<prepared_run>& runs,
                                                         const std::vector<std::size_t>& among, bool by_device) {
    std::vector<std::vector<std::size_t>> groups;
    std::map<std::pair<std::string, std::string>, std::size_t> group_of;  // (key, devices) -> group
    for (const std::size_t k : among) {
        if (runs[k].batch_key.empty()) {
            groups.push_back({k});
            continue;
        }
        const std::string devices = by_device ? to_string(runs[k].scenario_.run.devices) : std::string();
        const auto [it, fresh] = group_of.try_emplace({runs[k].batch_key, devices}, groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(k);
    }
    return groups;
}

std::vector<std::vector<std::size_t>> batch_groups(const std::vector<prepared_run>& runs) {
    std::vector<std::size_t> all(runs.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return group_by_batch_key(runs, all, true);
}

double group_work(const std::vector<prepared_run>& runs, const std::vector<std::size_t>& group) {
    double work = 0.0;
    for (const std::size_t k : group) work = std::max(work, estimated_work(runs[k]));
    return work;
}

}  // namespace stokesian::regression
