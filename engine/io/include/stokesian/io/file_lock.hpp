#pragma once
// An exclusive lock on a file's name, held through a lock file beside it (<file>.lock, flock(2)):
// the output of a run while it runs, a reference file while `reference record` reads, changes and
// replaces it. Held locks die with their process (a SIGKILL included), so a lock file left
// behind by a killed run is not an error: it is reused. A released lock removes its lock file.
// engine/docs/reliability.md, "Locks".
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace stokesian::io {

class file_lock {
public:
    // <file>.lock
    static std::filesystem::path lock_path_for(const std::filesystem::path& file);

    // Takes the lock of `file` without waiting; nullopt when another process (or another
    // file_lock of this one) holds it, with `holder` set to its PID as the lock file records it
    // ("" if unknown). Throws input_error when the lock file cannot be created, or when the file at
    // its name is not a lock file (not a regular file, more than one link, content other than a
    // PID): that file is left as it is, never truncated.
    static std::optional<file_lock> try_lock(const std::filesystem::path& file, std::string* holder = nullptr);

    // The PID the lock file of `file` records ("" when there is none): for messages about a file
    // its holder writes. Neither takes nor tests the lock.
    static std::string recorded_holder(const std::filesystem::path& file);

    file_lock(file_lock&& other) noexcept;
    file_lock& operator=(file_lock&&) = delete;
    file_lock(const file_lock&) = delete;
    ~file_lock();

private:
    file_lock(int fd, std::filesystem::path lock_path) : fd_(fd), lock_path_(std::move(lock_path)) {}
    int fd_ = -1;
    std::filesystem::path lock_path_;
};

// The lock of a run's output, partial output and checkpoint names, held for the whole run:
// another run holding it is an input_error (exit status 2) naming the output and that run's PID.
file_lock lock_run_output(const std::filesystem::path& output);

// The lock of a study's folder (<folder>/study.lock, inside it so that every spelling of the
// folder and every link to it meet the one lock), held for the whole study: another study holding
// it is an input_error (exit status 2) naming the folder and that study's PID.
file_lock lock_study_folder(const std::filesystem::path& folder);

// The lock of `file`, waiting for it up to `patience`; after that an input_error naming the
// file, the holder's PID and `what` the lock protects.
file_lock wait_for_lock(const std::filesystem::path& file, std::chrono::milliseconds patience, const std::string& what);

}  // namespace stokesian::io
