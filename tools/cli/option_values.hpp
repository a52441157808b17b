#pragma once
// Option values the command line takes as text and checks itself, so that a message names the
// option and the value as typed: CLI11 reads "-1" as 2^64 - 1 for an unsigned option.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::cli {

// A step count (decimal digits, 1 to max_step_count: stokesian/core/step_count.hpp); otherwise
// input_error "command line: key 'OPTION' = TEXT: expected ...".
std::uint64_t step_count_option(const std::string& text, const std::string& option);

// Checks of an option's text for CLI11, run before CLI11 converts it (it reads "-1" as 2^64 - 1
// for a 64-bit unsigned option; its own PositiveNumber and NonNegativeNumber print their bound,
// DBL_MAX, in 309 digits and let nan through): a bad value is one line "OPTION: VALUE: expected
// ...", exit code 2. `zero_means` (what 0 does) admits 0 where it has a meaning.
// A step count: read_step_count (stokesian/core/step_count.hpp), or read_step_count_or_zero.
CLI::Validator step_count_check(const std::string& zero_means = {});
// Seconds: a finite number > 0, or >= 0.
CLI::Validator seconds_check(const std::string& zero_means = {});

// The non-empty items of `text` between any of the `separators` ("a,,b" -> {a, b}).
std::vector<std::string> split_list(std::string_view text, std::string_view separators);

}  // namespace stokesian::cli
