#include "stokesian/core/driver_version.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace stokesian {

namespace {
// A release number: digits, at least one dot, digits and dots only ("580.159.04", "550.54").
bool is_release_number(std::string_view token) {
    if (token.empty() || !std::isdigit(static_cast<unsigned char>(token.front())) ||
        !std::isdigit(static_cast<unsigned char>(token.back())))
        return false;
    bool dot = false;
    for (char c : token) {
        if (c == '.') dot = true;
        else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return dot;
}
}  // namespace

std::string parse_nvidia_driver_release(std::string_view text) {
    const auto line_start = text.find("NVRM version:");
    if (line_start == std::string_view::npos) return "";
    auto line = text.substr(line_start);
    line = line.substr(0, line.find('\n'));
    std::istringstream words{std::string(line)};
    std::string word;
    while (words >> word)
        if (is_release_number(word)) return word;
    return "";
}

std::string installed_nvidia_driver_release(const std::filesystem::path& proc_version_file) {
    std::ifstream in(proc_version_file);
    if (!in) return "";
    std::ostringstream text;
    text << in.rdbuf();
    return parse_nvidia_driver_release(text.str());
}

std::string driver_description(std::string_view release, std::string_view cuda_api_version) {
    std::string cuda = "CUDA " + std::string(cuda_api_version);
    return release.empty() ? cuda : std::string(release) + " (" + cuda + ")";
}

}  // namespace stokesian
