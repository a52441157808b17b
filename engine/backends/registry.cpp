// The backend registry (stokesian/backends/registry.hpp): names, capabilities, and the one place
// where "auto" is resolved.
#include "stokesian/backends/registry.hpp"

#include "stokesian/physics/tensor_registry.hpp"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "builtin_backends.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian::backends {

namespace {

template <class T>
bool allows(const std::vector<T>& list, const T& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
}

// The backends "auto" may pick, most preferred first.
std::vector<const backend*> automatic_candidates(const std::vector<backend>& backends) {
    std::vector<const backend*> candidates;
    for (const backend& b : backends)
        if (b.auto_preference >= 0) candidates.push_back(&b);
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const backend* x, const backend* y) { return x->auto_preference > y->auto_preference; });
    return candidates;
}

}  // namespace

availability check_availability(const backend& b) {
    if (b.probe) return b.probe();
    if (!b.make_engine) return {false, "this build of stokesian has no backend '" + b.name + "'", "no " + b.name};
    return {};
}

bool capabilities::sums_in_cpu_order(std::string_view hi_kernel) const {
    return std::find(cpu_order_kernels.begin(), cpu_order_kernels.end(), hi_kernel) != cpu_order_kernels.end();
}

std::string capabilities::refusal(const engine_config& config, std::size_t particles) const {
    if (!allows(integrators, config.integrator))
        return "does not run the " + std::string(to_string(config.integrator)) + " integrator";
    const lubrication_scheme scheme =
        config.system.lubrication.implicit() ? lubrication_scheme::implicit_solve : lubrication_scheme::explicit_update;
    if (config.system.lubrication.enabled && !allows(lubrication_schemes, scheme))
        return "does not run the " + std::string(to_string(scheme)) + " lubrication scheme";
    if (max_particles > 0 && particles > max_particles)
        return "runs at most " + std::to_string(max_particles) + " particles, not " + std::to_string(particles);
    if (!allows(precision_modes, config.precision)) return "does not run precision " + to_string(config.precision);
    if (pair_tensors_only && is_block_tensor(config.system.tensor))
        return "does not run the " + std::string(to_string(config.system.tensor)) + " tensor (pair-form tensors only)";
    return "";
}

void registry::add(backend b) {
    if (b.name.empty() || b.name == "auto")
        throw std::invalid_argument("a backend needs a name other than '" + b.name + "'");
    if (find(b.name)) throw std::invalid_argument("backend '" + b.name + "' is registered twice");
    // Every backend takes the requests: they head its list (stokesian/backends/hi_kernel_choice.hpp).
    if (!b.can.hi_kernels.empty())
        b.can.hi_kernels.insert(b.can.hi_kernels.begin(), std::begin(hi_kernel_requests), std::end(hi_kernel_requests));
    backends_.push_back(std::move(b));
}

const backend* registry::find(const std::string& name) const {
    for (const backend& b : backends_)
        if (b.name == name) return &b;
    return nullptr;
}

std::string registry::names() const {
    std::string list;
    for (const backend& b : backends_) list += b.name + ", ";
    return list + "or auto";
}

std::vector<std::string> registry::choices() const {
    std::vector<std::string> list;
    for (const backend& b : backends_) list.push_back(b.name);
    list.emplace_back("auto");
    return list;
}

bool registry::accepts(std::string_view name) const { return name == "auto" || find(std::string(name)) != nullptr; }

std::string registry::refusal_of(std::string_view name) const {
    std::string why = "expected " + names();
    for (const backend& b : backends_)
        if (name.size() > b.name.size() + 1 && name.starts_with(b.name) && name[b.name.size()] == '-')
            return why + "; the backend " + b.name + " with hi-kernel " + std::string(name.substr(b.name.size() + 1));
    return why;
}

std::string registry::automatic_order() const {
    const std::vector<const backend*> candidates = automatic_candidates(backends_);
    std::string text;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const backend& b = *candidates[k];
        text += (k ? ", else " : "") + b.name;
        if (k + 1 < candidates.size()) text += " where it can run";
        if (b.auto_slower_up_to > 0)
            text +=
                " (not for one system of N <= " + std::to_string(b.auto_slower_up_to) + " run alone: measured slower)";
    }
    return text;
}

registry::automatic_choice registry::choose_automatic(const engine_config* config, std::size_t particles,
                                                      bool alone) const {
    automatic_choice choice;
    for (const backend* b : automatic_candidates(backends_)) {
        // Measured slower than the next backend for this size: passed over, no fallback to announce.
        if (alone && particles > 0 && particles <= b->auto_slower_up_to) {
            if (choice.reason.empty())
                choice.reason = "N = " + std::to_string(particles) + " <= " + std::to_string(b->auto_slower_up_to) +
                                ": " + b->name + " measured slower, " + b->auto_slower_measured;
            continue;
        }
        const availability a = check_availability(*b);
        const bool fits = config == nullptr || b->can.refusal(*config, particles).empty();
        if (a.available && fits) {
            choice.chosen = b;
            if (choice.reason.empty())
                choice.reason = choice.notice.empty() ? "the most preferred backend that runs it here" : choice.notice;
            return choice;
        }
        if (choice.notice.empty())
            choice.notice = a.available ? b->title + " " + b->can.refusal(*config, particles) : a.notice;
    }
    throw std::invalid_argument("backend 'auto': no registered backend can run this configuration");
}

