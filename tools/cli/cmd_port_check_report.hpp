#pragma once
// The report of `stokesian port-check compare`: report.md, report.html, report.json,
// histograms.csv (the data of the plots) and the PNG figures of tools/plot/plot_port_check.py.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "stokesian/port/port_check.hpp"
#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

struct port_report_options {
    std::filesystem::path directory;
    bool plots = true;
    std::string python = "python3";
    std::string reference_dir;
};

// The files of a report directory (the PNG figures included): each follows the rule of
// secondary outputs (secondary_output.hpp), checked by the command before it compares anything.
const std::vector<std::string>& port_report_files();

// Writes the report and a summary to `out`; returns true when everything passed.
bool write_port_report(const port_report_options& options, const port::port_record& a, const port::port_record& b,
                       const port::comparison& cmp, const std::vector<regression::run_check>& checks,
                       std::ostream& out);

}  // namespace stokesian::cli
