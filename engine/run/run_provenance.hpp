#pragma once
// What a run writes into its output's /parameters (engine/docs/reliability.md, "Signals and kills").
#include <map>
#include <string>

#include "stokesian/core/engine.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/run/run.hpp"

namespace stokesian {

// What identifies the run (scenario, settings with the status "running", build, command line),
// written when the output is created and flushed with it, so even a killed run's partial output
// says what it was.
void write_identity(io::h5md_writer& out, const run_request& request);

// The outcome, at the end of the run (over the identity's "running" status), and the engine.
void write_provenance(io::h5md_writer& out, const run_request& request, const engine& eng, const run_result& result);

}  // namespace stokesian
