// The start event of a run (run_session.hpp): the output claimed and locked, then resumed from the
// checkpoint and the frame journal or opened afresh, the engine built. Everything that can be
// checked is checked before a file is touched (engine/docs/reliability.md, "Resume").
#include <stdexcept>
#include <utility>

#include "checkpoint_contents.hpp"
#include "completed_run.hpp"
#include "rank_protocol.hpp"
#include "run_files.hpp"
#include "run_provenance.hpp"
#include "run_record.hpp"
#include "run_session.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/run/run_output_claim.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace fs = std::filesystem;

run_session::run_session(const run_request& request, engine_source source)
    : req_(request), s_(request.scenario_), source_(std::move(source)) {}

std::optional<run_result> run_session::start() {
    validate_run_settings(s_.run, s_.source_path.string());
    validate_cycle_window(s_, s_.source_path.string());  // the command line may have changed [run]
    config_ = make_engine_config(s_);
    config_.threads = req_.threads;
    // A signal abandons a long step (engine/docs/reliability.md); across MPI ranks it stops the run
    // between steps only, where every rank stands at the same step (run/rank_protocol.hpp).
    config_.interrupt = spread(req_.ranks) ? nullptr : req_.stop_signal;
    opts_ = req_.output;
    opts_.scenario_author = s_.output.author;  // below --author and $STOKESIAN_AUTHOR (io/provenance.hpp)
    if (!s_.run.write_trajectory) opts_.write_velocity = opts_.write_force = false;
    box_ = {s_.system.box.periodic, s_.system.box.edges};
    checkpoint_path_ = io::checkpoint_path_for(opts_.path);
    output_lock_.emplace(claim_run_output(opts_.path, opts_.force, req_.resume, {s_.source_path}));
    journal_path_ = io::frame_journal_path_for(opts_.path);
    layout_ = {s_.particles.size(), box_.periodic && opts_.write_image, opts_.write_velocity, opts_.write_force};
    observables_ = make_observables(s_);
    if (req_.resume) {
        if (std::optional<run_result> done = resume_output()) return done;
    } else {
        open_fresh_output();
    }

    result_.output = opts_.path;
    const engine_description described = eng_->description();
    result_.engine = described.provenance();
    // An engine on a device can lose its state with the device: keep the latest good one on the host.
    hold_states_ = backends::computes_on_device(described.backend);
    if (hold_states_ && resumed_) hold_state(engine_state(resumed_->engine));
    record_ = run_record(s_);
    record_engine(record_, result_.engine);
    total_ = s_.run.total_steps();
    interval_ = s_.run.sample_interval_steps();
    checkpoint_interval_ = s_.run.checkpoint_interval_steps();
    last_good_step_ = resumed_ ? resumed_->last_good_step : 0;
    have_good_sample_ = resumed_.has_value();
    last_frame_digest_ = resumed_ ? out_->last_frame_digest() : "";
    earlier_wall_seconds_ = resumed_ ? resumed_->wall_seconds : 0.0;
    if (resumed_) {
        result_.checkpoint = checkpoint_path_;
        result_.checkpoint_step = resumed_->engine.step;
        result_.resumed_from_step = resumed_->engine.step;
    }
    start_ = clock::now();
    last_checkpoint_wall_ = start_;
    done_ = resumed_ ? resumed_->engine.step : 0;
    while (next_boundary_ < req_.boundary_steps.size() && req_.boundary_steps[next_boundary_] <= done_)
        ++next_boundary_;
    if (!resumed_) take_sample();
    last_report_ = start_;
    notify(run_event::start);
    return std::nullopt;
}

