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
        : path_(std::filesystem::temp_directory_path() / name(suffix)) {
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
    // The process id zero-padded: the path, and every message naming it, has the same length in
    // every run, so a fixed-seed fuzzing session takes the same course on every machine.
    static std::string name(const char* suffix) {
        char id[32];
        std::snprintf(id, sizeof id, "%010ld", static_cast<long>(::getpid()));
        return std::string("stokesian_fuzz_") + id + suffix;
    }

    std::filesystem::path path_;
};

}  // namespace stokesian::fuzz
