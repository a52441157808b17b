#pragma once
// Option values the command line takes as text and checks itself, so that a message names the
// option and the value as typed: CLI11 reads "-1" as 2^64 - 1 for an unsigned option.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::cli {

// A step count (decimal digits, 1 to max_step_count: stokesian/core/step_count.hpp); otherwise
// input_error "command line: key 'OPTION' = TEXT: expected ...".
std::uint64_t step_count_option(const std::string& text, const std::string& option);

// The non-empty items of `text` between any of the `separators` ("a,,b" -> {a, b}).
std::vector<std::string> split_list(std::string_view text, std::string_view separators);

}  // namespace stokesian::cli
