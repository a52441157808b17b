// Build and run provenance (see stokesian/io/provenance.hpp).
#include "stokesian/io/provenance.hpp"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string_view>

#include "stokesian/core/version.hpp"

// engine/CMakeLists.txt defines these for the engine target; the fallbacks keep the file
// compilable elsewhere (and make a missing definition visible in the output).
#ifndef STOKESIAN_CXX_COMPILER
#define STOKESIAN_CXX_COMPILER "unknown"
#endif
#ifndef STOKESIAN_HOST_FP_FLAGS_STRING
#define STOKESIAN_HOST_FP_FLAGS_STRING "unknown"
#endif
#ifndef STOKESIAN_BUILD_TYPE
#define STOKESIAN_BUILD_TYPE "unknown"
#endif

namespace stokesian::io {

namespace {

// An argument as a POSIX shell would need it to reproduce the same argv: bare when it contains
// only characters the shell leaves alone, otherwise in single quotes (a ' inside becomes '\'').
std::string shell_quote(std::string_view argument) {
    constexpr std::string_view safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";
    if (!argument.empty() && argument.find_first_not_of(safe) == std::string_view::npos) return std::string(argument);
    std::string quoted = "'";
    for (const char c : argument) {
        if (c == '\'') quoted += "'\\''";
        else quoted += c;
    }
    return quoted + "'";
}

std::string host_name() {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
    return name.data();
}

std::string utc_now_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    std::array<char, 32> text{};
    const std::size_t length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text.data(), length);
}

std::string working_directory() {
    std::error_code error;
    const std::filesystem::path path = std::filesystem::current_path(error);
    return error ? "unknown" : path.string();
}

}  // namespace

std::string user_name() {
    if (const char* user = std::getenv("USER"); user != nullptr && *user != '\0') return user;
    if (const passwd* entry = ::getpwuid(::geteuid()); entry != nullptr && entry->pw_name != nullptr)
        return entry->pw_name;
    return "unknown";
}

std::map<std::string, std::string> build_provenance() {
    return {{"version", git_describe()},
            {"compiler", STOKESIAN_CXX_COMPILER},
            {"host_fp_flags", STOKESIAN_HOST_FP_FLAGS_STRING},
            {"build_type", STOKESIAN_BUILD_TYPE}};
}

std::map<std::string, std::string> run_provenance(int argc, char** argv) {
    std::string command;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) command += ' ';
        command += shell_quote(argv[i] != nullptr ? argv[i] : "");
    }
    return {{"host", host_name()},
            {"user", user_name()},
            {"date", utc_now_iso8601()},
            {"command", command},
            {"working_directory", working_directory()}};
}

}  // namespace stokesian::io
