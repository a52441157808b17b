#pragma once
// Errors a user can cause get one clear line and exit code 2 (input_error); everything else
// is a runtime failure with exit code 1.
#include <stdexcept>
#include <string>
#include <string_view>

namespace stokesian {

// A value as a message echoes it: whole up to 80 bytes, otherwise its first 60 bytes and
// "... (N bytes)", so that a 100 kB option value does not become a 100 kB message.
std::string echoed(std::string_view value);

// "FILE: KEY = VALUE: what is expected" (any part may be empty; VALUE echoed()).
class input_error : public std::runtime_error {
public:
    input_error(std::string file, std::string key, std::string value, std::string expected);
    explicit input_error(const std::string& message) : std::runtime_error(message) {}
};

// A write failed for want of space (full device, spent quota, file size limit): the
// environment's to fix, so exit code 2 like bad input. `path` is the file being written.
class no_space_error : public input_error {
public:
    no_space_error(const std::string& message, std::string path) : input_error(message), path_(std::move(path)) {}
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace stokesian
