// The tuning cache of --hi-kernel auto|fast (stokesian/backends/hi_kernel_cache.hpp), JSON through
// nlohmann-json.
#include "stokesian/backends/hi_kernel_cache.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include "stokesian/core/precision_modes.hpp"

namespace stokesian::backends {

namespace {

using json = nlohmann::json;

constexpr const char* format_name = "stokesian hi-kernel tuning cache";
constexpr int format_version = 1;

const char* boundary_name(bool periodic) { return periodic ? "periodic" : "open"; }

bool same_key(const tuned_kernels& a, const tuned_kernels& b) {
    return a.device_name == b.device_name && a.compute_capability == b.compute_capability &&
           a.particles == b.particles && a.hi == b.hi && a.periodic == b.periodic;
}

json to_json(const tuned_kernels& e) {
    json times = json::object();
    for (const auto& [kernel, ms] : e.median_ms) times[kernel] = ms;
    return {{"device_name", e.device_name},
            {"compute_capability", e.compute_capability},
            {"particles", e.particles},
            {"hi", std::string(to_string(e.hi))},
            {"boundary", boundary_name(e.periodic)},
            {"exact", e.exact},
            {"fast", e.fast},
            {"median_ms", times},
            {"tuned_at", e.tuned_at}};
}

// Throws std::invalid_argument (or nlohmann's type_error) naming what is wrong with one entry.
tuned_kernels from_json(const json& j) {
    if (!j.is_object()) throw std::invalid_argument("an entry is not an object");
    tuned_kernels e;
    e.device_name = j.at("device_name").get<std::string>();
    e.compute_capability = j.at("compute_capability").get<std::string>();
    e.particles = j.at("particles").get<std::size_t>();
    e.hi = parse_precision(j.at("hi").get<std::string>());
    const std::string boundary = j.at("boundary").get<std::string>();
    if (boundary != "periodic" && boundary != "open")
        throw std::invalid_argument("boundary '" + boundary + "' (expected periodic or open)");
    e.periodic = boundary == "periodic";
    e.exact = j.at("exact").get<std::string>();
    e.fast = j.at("fast").get<std::string>();
    for (const auto& [kernel, ms] : j.at("median_ms").items()) e.median_ms[kernel] = ms.get<double>();
    e.tuned_at = j.value("tuned_at", std::string());
    if (e.particles == 0) throw std::invalid_argument("an entry has particles = 0");
    return e;
}

std::vector<tuned_kernels> parse(const std::string& text) {
    const json document = json::parse(text);
    if (!document.is_object() || document.value("format", std::string()) != format_name)
        throw std::invalid_argument(std::string("not a ") + format_name);
    if (document.value("version", 0) != format_version)
        throw std::invalid_argument("version " + document.value("version", json(nullptr)).dump() + " (expected " +
                                    std::to_string(format_version) + ")");
    std::vector<tuned_kernels> entries;
    for (const json& entry : document.at("entries")) entries.push_back(from_json(entry));
    return entries;
}

// One line per (file, message) and process: a suite makes many engines.
void warn_once(std::ostream& out, const std::string& line) {
    static std::mutex lock;
    static std::set<std::string> said;
    const std::lock_guard<std::mutex> guard(lock);
    if (said.insert(line).second) out << line << "\n";
}

}  // namespace

tuning_cache tuning_cache::load(const std::filesystem::path& path, std::ostream* warnings) {
    tuning_cache cache;
    cache.path_ = path;
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return cache;
    try {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::invalid_argument("cannot be read");
        std::ostringstream text;
        text << in.rdbuf();
        cache.entries_ = parse(text.str());
    } catch (const std::exception& e) {
        // nlohmann's messages are one line; the file is ignored, never fatal.
        if (warnings)
            warn_once(*warnings, "stokesian: ignoring the hi-kernel tuning cache " + path.string() + ": " + e.what() +
                                     " (stokesian bench tune rewrites it)");
        cache.entries_.clear();
    }
    return cache;
}

const tuned_kernels* tuning_cache::find(const std::string& device_name, const std::string& compute_capability,
                                        std::size_t particles, precision hi, bool periodic) const {
    tuned_kernels key;
    key.device_name = device_name;
    key.compute_capability = compute_capability;
    key.particles = particles;
    key.hi = hi;
    key.periodic = periodic;
    for (const tuned_kernels& e : entries_)
        if (same_key(e, key)) return &e;
    return nullptr;
}

void tuning_cache::put(const tuned_kernels& entry) {
    for (tuned_kernels& e : entries_)
        if (same_key(e, entry)) {
            e = entry;
            return;
        }
    entries_.push_back(entry);
}

std::string tuning_cache::text() const {
    json entries = json::array();
    for (const tuned_kernels& e : entries_) entries.push_back(to_json(e));
    const json document{{"format", format_name}, {"version", format_version}, {"entries", entries}};
    return document.dump(2) + "\n";
}

void tuning_cache::save(const std::filesystem::path& path) const {
    const auto fail = [&](const std::string& why) {
        throw std::runtime_error("cannot write the hi-kernel tuning cache " + path.string() + ": " + why);
    };
    std::error_code ec;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) fail(ec.message());
    }
    std::filesystem::path temporary = path;
    temporary += ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text();
        out.flush();
        if (!out) {
            std::filesystem::remove(temporary, ec);
            fail("writing " + temporary.string() + " failed");
        }
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        fail(ec.message());
    }
}

std::filesystem::path default_cache_path() {
    const auto non_empty = [](const char* name) -> const char* {
        const char* value = std::getenv(name);
        return value != nullptr && *value != '\0' ? value : nullptr;
    };
    if (const char* xdg = non_empty("XDG_CACHE_HOME"))
        return std::filesystem::path(xdg) / "stokesian" / "hi-kernels.json";
    if (const char* home = non_empty("HOME"))
        return std::filesystem::path(home) / ".cache" / "stokesian" / "hi-kernels.json";
    return {};
}

tuning_cache user_tuning_cache() { return tuning_cache::load(default_cache_path(), &std::cerr); }

}  // namespace stokesian::backends
