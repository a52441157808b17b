#pragma once
// Progress of a running suite (`stokesian suite run`, `stokesian study`): on a terminal a status
// line rewritten every second on stderr, elsewhere (CI logs) the heartbeat's line (heartbeat.hpp).
#include <functional>
#include <string>
#include <vector>

#include "heartbeat.hpp"
#include "stokesian/regression/suite_runner.hpp"

namespace stokesian::cli {

// "3/17 runs done, 14 running, 0 failed; 41% of all steps, 5 min 00 s elapsed, about 7 min left;
// furthest behind: NAME 9%". With several manifests in one pool the counts are over all runs, each
// suite's own follows ("22 runs done ... elapsed (nightly 3/17, negative_control 1/5 done), ...") and
// runs are named SUITE/NAME.
std::string suite_status_line(const std::vector<regression::suite_run_status>& runs, double elapsed);

// Starts `suite` and waits until every run has ended: calls `print_finished(run, n, total)` (which
// prints a line on stdout) as the n-th run ends, and shows the status line as described above in
// between (on a terminal), or beats `pulse` with it (elsewhere). Returns the wall seconds since the start.
double run_suite_with_progress(
    regression::suite_execution& suite, heartbeat& pulse,
    const std::function<void(const regression::suite_run_status&, std::size_t, std::size_t)>& print_finished);

}  // namespace stokesian::cli
