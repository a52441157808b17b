// The run loop (run/run.hpp): the events of a run_session, in order (run_session.hpp).
#include <stdexcept>

#include "rank_protocol.hpp"
#include "run_session.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian {

std::string state_digest(const frame& f) {
    digest_builder h;
    h.bytes(f.position.data(), f.position.size() * sizeof(f.position[0]));
    h.bytes(f.image.data(), f.image.size() * sizeof(f.image[0]));
    h.bytes(f.velocity.data(), f.velocity.size() * sizeof(f.velocity[0]));
    return h.hex();
}

std::string_view to_string(run_event event) {
    switch (event) {
        case run_event::start: return "start";
        case run_event::sample: return "sample";
        case run_event::checkpoint: return "checkpoint";
        case run_event::interrupt: return "interrupt";
        case run_event::blow_up: return "blow_up";
        case run_event::finish: return "finish";
    }
    return "unknown";
}

namespace {

run_result run_events(const run_request& request) {
    run_session session(request);
    try {
        if (std::optional<run_result> completed = session.start()) return *completed;
        while (session.phase() == run_phase::running)
            if (session.sample() != run_phase::running || !session.goes_on()) break;
        return session.conclude();
    } catch (const device_error& e) {
        session.device_failed(e);  // the last good state as the checkpoint; throws
    }
}

}  // namespace

run_result run_scenario(const run_request& request) {
    if (!spread(request.ranks)) return run_events(request);
    if (!request.ranks->leads()) throw std::logic_error("run_scenario: only rank 0 leads a run (others: follow_run)");
    run_result result = run_events(request);
    announce_end(*request.ranks, result);
    return result;
}

}  // namespace stokesian
