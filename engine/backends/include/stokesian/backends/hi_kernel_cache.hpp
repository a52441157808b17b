#pragma once
// The tuning cache of `--hi-kernel auto|fast` (stokesian/backends/hi_kernel_choice.hpp): what
// `stokesian bench tune` measured on a device, one entry per (device, N, HI precision, boundary),
// in a small JSON file under the user's cache folder (default_cache_path()). A run consults it
// only for an entry of its own device and N; everything else comes from the measured table. The
// file is a convenience, never an input a run depends on: a missing one is an empty cache, a
// corrupt one is ignored with a one-line warning.
#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "stokesian/numeric/precision.hpp"

namespace stokesian::backends {

struct tuned_kernels {
    std::string device_name;         // "NVIDIA H100 80GB HBM3"
    std::string compute_capability;  // "9.0"
    std::size_t particles = 0;
    precision hi = precision::f64;
    bool periodic = false;
    std::string exact, fast;                  // the fastest of each class ("" when not timed)
    std::map<std::string, double> median_ms;  // every kernel timed: median ms per HI update
    std::string tuned_at;                     // UTC date and time of the measurement
};

class tuning_cache {
public:
    // Reads `path`. A missing file (or an empty path) is an empty cache. A file that cannot be read
    // or is not a cache of this format (bad JSON, another format or version, a malformed entry) is
    // ignored: an empty cache and one line on `warnings` (null: none) naming the file and what is
    // wrong. Never throws for the file's contents.
    static tuning_cache load(const std::filesystem::path& path, std::ostream* warnings);

    // The entry for this device (name and compute capability), N, hi and boundary; null: none.
    const tuned_kernels* find(const std::string& device_name, const std::string& compute_capability,
                              std::size_t particles, precision hi, bool periodic) const;
    // Adds `entry`, replacing one of the same key.
    void put(const tuned_kernels& entry);
    const std::vector<tuned_kernels>& entries() const { return entries_; }
    const std::filesystem::path& path() const { return path_; }

    // Writes the cache to `path` (its folder created), through a temporary file renamed over it,
    // so a crash leaves the old file or the new one. Throws std::runtime_error naming the file.
    void save(const std::filesystem::path& path) const;
    // The JSON text save() writes.
    std::string text() const;

private:
    std::filesystem::path path_;
    std::vector<tuned_kernels> entries_;
};

// $XDG_CACHE_HOME/stokesian/hi-kernels.json, else $HOME/.cache/stokesian/hi-kernels.json; empty
// when neither variable is set (no cache).
std::filesystem::path default_cache_path();

// The cache at default_cache_path(), read now; a warning about a corrupt file goes to stderr once per
// process and file.
tuning_cache user_tuning_cache();

}  // namespace stokesian::backends
