#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstring>
#include <sstream>

#include "stokesian/core/run.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/observables/observable.hpp"

namespace stokesian {

std::string state_digest(const frame& f) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](const void* data, std::size_t bytes) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < bytes; ++i) {
            h ^= p[i];
            h *= 1099511628211ull;
        }
    };
    mix(f.position.data(), f.position.size() * sizeof(f.position[0]));
    mix(f.image.data(), f.image.size() * sizeof(f.image[0]));
    mix(f.velocity.data(), f.velocity.size() * sizeof(f.velocity[0]));
    std::ostringstream s;
    s << std::hex;
    s.width(16);
    s.fill('0');
    s << h;
    return s.str();
}

namespace {

std::string number(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
}

void write_provenance(io::h5md_writer& out, const run_request& req, const engine& eng, const run_result& r) {
    const scenario& s = req.scenario_;
    out.write_parameters("scenario", {{"name", s.name},
                                      {"case", s.case_name},
                                      {"description", s.description},
                                      {"source_path", s.source_path.string()},
                                      {"source_text", s.source_text},
                                      {"resolved_configuration", resolved_configuration(s)}});
    out.write_parameters("run", {{"precision", to_string(s.run.precision)},
                                 {"hi_precision", std::string(to_string(s.run.precision.hi))},
                                 {"integration_precision", std::string(to_string(s.run.precision.integration))},
                                 {"integrator", std::string(to_string(s.run.integrator))},
                                 {"dt", number(s.run.dt)},
                                 {"steps", std::to_string(r.steps)},
                                 {"planned_steps", std::to_string(s.run.total_steps())},
                                 {"sample_interval_steps", std::to_string(s.run.sample_interval_steps())},
                                 {"status", r.status},
                                 {"wall_seconds", number(r.wall_seconds)},
                                 {"final_state_digest", r.final_state_digest}});
    out.write_parameters("engine", eng.description());
    out.write_parameters("build", io::build_provenance());
    out.write_parameters("invocation", req.invocation);
}

// The first sign of a numerical blow-up in a sampled frame, or "" when the frame is sane:
// a non-finite position or velocity, or (periodic boxes) a particle that would move by more than
// half a box in one step, which the minimum-image convention and the wrapping cannot represent.
std::string blow_up_in(const frame& f, const scenario& s) {
    const auto& box = s.system.box;
    for (std::size_t i = 0; i < f.position.size(); ++i) {
        const vec3<double> r = f.position[i], v = f.velocity[i];
        if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z))
            return "non-finite position of particle " + std::to_string(i);
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            return "non-finite velocity of particle " + std::to_string(i);
        if (box.periodic) {
            const double dt = s.run.dt;
            if (std::fabs(v.x) * dt > 0.5 * box.edges.x || std::fabs(v.y) * dt > 0.5 * box.edges.y ||
                std::fabs(v.z) * dt > 0.5 * box.edges.z)
                return "particle " + std::to_string(i) + " moves by more than half a box in one step (|v| = " +
                       number(std::sqrt(dot(v, v))) + ")";
        }
    }
    return {};
}

}  // namespace

run_result run_scenario(const run_request& req) {
    using clock = std::chrono::steady_clock;
    const scenario& s = req.scenario_;
    validate_run_settings(s.run, s.source_path.string());

    engine_config config = make_engine_config(s);
    config.threads = req.threads;
    // Open the output before the (possibly long) set-up so a bad path fails at once.
    io::h5md_options opts = req.output;
    if (!s.run.write_trajectory) opts.write_velocity = opts.write_force = false;
    io::h5md_writer out(opts, s.particles.size(), {s.system.box.periodic, s.system.box.edges});
    std::unique_ptr<engine> eng = make_engine(config, s.particles);
    auto observables = make_observables(s);

    run_result result;
    result.output = opts.path;
    result.engine = eng->description();
    const std::uint64_t total = s.run.total_steps();
    const std::uint64_t interval = s.run.sample_interval_steps();

    frame f;
    std::string blow_up;
    std::uint64_t last_good_step = 0;
    auto take_sample = [&] {
        eng->read_frame(f);
        if (s.run.write_trajectory) out.append_frame(f);
        blow_up = blow_up_in(f, s);
        if (!blow_up.empty()) return;
        last_good_step = f.step;
        for (auto& o : observables) o->sample(f);
    };
    take_sample();

    const auto start = clock::now();
    auto last_report = start;
    double steps_per_second = 0.0;
    std::uint64_t done = 0;
    int signal = 0;
    while (done < total) {
        // Advance in chunks of about 0.2 s so progress and Ctrl-C stay responsive, never past
        // the next sample.
        const std::uint64_t to_sample = interval - (done % interval);
        std::uint64_t chunk = steps_per_second > 0.0 ? std::uint64_t(std::max(1.0, 0.2 * steps_per_second)) : 1;
        chunk = std::min({chunk, to_sample, total - done});
        const auto t0 = clock::now();
        eng->advance(chunk);
        const double dt_wall = std::chrono::duration<double>(clock::now() - t0).count();
        if (dt_wall > 0.0) steps_per_second = double(chunk) / dt_wall;
        done += chunk;
        if (done % interval == 0 || done == total) take_sample();
        const auto now = clock::now();
        if (req.on_progress && (now - last_report > std::chrono::milliseconds(250) || done == total)) {
            last_report = now;
            req.on_progress({done, total, double(done) * s.run.dt, std::chrono::duration<double>(now - start).count()});
        }
        if (!blow_up.empty()) break;
        if (req.stop_signal && (signal = req.stop_signal->load()) != 0) {
            if (done % interval != 0 && done != total) take_sample();  // keep the last state
            break;
        }
    }
    result.wall_seconds = std::chrono::duration<double>(clock::now() - start).count();
    result.steps = done;
    result.simulated_time = double(done) * s.run.dt;
    result.signal = signal;
    result.status = signal ? "interrupted by signal " + std::to_string(signal) + " at step " + std::to_string(done)
                           : "completed";
    if (!blow_up.empty()) {
        result.failed = true;
        result.status = "numerical blow-up at step " + std::to_string(done) + ": " + blow_up +
                        "; last good sample at step " + std::to_string(last_good_step);
    }
    eng->read_frame(f);
    result.final_state_digest = state_digest(f);
    for (auto& o : observables) {
        o->write(out);
        o->summarise(result.summary);
    }
    write_provenance(out, req, *eng, result);
    out.finish();
    return result;
}

}  // namespace stokesian