std::unique_ptr<engine> build_run_engine(const engine_config& requested, const scenario& s) {
    const std::size_t n = s.particles.size();
    const backends::registry& registry = backends::backend_registry();
    // auto by the measured speed at this N where the run is one system alone (backends/registry.hpp).
    backends::registry::resolved chosen = registry.resolve(requested, n, "the run", !s.run.devices.given());
    const device_context device = backends::device_context_for(*chosen.chosen, s.run.devices, nullptr);
    chosen = registry.choose_kernel(std::move(chosen), n, device);
    return backends::make_engine(chosen, device, s.particles);
}

// The one place a run builds its engine: its backend resolved once (auto's choice and notice made
// here), then its devices and its kernel on them; across MPI ranks, the other ranks build theirs at
// the same time and follow this one's calls.
void run_session::build_engine() {
    if (source_) {  // a batched run: its member of the group's batch (batched_runs.cpp)
        eng_ = source_();
        return;
    }
    if (!resumed_ && !spread(req_.ranks)) {
        eng_ = build_run_engine(config_, s_);
        return;
    }
    const std::size_t n = s_.particles.size();
    const backends::registry& registry = backends::backend_registry();
    const auto ran = [&](const char* key) -> std::string {
        if (!resumed_) return "";
        const auto found = resumed_->run.find(key);
        return found == resumed_->run.end() ? "" : found->second;
    };
    // A resumed run of auto continues on the backend its checkpoint's engine ran, whatever auto would
    // pick now (another host, another measurement): only the same backend continues it bit for bit.
    engine_config requested = config_;
    std::string pinned_backend;
    if (requested.backend == "auto" && !ran("engine_backend").empty()) {
        requested.backend = ran("engine_backend");
        pinned_backend = "auto: " + requested.backend + " (the backend of the checkpoint's engine)";
    }
    // auto by the measured speed at this N where the run is one system alone (backends/registry.hpp).
    const bool alone = !s_.run.devices.given() && !spread(req_.ranks);
    backends::registry::resolved chosen = registry.resolve(requested, n, "the run", alone);
    if (!pinned_backend.empty()) chosen.backend_choice = pinned_backend;
    // A resumed run of fast continues on the kernel its checkpoint's engine ran, whatever fast would
    // pick now (a tuning cache written since): fast kernels differ from each other in the last bits.
    // So does a run of auto, unless that kernel gives the CPU's bits: then auto takes the kernel it
    // takes now, which gives the same bits, and runs where that one cannot (the fused engine's
    // checkpoint across MPI ranks).
    const std::string checkpoint_kernel = ran("engine_hi_kernel");
    const backends::kernel_request request = backends::request_of(chosen.config.hi_kernel);
    const bool any_cpu_order_kernel =
        request == backends::kernel_request::automatic && chosen.chosen->can.sums_in_cpu_order(checkpoint_kernel);
    std::string pinned_kernel;
    if (request != backends::kernel_request::named && !checkpoint_kernel.empty() && !any_cpu_order_kernel) {
        pinned_kernel = (chosen.config.hi_kernel.empty() ? std::string("auto") : chosen.config.hi_kernel) + ": " +
                        checkpoint_kernel + " (the kernel of the checkpoint's engine)";
        chosen.config.hi_kernel = checkpoint_kernel;
    }
    const device_context device = backends::device_context_for(*chosen.chosen, s_.run.devices, req_.ranks);
    // Across ranks the kernel is chosen here, on rank 0's device, and sent: auto and fast are never
    // resolved on the others, whose device is checked only together with every rank's
    // (cuda/device_group.hpp) and whose tuning cache may pick another kernel.
    chosen = registry.choose_kernel(std::move(chosen), n, device);
    if (!pinned_kernel.empty()) chosen.hi_kernel_choice = pinned_kernel;
    if (any_cpu_order_kernel && chosen.config.hi_kernel != checkpoint_kernel)
        chosen.hi_kernel_choice += "; the checkpoint's engine ran " + checkpoint_kernel + ", the same bits";
    if (!spread(req_.ranks)) {
        eng_ = backends::make_engine(chosen, device, s_.particles);
        return;
    }
    // The others build theirs at the same time (construction computes v = mu F together).
    announce_build(*req_.ranks, run_record(s_), chosen.config, s_.run.devices);
    eng_ = lead_ranks(backends::make_engine(chosen, device, s_.particles), *req_.ranks);
}

