#pragma once
// The internal state of a streaming observable, as named arrays, for checkpoints: an observable
// saves every member that influences what it writes or summarises, and restoring a saved state
// into a fresh observable of the same settings continues it bit for bit. Names are flat words
// ("z.step", "finder.window_time"); the checkpoint file stores each array as one dataset.
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace stokesian {

class saved_state {
public:
    // --- saving -----------------------------------------------------------------------------
    void put_real(const std::string& name, double value) { reals[name] = {value}; }
    void put_reals(const std::string& name, std::vector<double> values) { reals[name] = std::move(values); }
    void put_count(const std::string& name, std::uint64_t value) { counts[name] = {value}; }
    void put_counts(const std::string& name, std::vector<std::uint64_t> values) { counts[name] = std::move(values); }
    void put_text(const std::string& name, std::string value) { texts[name] = std::move(value); }

    // --- restoring: a missing name or a scalar of the wrong length throws std::invalid_argument
    // (a checkpoint file is user input; the caller names the file).
    const std::vector<double>& real_array(const std::string& name) const { return find(reals, name, "real"); }
    const std::vector<std::uint64_t>& count_array(const std::string& name) const { return find(counts, name, "count"); }
    double real(const std::string& name) const { return single(real_array(name), name); }
    std::uint64_t count(const std::string& name) const { return single(count_array(name), name); }
    const std::string& text(const std::string& name) const { return find(texts, name, "text"); }
    bool flag(const std::string& name) const {
        const std::uint64_t value = count(name);
        if (value > 1)
            throw std::invalid_argument("state '" + name + "' = " + std::to_string(value) + ", expected 0 or 1");
        return value == 1;
    }

    // Bitwise equality: NaNs with the same payload are equal, +0 and -0 are not.
    friend bool operator==(const saved_state& a, const saved_state& b) {
        if (a.counts != b.counts || a.texts != b.texts || a.reals.size() != b.reals.size()) return false;
        for (auto i = a.reals.begin(), j = b.reals.begin(); i != a.reals.end(); ++i, ++j) {
            if (i->first != j->first || i->second.size() != j->second.size()) return false;
            if (!i->second.empty() &&
                std::memcmp(i->second.data(), j->second.data(), i->second.size() * sizeof(double)) != 0)
                return false;
        }
        return true;
    }

    std::map<std::string, std::vector<double>> reals;
    std::map<std::string, std::vector<std::uint64_t>> counts;
    std::map<std::string, std::string> texts;

private:
    template <class T>
    static const T& find(const std::map<std::string, T>& map, const std::string& name, const char* kind) {
        const auto found = map.find(name);
        if (found == map.end()) throw std::invalid_argument(std::string("missing ") + kind + " state '" + name + "'");
        return found->second;
    }
    template <class T>
    static T single(const std::vector<T>& values, const std::string& name) {
        if (values.size() != 1)
            throw std::invalid_argument("state '" + name + "' has " + std::to_string(values.size()) +
                                        " values, expected 1");
        return values.front();
    }
};

// Throws std::invalid_argument unless `values` has `expected` entries (arrays that must match
// another array or a setting).
template <class T>
void require_length(const std::vector<T>& values, std::size_t expected, const std::string& name) {
    if (values.size() != expected)
        throw std::invalid_argument("state '" + name + "' has " + std::to_string(values.size()) + " values, expected " +
                                    std::to_string(expected));
}

}  // namespace stokesian
