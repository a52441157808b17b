// libFuzzer target: the scenario parser. Any text must give a scenario or one input_error; the
// scenario it gives must survive everything a run does with it before the engine starts.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/toml_parsing.hpp"

namespace {

// Random suspensions of more spheres than this are left to the unit tests: generating and checking
// millions of spheres is legal and takes minutes under the sanitizers (4e6: 221 s on the 2-core CI
// machine), so a session that found one would be bound by it instead of by the parser (the
// per-input timeout of run_fuzzer.sh is derived from the largest lattices, 10 s).
constexpr std::int64_t most_fuzzed_random_spheres = 100000;

bool generates_too_many_spheres(const std::string& text) {
    try {
        const toml::table t = stokesian::parse_toml(text, "fuzz.toml");
        const std::optional<std::int64_t> count = t["particles"]["random"]["count"].value<std::int64_t>();
        return count && *count > most_fuzzed_random_spheres;
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