std::optional<run_result> run_session::resume_output() {
    require_checkpoint(opts_.path, checkpoint_path_);
    resumed_ = io::read_checkpoint(checkpoint_path_);
    check_same_run(s_, *resumed_, checkpoint_path_);
    // Killed between the output's final rename and the checkpoint's removal: the run is done.
    if (std::optional<run_result> done = completed_run_at(opts_.path, s_)) {
        io::remove_frame_journal(journal_path_);
        remove_checkpoint(checkpoint_path_);
        return done;
    }
    // The run stands at the checkpoint's step already: stopping there or before would take a step
    // no one asked for (or rewrite the output for none); refused before any file is touched.
    if (req_.stop_after_step && *req_.stop_after_step <= resumed_->engine.step)
        throw input_error("command line", "--stop-at-step", std::to_string(*req_.stop_after_step),
                          "expected a step after the checkpoint's, step " + std::to_string(resumed_->engine.step) +
                              " ('" + checkpoint_path_.string() + "'): the run stands there already");
    build_engine();
    const engine_description engine = eng_->description();
    const backends::backend* const backend = backends::backend_registry().find(engine.backend);
    check_same_engine(engine.provenance(), *resumed_, checkpoint_path_,
                      backend ? backend->can : backends::capabilities{});
    try {
        eng_->restore_state(resumed_->engine);
    } catch (const std::invalid_argument& e) {
        throw input_error(checkpoint_path_.string(), "/checkpoint/engine", "", e.what());
    }
    restore_observables(observables_, *resumed_, checkpoint_path_);
    // The output is rebuilt from the checkpoint and the frame journal, never reopened: the
    // interrupted run's partial file is replaced only once the rebuilt one is complete.
    const bool moved = reclaim_output_for_resume(opts_.path);
    try {
        if (s_.run.write_trajectory) {
            journal_.emplace(journal_path_, layout_, resumed_->frames_written, resumed_->last_frame_digest);
            journal_->cut_to_frames();
        }
        out_ = std::make_unique<io::h5md_writer>(opts_, s_.particles.size(), box_, io::rebuild_tag{});
        write_identity(*out_, req_);
        out_->write_parameters("engine", io::text_parameters(eng_->description().provenance()));
        frame durable;
        for (std::uint64_t k = 0; journal_ && k < journal_->frames(); ++k) {
            journal_->read(k, durable);
            out_->append_frame(durable);
        }
        out_->replace_partial();
    } catch (...) {
        if (out_) out_->abandon();
        if (moved) undo_reclaim(opts_.path);
        throw;
    }
    return std::nullopt;
}

void run_session::open_fresh_output() {
    // Open the output before the (possibly long) set-up so a bad path fails at once.
    if (!opts_.force && fs::exists(checkpoint_path_) && completed_run_at(opts_.path, s_))
        throw input_error(opts_.path.string(), "", "", completed_run_note);
    refuse_stale_checkpoint(opts_.path, checkpoint_path_, opts_.force);
    out_ = std::make_unique<io::h5md_writer>(opts_, s_.particles.size(), box_);
    remove_checkpoint(checkpoint_path_);  // a stale one, replaced with --force
    io::remove_frame_journal(journal_path_);
    try {
        write_identity(*out_, req_);
        out_->replace_partial();  // a readable partial output always names its run
        build_engine();
        out_->write_parameters("engine", io::text_parameters(eng_->description().provenance()));
        out_->flush();
        if (s_.run.write_trajectory) journal_.emplace(journal_path_, layout_);
    } catch (...) {
        out_->abandon();  // the run never started: no partial output to keep
        throw;
    }
}

}  // namespace stokesian
