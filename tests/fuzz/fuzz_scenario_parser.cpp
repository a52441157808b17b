// libFuzzer target: the scenario parser. Any text must give a scenario or one input_error; the
// scenario it gives must survive everything a run does with it before the engine starts.
#include <cstddef>
#include <cstdint>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/observables/observable.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
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
