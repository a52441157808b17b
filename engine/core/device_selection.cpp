#include "stokesian/core/device_selection.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace stokesian {

namespace {

constexpr std::string_view expected = "expected device ordinals such as \"0,1,2,3\", or \"all\"";

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

int parse_ordinal(std::string_view item) {
    if (item.empty()) throw std::invalid_argument(std::string(expected) + " (an empty item)");
    long long value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc{} || end != item.data() + item.size())
        throw std::invalid_argument(std::string(expected) + " ('" + std::string(item) + "' is not a whole number)");
    if (value < 0) throw std::invalid_argument("device " + std::string(item) + " is negative (ordinals count from 0)");
    if (value > 1'000'000) throw std::invalid_argument("device " + std::string(item) + " does not exist anywhere");
    return int(value);
}

}  // namespace

device_selection parse_device_selection(std::string_view text) {
    const std::string_view whole = trimmed(text);
    if (whole == "all") return {true, {}};
    if (whole.empty()) throw std::invalid_argument(std::string(expected) + " (an empty list)");
    device_selection s;
    for (std::size_t begin = 0;;) {
        const std::size_t comma = whole.find(',', begin);
        const int ordinal = parse_ordinal(trimmed(whole.substr(begin, comma - begin)));
        if (std::find(s.ordinals.begin(), s.ordinals.end(), ordinal) != s.ordinals.end())
            throw std::invalid_argument("device " + std::to_string(ordinal) + " is named twice");
        s.ordinals.push_back(ordinal);
        if (comma == std::string_view::npos) break;
        begin = comma + 1;
    }
    return s;
}

std::string to_string(const device_selection& selection) {
    if (selection.all) return "all";
    std::string text;
    for (const int d : selection.ordinals) {
        if (!text.empty()) text += ',';
        text += std::to_string(d);
    }
    return text;
}

std::vector<int> resolve_devices(const device_selection& selection, unsigned present) {
    if (!selection.given()) return {0};
    if (selection.all) {
        if (present == 0) throw std::invalid_argument("\"all\" devices: no device is present here");
        std::vector<int> every(present);
        for (unsigned d = 0; d < present; ++d) every[d] = int(d);
        return every;
    }
    check_ordinals(selection.ordinals, present);
    return selection.ordinals;
}

std::string present_devices(unsigned present) {
    return present == 0 ? std::string("no device here")
                        : std::to_string(present) + " here: ordinals 0 to " + std::to_string(present - 1);
}

void check_ordinals(const std::vector<int>& ordinals, unsigned present) {
    for (std::size_t k = 0; k < ordinals.size(); ++k) {
        const int d = ordinals[k];
        if (d < 0 || unsigned(d) >= present)
            throw std::invalid_argument("device " + std::to_string(d) + " is not present (" + present_devices(present) +
                                        ")");
        if (std::find(ordinals.begin(), ordinals.begin() + std::ptrdiff_t(k), d) !=
            ordinals.begin() + std::ptrdiff_t(k))
            throw std::invalid_argument("device " + std::to_string(d) + " is named twice");
    }
}

}  // namespace stokesian
