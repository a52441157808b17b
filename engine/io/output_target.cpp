// Output names and atomic small files (stokesian/io/output_target.hpp).
#include "stokesian/io/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "path_limits.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/hdf5_writing.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

// The same file as one of `inputs` (both exist and have the same device and inode).
bool is_an_input(const struct stat& output, const std::vector<fs::path>& inputs) {
    for (const fs::path& input : inputs) {
        struct stat in {};
        if (::stat(input.c_str(), &in) == 0 && in.st_dev == output.st_dev && in.st_ino == output.st_ino) return true;
    }
    return false;
}

// The name without trailing separators ("o/" is "o"), "." and ".." resolved lexically.
fs::path without_trailing_separator(const fs::path& path) {
    fs::path normal = path.lexically_normal();
    if (!normal.has_filename() && normal.has_relative_path()) normal = normal.parent_path();
    return normal;
}

}  // namespace

bool same_file(const fs::path& a, const fs::path& b) {
    struct stat sa {
    }, sb{};
    const bool a_there = ::stat(a.c_str(), &sa) == 0, b_there = ::stat(b.c_str(), &sb) == 0;
    if (a_there || b_there) return a_there && b_there && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const fs::path na = without_trailing_separator(a), nb = without_trailing_separator(b);
    if (na.empty() || nb.empty() || na.filename() != nb.filename()) return false;
    if (na == nb) return true;
    const fs::path da = directory_of(na), db = directory_of(nb);
    return da != na && db != nb && same_file(da, db);
}

std::string temporary_suffix() { return ".tmp-" + std::to_string(::getpid()); }

void check_output_target(const fs::path& path, bool force, const std::vector<fs::path>& inputs,
                         const std::string& option, std::string_view longest_suffix) {
    const std::string name = path.string();
    if (name.empty())
        throw input_error("command line", option.empty() ? "--output" : option, "''",
                          "expected a file name, not an empty one");
    check_path_lengths(path, longest_suffix);
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) {
        if (S_ISDIR(status.st_mode)) throw input_error(name, "", "", "is a directory, expected an output file name");
        if (!S_ISREG(status.st_mode))
            throw input_error(name, "", "",
                              "is not a regular file (a device, FIFO or socket): refusing to write an output there");
        if (is_an_input(status, inputs))
            throw input_error(name, option, "", "is also an input of this command: refusing to write over it");
        if (!force) throw input_error(name, "", "", "output file exists; use --force to replace it");
    }
    const fs::path directory = directory_of(path);
    std::error_code error;
    const fs::file_status directory_status = fs::status(directory, error);
    if (!fs::exists(directory_status))
        throw input_error(name, "", "", "directory '" + directory.string() + "' does not exist");
    if (!fs::is_directory(directory_status))
        throw input_error(name, "", "", "'" + directory.string() + "' is not a directory");
}

void write_file_atomically(const fs::path& path, std::string_view content) {
    const fs::path temporary = fs::path(path) += temporary_suffix();
    const std::string name = path.string();
    auto fail = [&](const std::string& what, int error) {
        ::unlink(temporary.c_str());
        throw input_error(name, "", "",
                          what + ": " + std::strerror(error) + " (nothing written; an earlier file is kept)");
    };
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw input_error(name, "", "", "cannot create '" + temporary.string() + "': " + std::strerror(errno));
    for (std::size_t written = 0; written < content.size();) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            fail("cannot write", error);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 && errno != EINVAL) {
        const int error = errno;
        ::close(fd);
        fail("cannot sync", error);
    }
    if (::close(fd) != 0) fail("cannot close", errno);
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        fail("cannot rename '" + temporary.string() + "' onto it", errno);
}

}  // namespace stokesian::io
