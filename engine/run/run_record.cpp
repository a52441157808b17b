// What a checkpoint records about its run (run/run.hpp): the identity a resumed run must share
// with it, and the settings that rebuild the scenario without the scenario file.
#include "run_record.hpp"

#include <cstdio>
#include <cstring>
#include <string_view>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {

// Doubles as their shortest round-trip text: parsing it back gives the same bits.
std::string exact(double x) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

// The keys a resumed run must match, in the order they are checked (the first mismatch is the
// one reported). engine_* come from the engine that wrote the checkpoint.
constexpr const char* identity_keys[] = {"scenario_text_fnv1a64",
                                         "case",
                                         "particles",
                                         "precision",
                                         "dt",
                                         "integrator",
                                         "total_steps",
                                         "sample_interval_steps",
                                         "write_trajectory",
                                         "min_separation",
                                         "backend",
                                         "hi_kernel"};
constexpr const char* engine_keys[] = {"backend", "hi_kernel", "cuda_fp_flags"};

const std::string& entry(const io::run_checkpoint& c, const std::filesystem::path& path, const std::string& key) {
    const auto found = c.run.find(key);
    if (found == c.run.end())
        throw input_error(path.string(), "/checkpoint/run", "", "attribute '" + key + "' is missing");
    return found->second;
}

double parse_double(const io::run_checkpoint& c, const std::filesystem::path& path, const std::string& key) {
    const std::string& text = entry(c, path, key);
    const auto value = read_number(text);
    if (!value)
        throw input_error(path.string(), "/checkpoint/run", "",
                          "attribute '" + key + "' = '" + echoed(text) + "' is not a number");
    return *value;
}

std::uint64_t parse_count(const io::run_checkpoint& c, const std::filesystem::path& path, const std::string& key) {
    const std::string& text = entry(c, path, key);
    const auto value = read_count(text);
    if (!value)
        throw input_error(path.string(), "/checkpoint/run", "",
                          "attribute '" + key + "' = '" + echoed(text) + "' is not a count");
    return *value;
}

}  // namespace

std::map<std::string, std::string> run_record(const scenario& s) {
    const run_settings& r = s.run;
    std::map<std::string, std::string> record{
        {"scenario_text_fnv1a64", text_digest(s.source_text)},
        {"case", s.case_name},
        {"particles", std::to_string(s.particles.size())},
        {"precision", to_string(r.precision)},
        {"dt", exact(r.dt)},
        {"integrator", std::string(to_string(r.integrator))},
        {"total_steps", std::to_string(r.total_steps())},
        {"sample_interval_steps", std::to_string(r.sample_interval_steps())},
        {"write_trajectory", r.write_trajectory ? "true" : "false"},
        {"min_separation", exact(r.min_separation)},
        {"backend", r.backend},
        {"hi_kernel", r.hi_kernel},
        // Settings that rebuild the scenario (scenario_from_checkpoint); not part of the identity.
        {"scenario_text", s.source_text},
        {"scenario_path", s.source_path.string()},
        {"sample_every", exact(r.sample_every)},
    };
    if (r.time) record["time"] = exact(*r.time);
    if (r.steps) record["steps"] = std::to_string(*r.steps);
    if (r.checkpoint_every) record["checkpoint_every"] = exact(*r.checkpoint_every);
    return record;
}

void record_engine(std::map<std::string, std::string>& record, const std::map<std::string, std::string>& description) {
    for (const char* key : engine_keys) {
        const auto found = description.find(key);
        record[std::string("engine_") + key] = found == description.end() ? "" : found->second;
    }
}

void check_same_run(const scenario& s, const io::run_checkpoint& c, const std::filesystem::path& path) {
    const std::map<std::string, std::string> mine = run_record(s);
    for (const char* key : identity_keys) {
        const std::string& theirs = entry(c, path, key);
        const std::string& ours = mine.at(key);
        // The default kernel was written "" before it was "auto" (2026-11-27): the same request.
        const bool same_request = std::string_view(key) == "hi_kernel" && theirs.empty() && ours == "auto";
        if (theirs != ours && !same_request)
            throw input_error(path.string(), key, theirs,
                              "the checkpoint belongs to a run with " + std::string(key) + " = '" + echoed(theirs) +
                                  "', this run has '" + ours +
                                  "' (resume with the scenario and options the run started with)");
    }
}

void check_same_engine(const std::map<std::string, std::string>& description, const io::run_checkpoint& c,
                       const std::filesystem::path& path, const backends::capabilities& can) {
    std::map<std::string, std::string> mine;
    record_engine(mine, description);
    for (const auto& [key, ours] : mine) {
        const std::string& theirs = entry(c, path, key);
        if (key == "engine_hi_kernel" && can.sums_in_cpu_order(theirs) && can.sums_in_cpu_order(ours)) continue;
        if (theirs != ours)
            throw input_error(path.string(), key, theirs,
                              "the checkpoint was written by an engine with " + key + " = '" + echoed(theirs) +
                                  "', this run's engine has '" + ours +
                                  "' (only the same backend continues a run bit for bit)");
    }
}

scenario scenario_from_checkpoint(const io::run_checkpoint& c, const std::filesystem::path& path) {
    scenario s =
        parse_scenario(entry(c, path, "scenario_text"), entry(c, path, "scenario_path"), entry(c, path, "case"));
    run_settings& r = s.run;
    r.dt = parse_double(c, path, "dt");
    r.time.reset();
    r.steps.reset();
    if (c.run.count("time")) r.time = parse_double(c, path, "time");
    if (c.run.count("steps")) r.steps = parse_count(c, path, "steps");
    r.sample_every = parse_double(c, path, "sample_every");
    r.checkpoint_every.reset();
    if (c.run.count("checkpoint_every")) r.checkpoint_every = parse_double(c, path, "checkpoint_every");
    r.min_separation = parse_double(c, path, "min_separation");
    r.write_trajectory = entry(c, path, "write_trajectory") == "true";
    r.backend = entry(c, path, "backend");
    r.hi_kernel = entry(c, path, "hi_kernel");
    for (const char* key : {"precision", "integrator"}) {
        const std::string& text = entry(c, path, key);
        try {
            if (std::string(key) == "precision") r.precision = parse_precision_mode(text);
            else r.integrator = parse_integrator(text);
        } catch (const std::invalid_argument& e) {
            throw input_error(path.string(), "/checkpoint/run", "",
                              "attribute '" + std::string(key) + "' = '" + echoed(text) + "': " + e.what());
        }
    }
    validate_run_settings(r, path.string());
    // The rebuilt run must be the recorded one (e.g. the same total steps).
    check_same_run(s, c, path);
    return s;
}

}  // namespace stokesian
