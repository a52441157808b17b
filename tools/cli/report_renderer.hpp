#pragma once
// The report renderer, tools/report (a Python package: Jinja2 templates and matplotlib, Debian's
// python3-jinja2, -matplotlib, -h5py, -numpy), as the CLI finds and runs it. The C++ commands write
// data (JSON, HDF5) only; `stokesian study` and `stokesian port-check compare` then call
// `python3 tools/report study|port-check DIR`, in a child process whose failure costs the documents
// and figures only, never the data: the command says how to render them later.
#include <filesystem>
#include <string>
#include <vector>

namespace stokesian::cli {

// The tools/report directory: $STOKESIAN_REPORT_DIR, else beside the binary (build/bin/../../tools/report,
// bin/../tools/report, bin/../share/stokesian/report), else ./tools/report; empty when none exists.
std::filesystem::path find_report_renderer();

// `requested` when given, else $STOKESIAN_PYTHON, else /usr/bin/python3 (Debian's, where the
// python3-* packages are; a python3 first on PATH often lacks them), else python3.
std::string python_interpreter(const std::string& requested = {});

struct render_outcome {
    std::string command;  // the command line (run it by hand to render again)
    int status = 0;       // its exit status (tools/report: 0 done, 3 a Python package missing)
    std::string note;     // empty when rendered; else one line: what is missing and how to render
};

// Runs `interpreter tools/report args...` through the shell, every word quoted; stdout and stderr go
// to `log` when given.
render_outcome render_report(const std::string& interpreter, const std::vector<std::string>& args,
                             const std::filesystem::path& log = {});

}  // namespace stokesian::cli
