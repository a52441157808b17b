// Suite runs verified in segments (suite_runner.hpp, verify_mode; engine/docs/
// segmented-verification.md): the stored boundaries of a run's reference entry, and the run in
// segments -- or, where a segment does not end bit for bit at its boundary, continuously, so that
// the tolerance checks decide as they do for any run.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "stokesian/core/precision_modes.hpp"
#include "stokesian/regression/reference_store.hpp"
#include "stokesian/regression/suite_runner.hpp"

namespace stokesian::regression {

verify_mode parse_verify_mode(const std::string& text) {
    if (text == "segments") return verify_mode::segments;
    if (text == "continuous") return verify_mode::continuous;
    throw std::invalid_argument("expected segments or continuous");
}

const std::filesystem::path& boundary_folder(const prepared_run& run, const std::filesystem::path& reference_dir) {
    return run.spec.segment_references.empty() ? reference_dir : run.spec.segment_references;
}

boundary_states stored_boundaries(const prepared_run& run, reference_library& references) {
    const scenario& s = run.scenario_;
    reference_key key;
    key.scenario = s.name;
    key.case_name = s.case_name;
    // The mode the run computes, also for a negative control labelled as another
    // (negative_control.hpp): its segments prove its result the continuous run's of what it
    // computes, and the check then compares that result with the entry of its label.
    key.precision = to_string(s.run.precision);
    key.dt = s.run.dt;
    key.integrator = std::string(to_string(s.run.integrator));
    try {
        key.backend_class = backend_class_of(s.run.backend);
        const reference_set* set = references.file_for(key.scenario);
        if (set == nullptr) return {};
        auto entry = set->entries.find(key.group_path());
        if (entry == set->entries.end() && key.backend_class == "gpu") {
            key.backend_class = "cpu";
            entry = set->entries.find(key.group_path());
        }
        if (entry == set->entries.end() || entry->second.planned_steps != s.run.total_steps()) return {};
        return entry->second.boundaries;
    } catch (const std::exception&) {
        return {};  // an unreadable reference: the run goes on continuously and the check says why
    }
}

void suite_execution::execute_segmented(std::size_t index) {
    mark_running(index);
    run_request request = request_for(index);
    const unsigned threads = options_.jobs > 0 ? options_.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::string verification;
    try {
        const auto started = std::chrono::steady_clock::now();
        segmented_outcome outcome = run_segmented(request, boundaries_[index], threads);
        if (outcome.result) {
            // The run's wall time is its segments' and the stitching's (the result file says the stitching's).
            outcome.result->wall_seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            verification = verified_in_segments(outcome.segments);
            {
                std::lock_guard lock(mutex_);
                status_[index].verification = verification;
            }
            ended(index, &*outcome.result, nullptr);
            return;
        }
        verification = "ran continuously: " + outcome.failure;
    } catch (const std::exception& e) {
        verification = std::string("ran continuously: segmented verification failed: ") + e.what();
    }
    {
        std::lock_guard lock(mutex_);
        status_[index].verification = verification;
    }
    request.invocation["verification"] = verification;
    try {
        const run_result r = run_scenario(request);
        ended(index, &r, nullptr);
    } catch (...) {
        ended(index, nullptr, std::current_exception());
    }
}

}  // namespace stokesian::regression
