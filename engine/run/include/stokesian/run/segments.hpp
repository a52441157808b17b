#pragma once
// Segmented verification (engine/docs/segmented-verification.md): a deterministic run verified in
// K parallel segments against the complete states its reference run passed at K boundaries.
//
// A run asked to (run_request::boundary_steps) keeps the engine's complete state -- the checkpoint
// words: positions, images, velocities, forces, integrator history, at a step -- at each boundary
// and stores them in its result (/analysis/segment_boundaries/words, write_boundary_states);
// `reference record` copies them into the reference entry. run_segmented() then runs segment k
// from boundary k (segment 0 from the scenario's initial state) to boundary k + 1 on a pool of
// threads and requires each to end there bit for bit; when all do, the continuous run would pass
// every boundary bit for bit, so its samples are the segments' samples in order: they are fed to
// one run_session, which writes the run's one result file as the continuous run writes it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stokesian/core/engine.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian {

// Boundaries are placed only where a run gains from segments: at most max_segments segments of at
// least min_segment_steps steps, and at most boundary_budget_bytes of states per run.
inline constexpr std::uint64_t max_segments = 256;
inline constexpr std::uint64_t min_segment_steps = 10000;
inline constexpr std::uint64_t boundary_budget_bytes = 256 * 1024;

// The boundary steps of a run of `total_steps` sampled every `interval` steps with `particles`
// particles: K - 1 sample steps splitting the run into K segments of nearly equal length, then the
// run's last step; empty when the run is too short (fewer than two segments).
std::vector<std::uint64_t> segment_boundaries(std::uint64_t total_steps, std::uint64_t interval, std::size_t particles);

// The complete states a run passed at its boundaries.
struct boundary_states {
    std::string precision;                   // the engine's precision mode ("hi=f64,int=f64")
    std::vector<std::uint64_t> steps;        // ascending; the last is the run's end
    std::vector<std::vector<double>> words;  // state_words() at each step
    std::vector<std::string> digests;        // boundary_digest() of each
    bool empty() const { return steps.empty(); }
};

// An engine state as one row of doubles: N, whether an integrator history follows (0 or 1), then
// position_hi, position_lo, image (whole numbers), velocity_hi, velocity_lo, force [, history_hi,
// history_lo], each 3N values. Every double keeps its bits.
std::vector<double> state_words(const engine_state& state);
// The inverse (the step and precision are stored beside the words); std::invalid_argument for a
// row that is not one.
engine_state state_from_words(const std::vector<double>& words, precision_mode precision, std::uint64_t step);
// Digest (hex, current algorithm) of a boundary: its step and every word's bits.
std::string boundary_digest(std::uint64_t step, const std::vector<double>& words);
// Steps ascend, and steps, rows and digests agree in number and the rows in width: "" or why not.
// (Whether each state matches its digest is each segment's first check.)
std::string boundary_states_fault(const boundary_states& b);

// A result file's boundary states: written by a run that captured them all, read by `reference record`.
void write_boundary_states(io::h5md_writer& out, const boundary_states& b);
// Empty when the result holds none; input_error naming the file when they are malformed.
boundary_states read_boundary_states(const io::h5md_file& result, const std::string& name);

// A run verified in segments against `reference` (request.boundary_steps is ignored: the
// reference's steps are the boundaries): the result of the run, written as a continuous run
// writes it, when every segment ended bit for bit at its boundary; otherwise nothing is written
// and `failure` names the first segment that did not, its step range and why (or why the stored
// boundaries do not fit the run). `threads` segments run at once.
struct segmented_outcome {
    std::optional<run_result> result;
    std::string failure;
    std::size_t segments = 0;
};
segmented_outcome run_segmented(const run_request& request, const boundary_states& reference, unsigned threads);

// "verified in K segments" as results and reports say it.
std::string verified_in_segments(std::size_t segments);

}  // namespace stokesian
