#pragma once
// Run lengths, sample and checkpoint intervals count whole steps of dt. One rule for every place a
// count comes from: scenario files, the command line (run, study, port-check), suites, and run
// settings read back from checkpoints and results.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stokesian {

// The most steps a run, a sample interval or a checkpoint interval may count: 2^53, the largest
// count below which every whole number is a double. Step numbers become sample times (step * dt),
// JSON numbers and ratios value / dt, all doubles; past 2^53 they would skip steps. At 10^8
// steps/s (about the fastest system, four spheres on the fused CUDA path) 2^53 steps take 3 years.
inline constexpr std::uint64_t max_step_count = std::uint64_t{1} << 53;
inline constexpr const char* max_step_count_text = "2^53 = 9007199254740992";

// value / dt as a whole number of steps k with 1 <= k <= max_step_count, when |value - k dt| <=
// 1e-9 value (the format's "integer multiple of dt"); nothing for an infinite or NaN ratio, k < 1,
// k past the maximum, or a ratio that is not whole.
std::optional<std::uint64_t> whole_steps(double value, double dt);

// Why value is not such a multiple, for a message ("" when it is): "expected an integer multiple
// of run.dt = 0.01 (run.time / run.dt = 10.5)", or "... of at most 2^53 = ... steps ...".
std::string whole_steps_problem(double value, double dt, const std::string& key, const std::string& dt_key);

// A step count written on the command line: decimal digits only (no sign, no exponent, no 0x),
// 1 <= count <= max_step_count; nothing otherwise.
std::optional<std::uint64_t> read_step_count(std::string_view text);
// The same with 0 allowed, for counts where 0 has a meaning (no warm-up steps, never reset).
std::optional<std::uint64_t> read_step_count_or_zero(std::string_view text);

}  // namespace stokesian
