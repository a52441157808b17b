#include "option_values.hpp"

#include <cmath>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/step_count.hpp"

namespace stokesian::cli {

std::uint64_t step_count_option(const std::string& text, const std::string& option) {
    if (const auto count = read_step_count(text)) return *count;
    throw input_error("command line", option, text,
                      std::string("expected a whole number of steps from 1 to ") + max_step_count_text);
}

CLI::Validator step_count_check(const std::string& zero_means) {
    return {[zero_means](std::string& text) -> std::string {
                if (zero_means.empty() ? read_step_count(text) : read_step_count_or_zero(text)) return "";
                return echoed(text) + ": expected a whole number of steps from " + (zero_means.empty() ? "1" : "0") +
                       " to " + max_step_count_text + (zero_means.empty() ? "" : " (0: " + zero_means + ")");
            },
            ""};
}

CLI::Validator seconds_check(const std::string& zero_means) {
    return {[zero_means](std::string& text) -> std::string {
                const std::optional<double> seconds = read_number(text);
                if (seconds && std::isfinite(*seconds) && (*seconds > 0.0 || (*seconds == 0.0 && !zero_means.empty())))
                    return "";
                return echoed(text) + ": expected a finite number of seconds " +
                       (zero_means.empty() ? "> 0" : ">= 0 (0: " + zero_means + ")");
            },
            ""};
}

std::vector<std::string> split_list(std::string_view text, std::string_view separators) {
    std::vector<std::string> items;
    std::string item;
    for (const char c : text) {
        if (separators.find(c) == std::string_view::npos) {
            item += c;
        } else if (!item.empty()) {
            items.push_back(item);
            item.clear();
        }
    }
    if (!item.empty()) items.push_back(item);
    return items;
}

}  // namespace stokesian::cli
