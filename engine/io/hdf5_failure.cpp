#include "stokesian/io/hdf5_failure.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"

namespace stokesian::io::hdf5 {

namespace {
// The text after `key` up to `end` ("" when the key is absent).
std::string_view field(std::string_view text, std::string_view key, char end) {
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return {};
    const std::string_view rest = text.substr(at + key.size());
    return rest.substr(0, rest.find(end));
}

bool out_of_space(int error_number) {
    return error_number == ENOSPC || error_number == EDQUOT || error_number == EFBIG;
}

// strerror's text with a lower-case first letter: "no space left on device".
std::string lower_reason(int error_number) {
    std::string reason = std::strerror(error_number);
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
    return reason;
}
}  // namespace

std::optional<os_failure> os_failure_in(std::string_view description) {
    const auto number = read_count(field(description, "errno = ", ','));
    if (!number || *number == 0 || *number > 4095) return std::nullopt;
    return os_failure{std::string(field(description, "filename = '", '\'')), static_cast<int>(*number)};
}

std::string one_line_reason(std::string_view description) {
    if (const auto failure = os_failure_in(description)) {
        const std::string_view operation = description.substr(0, description.find(':'));
        return std::string(operation) + ": '" + failure->file + "': " + std::strerror(failure->error_number);
    }
    std::string reason(description);
    for (char& c : reason)
        if (c == '\n' || c == '\r') c = ' ';
    return reason;
}

void throw_if_out_of_space(int error_number, const std::string& file, std::string_view what) {
    if (out_of_space(error_number))
        throw no_space_error(lower_reason(error_number) + ": " + file + " (" + std::string(what) + ")", file);
}

void throw_failure(std::string_view what, std::string_view description) {
    const auto failure = os_failure_in(description);
    if (failure) throw_if_out_of_space(failure->error_number, failure->file, "HDF5: " + std::string(what));
    std::string message = "HDF5: " + std::string(what);
    if (!description.empty()) message += ": " + one_line_reason(description);
    throw std::runtime_error(message);
}

}  // namespace stokesian::io::hdf5
