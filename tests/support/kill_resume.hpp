#pragma once
// The machinery of the kill/resume tests (tests/cli/quick_kill_resume_test.cpp and
// long_kill_resume_test.cpp): a run of the built CLI killed with SIGKILL at random moments, again
// and again, continued each time the way a user would, until it completes; and the checks of what
// every kill leaves behind.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "support/cli_process.hpp"
#include "support/h5md_comparison.hpp"

namespace stokesian::test_support {

inline std::string json_field(const std::string& json, const std::string& key) {
    const std::string tag = "\"" + key + "\":\"";
    const auto at = json.find(tag);
    if (at == std::string::npos) return "";
    const auto begin = at + tag.size();
    return json.substr(begin, json.find('"', begin) - begin);
}

inline std::string file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every file a run may leave beside its output.
inline std::vector<std::filesystem::path> companions_of(const std::filesystem::path& out) {
    std::vector<std::filesystem::path> names;
    for (const char* suffix : {".partial", ".checkpoint", ".checkpoint.tmp", ".frames", ".partial.rebuild"})
        names.push_back(std::filesystem::path(out) += suffix);
    return names;
}

// "" when `out` is the reference run's output bit for bit (final digest, every frame, every
// observable series and analysis result), completed, with nothing left beside it.
inline std::string difference_from_reference(const std::filesystem::path& out, const cli_outcome& last,
                                             const std::filesystem::path& reference, const cli_outcome& reference_run) {
    if (last.exit_code != 0) return "exit " + std::to_string(last.exit_code) + ": " + last.err;
    const std::string digest = json_field(reference_run.out, "final_state_digest");
    if (json_field(last.out, "status") != "completed") return "status '" + json_field(last.out, "status") + "'";
    if (json_field(last.out, "final_state_digest") != digest)
        return "final state digest " + json_field(last.out, "final_state_digest") + ", the uninterrupted run's " +
               digest;
    try {
        const io::h5md_file f(out);
        if (f.string_attribute("/parameters/run", "status") != "completed")
            return "the file's status is not 'completed'";
        if (f.string_attribute("/parameters/run", "final_state_digest") != digest)
            return "the file's final state digest differs";
        if (std::string d = first_difference(reference.string(), out.string()); !d.empty()) return d;
    } catch (const std::exception& e) {
        return e.what();
    }
    for (const auto& left : companions_of(out))
        if (std::filesystem::exists(left)) return "left behind: " + left.string();
    return "";
}

// The final state digest a completed output records ("" when it cannot be read).
inline std::string recorded_digest(const std::filesystem::path& out) {
    try {
        return io::h5md_file(out).string_attribute("/parameters/run", "final_state_digest").value_or("");
    } catch (const std::exception&) {
        return "";
    }
}

// What the kills of one run left and what followed them.
struct kill_record {
    int kills = 0;                      // SIGKILLs that landed (the child died of them)
    int before_first_checkpoint = 0;    // ... of them with no checkpoint yet: the run started over
    int readable_partials = 0;          // kills after which io::h5md_file opened the .partial
    int unreadable_partials = 0;        // ... did not (HDF5 1.10 without SWMR; nothing reads it)
    cli_outcome last;                   // the final, uninterrupted command
    std::vector<std::string> problems;  // broken promises, one line each
};

// Runs `args` (which write `out`) and kills it with SIGKILL after a random delay drawn uniformly
// from [0, window_seconds) of its start; then continues as a user would: `run --resume OUT` where
// a checkpoint exists, else (a kill before the first checkpoint: nothing to resume, which
// `--resume` must say with exit 2) the same command again. Each of the first `kill_attempts`
// commands is killed that way; the next one runs to its end. After every kill that landed: the
// checkpoint, when there is one, is readable, and the partial output, when HDF5 can read it, names
// its run (/parameters/scenario with the scenario text, issue #17.5).
inline kill_record kill_until_complete(const std::vector<std::string>& args, const std::filesystem::path& out,
                                       const std::filesystem::path& capture, std::mt19937& rng, double window_seconds,
                                       int kill_attempts) {
    namespace fs = std::filesystem;
    kill_record r;
    const fs::path checkpoint = io::checkpoint_path_for(out), partial = fs::path(out) += ".partial";
    const std::vector<std::string> resume{"run", "--resume", out.string(), "--json"};
    bool have_checkpoint = false;
    for (int attempt = 0;; ++attempt) {
        const bool kill_this = attempt < kill_attempts;
        const double delay = std::uniform_real_distribution<double>(0.0, window_seconds)(rng);
        if (!have_checkpoint && attempt > 0) {
            const cli_outcome refused = run_cli(resume, capture);
            if (refused.exit_code != 2 || refused.err.find("no checkpoint to resume from") == std::string::npos)
                r.problems.push_back("--resume without a checkpoint: exit " + std::to_string(refused.exit_code) + ": " +
                                     refused.err);
        }
        cli_process child(have_checkpoint ? resume : args, capture);
        if (kill_this) {
            std::this_thread::sleep_for(std::chrono::duration<double>(delay));
            child.signal(SIGKILL);
        }
        r.last = child.wait();
        if (r.last.exit_code != 128 + SIGKILL) {
            if (r.last.exit_code == 0 || !kill_this) return r;  // done, or a failure the caller reports
            r.problems.push_back("exit " + std::to_string(r.last.exit_code) + " before the kill: " + r.last.err);
            return r;
        }
        ++r.kills;
        have_checkpoint = fs::exists(checkpoint);
        if (!have_checkpoint && fs::exists(out)) {
            // Killed after the checkpoint's removal, the very end of a completed run: --resume
            // has nothing to do; the completed file speaks for itself.
            r.last = {0, "{\"status\":\"completed\",\"final_state_digest\":\"" + recorded_digest(out) + "\"}", ""};
            return r;
        }
        if (!have_checkpoint) ++r.before_first_checkpoint;
        if (have_checkpoint) try {
                io::read_checkpoint(checkpoint);
            } catch (const std::exception& e) {
                r.problems.push_back(std::string("checkpoint unreadable after a kill: ") + e.what());
            }
        if (fs::exists(partial)) {
            std::optional<std::string> scenario_text;
            bool readable = false;
            try {
                const io::h5md_file f(partial);
                readable = true;
                if (f.exists("/parameters/scenario"))
                    scenario_text = f.string_attribute("/parameters/scenario", "source_text");
            } catch (const std::exception&) {}
            ++(readable ? r.readable_partials : r.unreadable_partials);
            if (readable && (!scenario_text || scenario_text->empty()))
                r.problems.push_back("a readable partial output without /parameters/scenario (kill " +
                                     std::to_string(r.kills) + ")");
        }
    }
}

}  // namespace stokesian::test_support
