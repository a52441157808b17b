#pragma once
// The paper's tetrahedron (scenarios/tetrahedron.toml) for tests that run the engine directly.
#include <cmath>
#include <cstdint>
#include <string>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

namespace stokesian::test_support {

// Loaded once per test process.
inline const scenario& tetrahedron() {
    static const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    return s;
}

// The positions after `duration` tau_s of the tetrahedron run with `config` (its dt included) on one
// CPU thread.
inline frame run_tetrahedron(engine_config config, double duration) {
    config.threads = 1;
    auto e = make_engine(config, tetrahedron().particles);
    e->advance(static_cast<std::uint64_t>(std::llround(duration / config.dt)));
    frame f;
    e->read_frame(f);
    return f;
}

}  // namespace stokesian::test_support
