// Finding and running the report renderer (report_renderer.hpp).
#include "report_renderer.hpp"

#include <cstdlib>
#include <system_error>

#include <sys/wait.h>

namespace stokesian::cli {

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (const char c : s) {
        if (c == '\'') q += "'\\''";  // close the quote, an escaped quote, reopen
        else q += c;
    }
    return q + "'";
}

}  // namespace

fs::path find_report_renderer() {
    std::vector<fs::path> candidates;
    if (const char* dir = std::getenv("STOKESIAN_REPORT_DIR")) candidates.emplace_back(dir);
    std::error_code e;
    const fs::path exe = fs::read_symlink("/proc/self/exe", e);
    if (!e) {
        candidates.push_back(exe.parent_path() / "../../tools/report");  // build/bin/stokesian
        candidates.push_back(exe.parent_path() / "../tools/report");
        candidates.push_back(exe.parent_path() / "../share/stokesian/report");
    }
    candidates.push_back(fs::current_path(e) / "tools/report");
    for (const fs::path& c : candidates)
        if (fs::is_regular_file(c / "__main__.py", e)) return fs::weakly_canonical(c, e);
    return {};
}

std::string python_interpreter(const std::string& requested) {
    if (!requested.empty()) return requested;
    if (const char* python = std::getenv("STOKESIAN_PYTHON")) return python;
    std::error_code e;
    return fs::exists("/usr/bin/python3", e) ? "/usr/bin/python3" : "python3";
}

render_outcome render_report(const std::string& interpreter, const std::vector<std::string>& args,
                             const fs::path& log) {
    render_outcome r;
    const fs::path renderer = find_report_renderer();
    r.command = shell_quote(interpreter) + ' ' + shell_quote(renderer.empty() ? "tools/report" : renderer.string());
    for (const std::string& a : args) r.command += ' ' + shell_quote(a);
    if (renderer.empty()) {
        r.status = 127;
        r.note = "tools/report not found (set STOKESIAN_REPORT_DIR); render from a checkout with: " + r.command;
        return r;
    }
    std::string line = r.command;
    if (!log.empty()) line += " >" + shell_quote(log.string()) + " 2>&1";
    const int raw = std::system(line.c_str());
    r.status = raw == -1 ? 127 : WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    if (r.status == 3)
        r.note = "not rendered: a Python package is missing (python3-jinja2, -matplotlib, -h5py, -numpy; " +
                 (log.empty() ? std::string("see above") : "see " + log.string()) +
                 "); render later with: " + r.command;
    else if (r.status != 0)
        r.note = "rendering failed (exit " + std::to_string(r.status) + (log.empty() ? "" : ", see " + log.string()) +
                 "): " + r.command;
    return r;
}

}  // namespace stokesian::cli
