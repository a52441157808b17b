// Lock files (stokesian/io/file_lock.hpp).
#include "stokesian/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "stokesian/core/errors.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

std::string holder_of(int fd) {
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid.find_first_not_of("0123456789") == std::string::npos ? pid : "";
}

std::string holder_text(const std::string& pid) { return pid.empty() ? "another process" : "process " + pid; }

// Why the file at a lock name is not one of our lock files ("" when it is): a lock file is a
// regular file of one link holding nothing or a PID. Anything else (a hard link to a result, a
// file of the user's) would be truncated by taking the lock, so it is left alone.
std::string foreign_reason(int fd, const struct stat& opened) {
    if (!S_ISREG(opened.st_mode)) return "is not a regular file";
    if (opened.st_nlink > 1) return "has " + std::to_string(opened.st_nlink) + " links (another file's content)";
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text, 0);
    const std::string content(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (opened.st_size >= static_cast<off_t>(sizeof text) ||
        content.find_first_not_of("0123456789\n") != std::string::npos)
        return "holds something other than a process ID";
    return "";
}

}  // namespace

fs::path file_lock::lock_path_for(const fs::path& file) { return fs::path(file) += ".lock"; }

std::optional<file_lock> file_lock::try_lock(const fs::path& file, std::string* holder) {
    const fs::path path = lock_path_for(file);
    // A holder removes the lock file when it lets go; whoever opened that file before then and
    // locks it afterwards holds a lock on a removed name, so it checks and starts again.
    for (;;) {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0)
            throw input_error(file.string(), "", "",
                              "cannot create the lock file '" + path.string() + "': " + std::strerror(errno));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            if (holder != nullptr) *holder = holder_of(fd);
            ::close(fd);
            if (error == EWOULDBLOCK) return std::nullopt;
            throw input_error(file.string(), "", "", "cannot lock '" + path.string() + "': " + std::strerror(error));
        }
        struct stat opened {
        }, named{};
        if (::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
            opened.st_ino == named.st_ino) {
            if (const std::string why = foreign_reason(fd, opened); !why.empty()) {
                ::close(fd);
                throw input_error(
                    file.string(), "", "",
                    "the lock file '" + path.string() + "' " + why +
                        ": not a lock file of stokesian, left as it is; remove it or choose another name");
            }
            std::string pid = std::to_string(::getpid()) + "\n";
            // The PID only serves the messages of whoever finds the lock taken; failing to write it is harmless.
            if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) pid.clear();
            return file_lock(fd, path);
        }
        ::close(fd);
    }
}

std::string file_lock::recorded_holder(const fs::path& file) {
    const int fd = ::open(lock_path_for(file).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return "";
    const std::string pid = holder_of(fd);
    ::close(fd);
    return pid;
}

file_lock::file_lock(file_lock&& other) noexcept : fd_(other.fd_), lock_path_(std::move(other.lock_path_)) {
    other.fd_ = -1;
}

file_lock::~file_lock() {
    if (fd_ < 0) return;
    ::unlink(lock_path_.c_str());  // still locked: nobody can take the name before it is gone
    ::close(fd_);
}

file_lock lock_run_output(const fs::path& output) {
    std::string holder;
    if (auto lock = file_lock::try_lock(output, &holder)) return std::move(*lock);
    throw input_error(output.string(), "", "",
                      "another run (" + holder_text(holder) + ") is writing this output (lock '" +
                          file_lock::lock_path_for(output).string() + "'); wait for it or choose another output");
}

file_lock lock_study_folder(const fs::path& folder) {
    const fs::path file = folder / "study";
    std::string holder;
    if (auto lock = file_lock::try_lock(file, &holder)) return std::move(*lock);
    throw input_error(folder.string(), "", "",
                      "another study (" + holder_text(holder) + ") is writing this folder (lock '" +
                          file_lock::lock_path_for(file).string() + "'); wait for it or choose another --output-dir");
}

file_lock wait_for_lock(const fs::path& file, std::chrono::milliseconds patience, const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    std::string holder;
    for (;;) {
        if (auto lock = file_lock::try_lock(file, &holder)) return std::move(*lock);
        if (std::chrono::steady_clock::now() >= deadline)
            throw input_error(file.string(), "", "",
                              holder_text(holder) + " held the lock '" + file_lock::lock_path_for(file).string() +
                                  "' for more than " + std::to_string(patience.count() / 1000) + " s while " + what +
                                  "; try again when it has finished");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace stokesian::io
