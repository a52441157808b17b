#pragma once
// The outputs of `stokesian reference check`: the table on the terminal, a JSON file and a JUnit
// XML file (one testcase per run and observable, as CI systems display them).
#include <ostream>
#include <string>
#include <vector>

#include "stokesian/io/json_text.hpp"
#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

void print_check_table(std::ostream& out, const std::vector<regression::run_check>& checks);
// The JSON and JUnit XML documents (written by a secondary_output: secondary_output.hpp). The JSON
// carries `provenance` (the checking command's build and invocation, the reference set) at the top
// and each run's own provenance and that of its reference entry.
std::string check_json(const std::vector<regression::run_check>& checks, const io::json& provenance);
std::string check_junit(const std::vector<regression::run_check>& checks);

}  // namespace stokesian::cli
