#pragma once
// The fuzz input as a file (the HDF5 readers take paths): one file per process, rewritten for
// every input, removed at exit.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace stokesian::fuzz {

class input_file {
public:
    input_file(const std::uint8_t* data, std::size_t size, const char* suffix)
        : path_(std::filesystem::temp_directory_path() /
                ("stokesian_fuzz_" + std::to_string(::getpid()) + suffix)) {
        std::FILE* out = std::fopen(path_.c_str(), "wb");
        if (out == nullptr) throw std::runtime_error("fuzz: cannot write " + path_.string());
        if (size > 0 && std::fwrite(data, 1, size, out) != size) {
            std::fclose(out);
            throw std::runtime_error("fuzz: cannot write " + path_.string());
        }
        std::fclose(out);
    }
    ~input_file() {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    input_file(const input_file&) = delete;
    input_file& operator=(const input_file&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace stokesian::fuzz
