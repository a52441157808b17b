#pragma once
// Progress of a running suite (`stokesian suite run`, `stokesian study`): on a terminal a status
// line rewritten every second on stderr, elsewhere (CI logs) a line on stdout every `log_every`.
#include <functional>
#include <string>
#include <vector>

#include "stokesian/regression/suite_runner.hpp"

namespace stokesian::cli {

// "3/17 runs done, 14 running, 0 failed; 41% of all steps, 5 min 00 s elapsed, about 7 min left;
// furthest behind: NAME 9%".
std::string suite_status_line(const std::vector<regression::suite_run_status>& runs, double elapsed);

// Waits until every run of `suite` has ended, printing the status line as described above.
void follow_suite(regression::suite_execution& suite, bool terminal, double log_every_seconds,
                  const std::function<double()>& elapsed);

}  // namespace stokesian::cli
