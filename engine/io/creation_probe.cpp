#include "stokesian/io/creation_probe.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "stokesian/core/errors.hpp"

namespace stokesian::io {

void require_creatable(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) return;  // left by a killed run: the caller replaces it
    if (fd < 0)
        throw input_error(file.string(), "", "", std::string("cannot create it (") + std::strerror(errno) + ")");
    ::close(fd);
    ::unlink(file.c_str());
}

}  // namespace stokesian::io