registry::resolved registry::resolve(const engine_config& config, std::size_t particles, const char* what,
                                     bool alone) const {
    resolved r{nullptr, config, {}, {}};
    if (config.backend == "auto") {
        const automatic_choice choice = choose_automatic(&config, particles, alone);
        r.chosen = choice.chosen;
        r.config.backend = choice.chosen->name;
        r.backend_choice = "auto: " + choice.chosen->name + " (" + choice.reason + ")";
        if (!choice.notice.empty())
            std::cerr << "stokesian: " << choice.notice << ", running " << what << " on " << choice.chosen->title
                      << "\n";
        // The HI kernel named was meant for the preferred backend: another uses its own default.
        if (choice.chosen != automatic_candidates(backends_).front()) r.config.hi_kernel = "";
    } else {
        r.chosen = find(config.backend);
        if (!r.chosen)
            throw std::invalid_argument("unknown backend '" + config.backend + "' (" + refusal_of(config.backend) +
                                        ")");
        // An explicit request the environment cannot serve is the user's to change: exit code 2.
        const availability a = check_availability(*r.chosen);
        if (!a.available) throw input_error("", "run.backend", config.backend, a.refusal);
    }
    return r;
}

registry::resolved registry::resolve_on(const engine_config& config, std::size_t particles, const char* what,
                                        const device_context& device) const {
    return choose_kernel(resolve(config, particles, what), particles, device);
}

registry::resolved registry::choose_kernel(resolved r, std::size_t particles, const device_context& device) const {
    const kernel_request request = request_of(r.config.hi_kernel);
    if (request == kernel_request::named) return r;
    const backend& b = *r.chosen;
    kernel_choice choice;
    if (b.choose_kernel) {
        choice = b.choose_kernel(r.config, particles, device, request);
    } else {
        // No choice to make: the backend's default kernel (the first after the requests), if it names one.
        const auto& kernels = b.can.hi_kernels;
        const auto first = std::find_if(kernels.begin(), kernels.end(),
                                        [](const std::string& k) { return request_of(k) == kernel_request::named; });
        if (first == kernels.end()) return r;
        const std::string word(request == kernel_request::fastest ? fastest_hi_kernel : automatic_hi_kernel);
        choice = {*first,
                  word + ": " + *first + " (" + b.title + "'s " +
                      (request == kernel_request::fastest ? "default: it has no fast-math kernel)" : "default)")};
    }
    r.config.hi_kernel = choice.kernel;
    r.hi_kernel_choice = choice.reason;
    return r;
}

registry& backend_registry() {
    static registry instance = [] {
        registry r;
        register_builtin_backends(r);
        return r;
    }();
    return instance;
}

std::span<const std::string_view> backend_choices() {
    static const std::vector<std::string> names = backend_registry().choices();
    static const std::vector<std::string_view> views(names.begin(), names.end());
    return views;
}

bool computes_on_device(const std::string& name) {
    const backend* b = backend_registry().find(name);
    return b != nullptr && b->can.devices > 0;
}

std::string describe(const backend& b) {
    const availability a = check_availability(b);
    std::string d = b.name + ": " + (a.available ? "available" : a.refusal);
    const capabilities& c = b.can;
    d += "; integrators ";
    if (c.integrators.empty()) d += "all";
    for (std::size_t k = 0; k < c.integrators.size(); ++k)
        d += (k ? "," : "") + std::string(to_string(c.integrators[k]));
    d += "; lubrication ";
    if (c.lubrication_schemes.empty()) d += "all";
    for (std::size_t k = 0; k < c.lubrication_schemes.size(); ++k)
        d += (k ? "," : "") + std::string(to_string(c.lubrication_schemes[k]));
    d += "; N <= " + (c.max_particles > 0 ? std::to_string(c.max_particles) : std::string("any"));
    d += "; precision ";
    if (c.precision_modes.empty()) d += "all";
    for (std::size_t k = 0; k < c.precision_modes.size(); ++k) d += (k ? ";" : "") + to_string(c.precision_modes[k]);
    d += "; devices " + (c.devices == any_device_count ? std::string("any") : std::to_string(c.devices)) +
         "; hi-kernels ";
    for (std::size_t k = 0; k < c.hi_kernels.size(); ++k) d += (k ? "," : "") + c.hi_kernels[k];
    d += c.batches ? (c.batches_runs ? "; batches" : "; batches (not its runs)") : "; no batches";
    return d;
}

}  // namespace stokesian::backends
