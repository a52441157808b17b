// libFuzzer target: the scenario parser. Any text must give a scenario or one input_error; the
// scenario it gives must survive everything a run does with it before the engine starts.
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <optional>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/toml_parsing.hpp"

namespace {

// Random suspensions of more spheres than this, given as a count or by a volume fraction in a box,
// are left to the unit tests: generating and checking millions of spheres is legal and takes
// minutes under the sanitizers (4e6: 221 s on the 2-core CI machine; 2.4e6 by a volume fraction
// bound a fixed-seed session), so a session that found one would be bound by it instead of by the
// parser (the per-input timeout of run_fuzzer.sh is derived from the largest lattices, 10 s).
constexpr std::int64_t most_fuzzed_random_spheres = 100000;

// The spheres a [particles.random] table asks for: its count, or, without one, what its volume
// fraction gives in the box's edges (N = phi V / ((4/3) pi a^3), random_suspension.cpp's rule);
// nothing where the numbers are missing or not numbers (the parser says why).
std::optional<double> random_spheres_asked(const toml::table& t) {
    const auto random = t["particles"]["random"];
    if (const auto count = random["count"].value<std::int64_t>()) return static_cast<double>(*count);
    const auto fraction = random["volume_fraction"].value<double>();
    const toml::array* edges = t["box"]["edges"].as_array();
    if (!fraction || edges == nullptr || edges->size() != 3) return std::nullopt;
    double volume = 1.0;
    for (const toml::node& edge : *edges) {
        const std::optional<double> length = edge.value<double>();
        if (!length) return std::nullopt;
        volume *= *length;
    }
    const double a = t["physics"]["radius"].value_or(1.0);
    return *fraction * volume / (4.0 / 3.0 * std::numbers::pi * a * a * a);
}

bool generates_too_many_spheres(const std::string& text) {
    try {
        const std::optional<double> spheres = random_spheres_asked(stokesian::parse_toml(text, "fuzz.toml"));
        return spheres && !(*spheres <= static_cast<double>(most_fuzzed_random_spheres));
    } catch (const stokesian::input_error&) {
        return false;  // the parser says why, below
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (generates_too_many_spheres(text)) return 0;
    try {
        const stokesian::scenario s = stokesian::parse_scenario(text, "fuzz.toml");
        stokesian::validate_run_settings(s.run, "fuzz.toml");
        (void)stokesian::resolved_configuration(s);
        (void)stokesian::make_engine_config(s);
        (void)stokesian::run_record(s);
        (void)stokesian::make_observables(s);
    } catch (const stokesian::input_error&) {
        // The expected outcome for broken text: one line, no crash.
    }
    return 0;
}
