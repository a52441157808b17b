#pragma once
// The outputs of `stokesian reference check`: the table on the terminal, a JSON file and a JUnit
// XML file (one testcase per run and observable, as CI systems display them).
#include <filesystem>
#include <ostream>
#include <vector>

#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

void print_check_table(std::ostream& out, const std::vector<regression::run_check>& checks);
void write_check_json(const std::filesystem::path& path, const std::vector<regression::run_check>& checks);
void write_check_junit(const std::filesystem::path& path, const std::vector<regression::run_check>& checks);

}  // namespace stokesian::cli
