// make_engine and make_batch_engine: the backend chosen through the registry
// (stokesian/backends/registry.hpp), which alone knows which backends this build has.
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/communicator.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace backends {

namespace {

// The context must not ask for more devices than the backend drives (a host backend ignores it).
void check_devices(const backend& b, const device_context& device) {
    if (b.can.devices > 0 && device.ordinals.size() > b.can.devices)
        throw std::invalid_argument("backend '" + b.name + "' drives " + std::to_string(b.can.devices) +
                                    " device(s); the device context names " + std::to_string(device.ordinals.size()));
    if (spread(device.ranks) && !b.can.ranks)
        throw input_error(b.title + " does not run across MPI ranks (" + std::to_string(device.ranks->size()) +
                          " ranks here): use the cpu backend under mpirun, or one process");
}

// Checks that do not depend on the backend (stokesian/core/batch.hpp).
void validate_batch(const std::vector<batch_member>& members) {
    if (members.empty()) throw std::invalid_argument("make_batch_engine: the batch is empty (no members)");
    const std::size_t n = members.front().state.size();
    for (std::size_t k = 0; k < members.size(); ++k) {
        const batch_member& m = members[k];
        const std::string which = "make_batch_engine: member " + std::to_string(k);
        if (m.state.size() == 0) throw std::invalid_argument(which + " has no particles");
        if (m.state.size() != n)
            throw std::invalid_argument(which + " has " + std::to_string(m.state.size()) + " particles, member 0 has " +
                                        std::to_string(n) + " (all members of a batch have the same N)");
        if (m.state.external_forces.size() != m.state.size())
            throw std::invalid_argument(which + " has " + std::to_string(m.state.external_forces.size()) +
                                        " external forces for " + std::to_string(m.state.size()) + " particles");
        if (!(std::isfinite(m.dt) && m.dt > 0.0))
            throw std::invalid_argument(which + ": dt = " + std::to_string(m.dt) + " (expected a finite dt > 0)");
    }
}

// An engine whose kernel or backend a request chose: its description names the choice
// (hi_kernel_choice, backend_choice), so every output that records the engine (H5MD provenance,
// run --json, port-check records) says it.
class described_choice final : public engine {
public:
    described_choice(std::unique_ptr<engine> inner, std::string key, std::string choice)
        : inner_(std::move(inner)), key_(std::move(key)), choice_(std::move(choice)) {}
    void advance(std::uint64_t steps) override { inner_->advance(steps); }
    std::uint64_t step() const override { return inner_->step(); }
    std::size_t size() const override { return inner_->size(); }
    void read_frame(frame& out) const override { inner_->read_frame(out); }
    void advance_sampled(std::uint64_t samples, std::uint64_t interval, std::vector<frame>& out) override {
        inner_->advance_sampled(samples, interval, out);
    }
    engine_description description() const override {
        engine_description d = inner_->description();
        d.details[key_] = choice_;
        return d;
    }
    void save_state(engine_state& out) const override { inner_->save_state(out); }
    void restore_state(const engine_state& state) override { inner_->restore_state(state); }

private:
    std::unique_ptr<engine> inner_;
    std::string key_, choice_;
};

std::unique_ptr<engine> with_choice(std::unique_ptr<engine> e, const char* key, std::string choice) {
    if (choice.empty()) return e;
    return std::make_unique<described_choice>(std::move(e), key, std::move(choice));
}

}  // namespace

std::unique_ptr<engine> make_engine(const registry::resolved& r, const device_context& device,
                                    const initial_state& state) {
    check_devices(*r.chosen, device);
    return with_choice(
        with_choice(r.chosen->make_engine(r.config, device, state), "hi_kernel_choice", r.hi_kernel_choice),
        "backend_choice", r.backend_choice);
}

std::unique_ptr<engine> make_engine(const engine_config& config, const device_context& device,
                                    const initial_state& state) {
    return make_engine(backend_registry().resolve_on(config, state.size(), "the run", device), device, state);
}

std::unique_ptr<batch_engine> make_batch_engine(const engine_config& config, const device_context& device,
                                                const std::vector<batch_member>& members) {
    validate_batch(members);
    registry::resolved r = backend_registry().resolve(config, members.front().state.size(), "the batch");
    // A batch runs its backend's batch kernel (CUDA: the fused one; CPU: all-pairs per member).
    if (request_of(r.config.hi_kernel) != kernel_request::named) r.config.hi_kernel.clear();
    if (!r.chosen->make_batch) throw std::invalid_argument("backend '" + r.chosen->name + "' runs no batches");
    check_devices(*r.chosen, device);
    return r.chosen->make_batch(r.config, device, members);
}

}  // namespace backends

std::unique_ptr<engine> make_engine(const engine_config& config, const initial_state& state) {
    return backends::make_engine(config, device_context{}, state);
}

std::unique_ptr<batch_engine> make_batch_engine(const engine_config& config, const std::vector<batch_member>& members) {
    return backends::make_batch_engine(config, device_context{}, members);
}

}  // namespace stokesian
