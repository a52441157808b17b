#pragma once
// Errors a user can cause get one clear line and exit code 2 (input_error); everything else
// is a runtime failure with exit code 1.
#include <stdexcept>
#include <string>

namespace stokesian {

// "FILE: KEY = VALUE: what is expected" (any part may be empty).
class input_error : public std::runtime_error {
public:
    input_error(std::string file, std::string key, std::string value, std::string expected);
    explicit input_error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace stokesian
