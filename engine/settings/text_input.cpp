#include "stokesian/settings/text_input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "stokesian/core/errors.hpp"

namespace stokesian {

namespace {
[[noreturn]] void refuse(const std::string& file, const std::string& what, const std::string& why) {
    throw input_error(file, "", "", "cannot read " + what + " (" + why + ")");
}

std::string too_large(std::uintmax_t bytes) {
    return std::to_string(bytes) + " bytes, more than the " + std::to_string(max_text_input_bytes >> 20) +
           " MiB a text input may have";
}
}  // namespace

std::string read_text_input(const std::filesystem::path& path, const std::string& what) {
    const std::string file = path.string();
    // stat first: opening a FIFO would block, and /dev/zero never ends.
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) refuse(file, what, std::strerror(errno));
    if (S_ISDIR(info.st_mode)) refuse(file, what, "is a directory");
    if (!S_ISREG(info.st_mode)) refuse(file, what, "not a regular file");
    if (std::uintmax_t(info.st_size) > max_text_input_bytes)
        refuse(file, what, too_large(std::uintmax_t(info.st_size)));
    std::FILE* stream = std::fopen(file.c_str(), "rb");
    if (stream == nullptr) refuse(file, what, std::strerror(errno));
    std::string text;
    char buffer[65536];
    std::size_t got = 0;
    // The file may have grown since stat: read one byte past the limit at most.
    while (text.size() <= max_text_input_bytes && (got = std::fread(buffer, 1, sizeof buffer, stream)) > 0)
        text.append(buffer, got);
    const bool failed = std::ferror(stream) != 0;
    const int error = errno;
    std::fclose(stream);
    if (failed) refuse(file, what, std::strerror(error));
    if (text.size() > max_text_input_bytes) refuse(file, what, too_large(text.size()) + " (it grew while read)");
    return text;
}

}  // namespace stokesian
