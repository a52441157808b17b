#include "bench/support/timed_backends.hpp"

#include <algorithm>

#include "stokesian/core/errors.hpp"

namespace stokesian::bench {

namespace {

// The backends whose steps can be timed phase by phase, for messages.
std::string phase_timed_names() {
    std::string names;
    for (const backends::backend& b : backends::backend_registry().all())
        if (b.time_phases) names += (names.empty() ? "" : ", ") + b.name;
    return names;
}

}  // namespace

std::string timed_backends::names() const {
    std::string text;
    for (const auto* list : {&on_host, &on_device})
        for (const backends::backend* b : *list) text += (text.empty() ? "" : ",") + b->name;
    return text;
}

timed_backends phase_timed_backends(const std::vector<std::string>& requested) {
    const backends::registry& r = backends::backend_registry();
    timed_backends timed;
    for (const std::string& name : requested) {
        const backends::backend* b = name == "auto" ? r.choose_automatic(nullptr, 0).chosen : r.find(name);
        if (b == nullptr || (!b->time_phases && backends::check_availability(*b).available))
            throw input_error("command line", "--backend", name,
                              "bench fcc times the phases of backends with a phase timer (this build: " +
                                  phase_timed_names() + "); bench steps times whole steps on any backend");
        std::vector<const backends::backend*>& list = b->can.devices > 0 ? timed.on_device : timed.on_host;
        if (std::find(list.begin(), list.end(), b) == list.end()) list.push_back(b);
    }
    return timed;
}

void require_available(const backends::backend& b, const std::string& what, const std::string& instead) {
    if (const backends::availability a = backends::check_availability(b); !a.available)
        throw input_error(what + ": " + a.notice + " (" + instead + ")");
}

}  // namespace stokesian::bench
