// Boundary states of a run (stokesian/run/segments.hpp): where they go, their words and digests,
// and how a result file stores them.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/run/segments.hpp"

namespace stokesian {

namespace {

constexpr const char* words_path = "segment_boundaries/words";  // under /analysis (h5md_writer::write_result)

std::size_t state_bytes(std::size_t particles) { return (2 + 18 * particles) * sizeof(double); }

void append(std::vector<double>& out, const std::vector<vec3<double>>& values) {
    for (const auto& v : values) out.insert(out.end(), {v.x, v.y, v.z});
}

void append(std::vector<double>& out, const std::vector<vec3<int>>& values) {
    for (const auto& v : values) out.insert(out.end(), {double(v.x), double(v.y), double(v.z)});
}

template <class T>
std::vector<vec3<T>> take(const std::vector<double>& words, std::size_t& at, std::size_t n) {
    std::vector<vec3<T>> out(n);
    for (auto& v : out) {
        v = {T(words[at]), T(words[at + 1]), T(words[at + 2])};
        at += 3;
    }
    return out;
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
    return out;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) out.push_back(part);
    return out;
}

}  // namespace

std::vector<std::uint64_t> segment_boundaries(std::uint64_t total_steps, std::uint64_t interval,
                                              std::size_t particles) {
    if (interval == 0 || total_steps < 2 * min_segment_steps) return {};
    const std::uint64_t samples = total_steps / interval;  // sample steps after step 0
    const std::uint64_t segments = std::min(
        {max_segments, total_steps / min_segment_steps, samples, boundary_budget_bytes / state_bytes(particles)});
    if (segments < 2) return {};
    std::vector<std::uint64_t> steps;
    for (std::uint64_t j = 1; j < segments; ++j) {
        const std::uint64_t step = (j * samples / segments) * interval;
        if (step > 0 && step < total_steps && (steps.empty() || step > steps.back())) steps.push_back(step);
    }
    steps.push_back(total_steps);
    return steps;
}

std::vector<double> state_words(const engine_state& s) {
    std::vector<double> words{double(s.position_hi.size()), s.history_hi.empty() ? 0.0 : 1.0};
    words.reserve(2 + 24 * s.position_hi.size());
    append(words, s.position_hi);
    append(words, s.position_lo);
    append(words, s.image);
    append(words, s.velocity_hi);
    append(words, s.velocity_lo);
    append(words, s.force);
    if (!s.history_hi.empty()) {
        append(words, s.history_hi);
        append(words, s.history_lo);
    }
    return words;
}

engine_state state_from_words(const std::vector<double>& words, precision_mode precision, std::uint64_t step) {
    if (words.size() < 2 || !(words[0] >= 0.0) || words[0] != std::floor(words[0]) ||
        (words[1] != 0.0 && words[1] != 1.0))
        throw std::invalid_argument("a boundary state's row does not start with N and a history flag");
    const auto n = std::size_t(words[0]);
    const bool history = words[1] == 1.0;
    if (words.size() != 2 + (history ? 24 : 18) * n)
        throw std::invalid_argument("a boundary state's row holds " + std::to_string(words.size()) +
                                    " words, not those of N = " + std::to_string(n));
    engine_state s;
    s.step = step;
    s.precision = precision;
    std::size_t at = 2;
    s.position_hi = take<double>(words, at, n);
    s.position_lo = take<double>(words, at, n);
    s.image = take<int>(words, at, n);
    s.velocity_hi = take<double>(words, at, n);
    s.velocity_lo = take<double>(words, at, n);
    s.force = take<double>(words, at, n);
    if (history) {
        s.history_hi = take<double>(words, at, n);
        s.history_lo = take<double>(words, at, n);
    }
    return s;
}

std::string boundary_digest(std::uint64_t step, const std::vector<double>& words) {
    digest_builder h;
    h.bytes(&step, sizeof step);
    h.bytes(words.data(), words.size() * sizeof(double));
    return h.hex();
}

std::string boundary_states_fault(const boundary_states& b) {
    if (b.words.size() != b.steps.size() || b.digests.size() != b.steps.size())
        return std::to_string(b.steps.size()) + " steps, " + std::to_string(b.words.size()) + " states and " +
               std::to_string(b.digests.size()) + " digests";
    for (std::size_t k = 0; k < b.steps.size(); ++k) {
        if (k > 0 && b.steps[k] <= b.steps[k - 1])
            return "the steps do not ascend at boundary " + std::to_string(k + 1);
        if (b.words[k].size() != b.words.front().size()) return "the states differ in size";
    }
    return "";
}

void write_boundary_states(io::h5md_writer& out, const boundary_states& b) {
    if (b.empty()) return;
    std::vector<double> flat;
    std::vector<std::string> steps;
    for (std::size_t k = 0; k < b.steps.size(); ++k) {
        flat.insert(flat.end(), b.words[k].begin(), b.words[k].end());
        steps.push_back(std::to_string(b.steps[k]));
    }
    out.write_result(words_path, flat,
                     {{"precision", b.precision},
                      {"steps", joined(steps)},
                      {"digests", joined(b.digests)},
                      {"words_per_state", std::to_string(b.words.front().size())},
                      {"meaning",
                       "the engine's complete state at each segment boundary (engine/docs/"
                       "segmented-verification.md); one row of words_per_state words per step"}});
}

boundary_states read_boundary_states(const io::h5md_file& f, const std::string& name) {
    const std::string path = std::string("/analysis/") + words_path;
    boundary_states b;
    if (!f.exists(path)) return b;
    const auto bad = [&](const std::string& why) -> input_error { return input_error(name, path, "", why); };
    const auto attribute = [&](const char* key) {
        const std::optional<std::string> value = f.string_attribute(path, key);
        if (!value) throw bad(std::string("no attribute ") + key);
        return *value;
    };
    b.precision = attribute("precision");
    b.digests = split(attribute("digests"));
    for (const std::string& step : split(attribute("steps"))) {
        char* end = nullptr;
        const unsigned long long value = std::strtoull(step.c_str(), &end, 10);
        if (step.empty() || *end != '\0') throw bad("steps hold '" + step.substr(0, 24) + "', not a step");
        b.steps.push_back(value);
    }
    const std::string width_text = attribute("words_per_state");
    const std::size_t width = std::strtoull(width_text.c_str(), nullptr, 10);
    const std::vector<double> flat = f.read_doubles(path);
    if (width == 0 || flat.size() != width * b.steps.size())
        throw bad(std::to_string(flat.size()) + " words for " + std::to_string(b.steps.size()) + " states of " +
                  width_text);
    for (std::size_t k = 0; k < b.steps.size(); ++k)
        b.words.emplace_back(flat.begin() + std::ptrdiff_t(k * width), flat.begin() + std::ptrdiff_t((k + 1) * width));
    if (const std::string fault = boundary_states_fault(b); !fault.empty()) throw bad(fault);
    for (std::size_t k = 0; k < b.steps.size(); ++k)
        if (boundary_digest(b.steps[k], b.words[k]) != b.digests[k])
            throw bad("the state at step " + std::to_string(b.steps[k]) + " does not match its digest");
    return b;
}

std::string verified_in_segments(std::size_t segments) {
    return "verified in " + std::to_string(segments) + " segments";
}

}  // namespace stokesian
