#pragma once
// The folders a command makes for its outputs (a study folder and runs/, a suite's output folders,
// their missing parents): removed again, innermost first and only while empty, unless kept, so that
// a command refused before its first run leaves nothing behind.
#include <filesystem>
#include <system_error>
#include <vector>

namespace stokesian::cli {

class made_folders {
public:
    made_folders() = default;
    made_folders(const made_folders&) = delete;
    made_folders& operator=(const made_folders&) = delete;
    ~made_folders() {
        std::error_code ignored;
        for (const std::filesystem::path& p : made_) std::filesystem::remove(p, ignored);
    }
    // Makes `dir` and its missing parents.
    void make(const std::filesystem::path& dir) {
        std::vector<std::filesystem::path> missing;
        for (std::filesystem::path p = std::filesystem::absolute(dir); !p.empty() && !std::filesystem::exists(p);
             p = p.parent_path())
            missing.push_back(p);
        std::filesystem::create_directories(dir);
        made_.insert(made_.begin(), missing.begin(), missing.end());
    }
    // The command has begun: its folders stay.
    void keep() { made_.clear(); }

private:
    std::vector<std::filesystem::path> made_;  // innermost first
};

}  // namespace stokesian::cli
