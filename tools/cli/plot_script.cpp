#include "plot_script.hpp"

#include <cstdlib>
#include <system_error>

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

fs::path find_plot_script(const std::string& name) {
    std::vector<fs::path> candidates;
    if (const char* dir = std::getenv("STOKESIAN_PLOT_DIR")) candidates.push_back(fs::path(dir) / name);
    std::error_code e;
    const fs::path exe = fs::read_symlink("/proc/self/exe", e);
    if (!e) {
        candidates.push_back(exe.parent_path() / "../../tools/plot" / name);  // build/bin/stokesian
        candidates.push_back(exe.parent_path() / "../tools/plot" / name);
        candidates.push_back(exe.parent_path() / "../share/stokesian" / name);
    }
    candidates.push_back(fs::current_path(e) / "tools/plot" / name);
    for (const fs::path& c : candidates)
        if (fs::is_regular_file(c, e)) return fs::weakly_canonical(c, e);
    return {};
}

std::string python_interpreter(const std::string& requested) {
    if (!requested.empty()) return requested;
    if (const char* python = std::getenv("STOKESIAN_PYTHON")) return python;
    std::error_code e;
    return fs::exists("/usr/bin/python3", e) ? "/usr/bin/python3" : "python3";
}

plot_run run_plot_script(const std::string& interpreter, const fs::path& script, const std::vector<std::string>& args,
                         const fs::path& log) {
    plot_run r;
    r.command = shell_quote(interpreter);
    r.command += ' ';
    r.command += shell_quote(script.string());
    for (const std::string& a : args) {
        r.command += ' ';
        r.command += shell_quote(a);
    }
    if (!log.empty()) {
        r.command += " >";
        r.command += shell_quote(log.string());
        r.command += " 2>&1";
    }
    r.status = std::system(r.command.c_str());
    return r;
}

}  // namespace stokesian::cli
