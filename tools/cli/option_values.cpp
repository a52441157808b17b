#include "option_values.hpp"

#include "stokesian/core/errors.hpp"
#include "stokesian/core/step_count.hpp"

namespace stokesian::cli {

std::uint64_t step_count_option(const std::string& text, const std::string& option) {
    if (const auto count = read_step_count(text)) return *count;
    throw input_error("command line", option, text,
                      std::string("expected a whole number of steps from 1 to ") + max_step_count_text);
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
