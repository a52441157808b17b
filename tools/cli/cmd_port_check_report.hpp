#pragma once
// The report of `stokesian port-check compare`: report.json (every number, verdict and the
// provenance of both records), rendered by tools/report (report_renderer.hpp) into report.md,
// report.html, histograms.csv, verdicts.csv and the PNG figures.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "stokesian/port/port_check.hpp"
#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

struct port_report_options {
    std::filesystem::path directory;
    bool plots = true;  // false: the renderer writes the documents without figures
    std::string python = "python3";
    std::string reference_dir;
};

// The files of a report directory (the PNG figures included): each follows the rule of
// secondary outputs (secondary_output.hpp), checked by the command before it compares anything.
const std::vector<std::string>& port_report_files();

// Writes report.json, renders it and prints a summary to `out`; returns true when everything passed.
bool write_port_report(const port_report_options& options, const port::port_record& a, const port::port_record& b,
                       const port::comparison& cmp, const std::vector<regression::run_check>& checks,
                       std::ostream& out);

}  // namespace stokesian::cli
