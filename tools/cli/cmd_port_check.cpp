// `stokesian port-check`: validate a port (new GPU, CUDA release, build flags, PTX JIT) against a
// recorded one (engine/docs/porting.md).
//   stokesian port-check record OUT.h5 [--backend cpu|cuda|auto] [--hi-kernel K] [--devices 0,1|all]
//                               [--precision M;M...]
//                               [--configs C,...] [--steps N --dt X] [--threads N] [--force]
//   stokesian port-check compare A.h5 B.h5 [--report DIR] [--reference-dir DIR --results R.h5...]
//                               [--no-plots] [--python EXE]
// Exit status of compare: 0 every mode bitwise or within its rounding bound (and every long-run
// observable within its tolerance), 1 any FAIL, 2 bad input (one line naming the file).
#include <filesystem>
#include <iostream>
#include <memory>

#include "cmd_port_check_report.hpp"
#include "commands.hpp"
#include "option_values.hpp"
#include "options_common.hpp"
#include "options_precision.hpp"
#include "options_run.hpp"
#include "report_renderer.hpp"
#include "secondary_output.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/port/port_check.hpp"
#include "stokesian/regression/reference_check.hpp"

namespace stokesian::cli {

namespace {

struct record_cli {
    std::string output, configs, swap;
    std::shared_ptr<const run_key_options> run_keys;  // --backend, ..., --steps, --dt: the [run] table's
    std::vector<precision_mode> modes;                // empty: all nine
    unsigned threads = 0;
    bool force = false;
};

struct compare_cli {
    std::string a, b, report = "port-check-report", reference_dir = "reference_data", python;
    std::vector<std::string> results;
    bool no_plots = false, force = false;
};

int run_record(const record_cli& c) {
    port::record_options o;
    o.output = c.output;
    o.force = c.force;
    // The [run] keys' values (checked by their parsers as they were read); not given: run_settings'
    // defaults, as a scenario without them (the HI kernel: the automatic request).
    run_settings run;
    for (const char* key : {"backend", "hi_kernel", "devices"})
        if (const std::optional<std::string> text = c.run_keys->text(key)) settings::set_run_key(run, key, *text);
    o.backend = run.backend;
    o.hi_kernel = c.run_keys->text("hi_kernel").value_or("");
    o.devices = run.devices;
    // The short run after the velocities: none without --steps; its dt 0.001 unless given.
    const std::optional<std::string> steps = c.run_keys->text("steps");
    o.steps = steps ? step_count_option(*steps, "--steps") : 0;
    o.dt = c.run_keys->number("dt").value_or(1e-3);
    o.threads = c.threads;
    o.modes = c.modes;
    if (c.configs != "all") o.configurations = split_list(c.configs, ",");
    if (!c.swap.empty()) {  // FROM:TO (negative control)
        const std::size_t colon = c.swap.find(':');
        if (colon == std::string::npos) throw input_error("", "--swap-mode", c.swap, "FROM:TO, two precision modes");
        o.swap_from = to_string(parse_one_precision(c.swap.substr(0, colon), "--swap-mode"));
        o.swap_to = to_string(parse_one_precision(c.swap.substr(colon + 1), "--swap-mode"));
    }
    o.invocation = io::run_provenance(invocation_argc(), invocation_argv());
    port::record(o, std::cerr);
    // Which device and which of its machine code computed the record (CUDA), read back from it.
    const port::port_record written = port::read_record(c.output);
    std::cout << "port-check record written: " << c.output;
    if (const auto code = written.device.find("device_code"); code != written.device.end())
        std::cout << " (" << (written.device.count("device_name") ? written.device.at("device_name") + ", " : "")
                  << code->second << ")";
    std::cout << "\n";
    return 0;
}

int run_compare(const compare_cli& c) {
    // Read everything first: bad input exits 2 before any report is written.
    const port::port_record a = port::read_record(c.a);
    const port::port_record b = port::read_record(c.b);
    std::vector<regression::observed_run> runs;
    for (const std::string& r : c.results) runs.push_back(regression::read_observed_run(r));
    // No report file replaces an earlier report without --force, nor any file this command reads.
    std::vector<std::filesystem::path> inputs{c.a, c.b};
    inputs.insert(inputs.end(), c.results.begin(), c.results.end());
    for (const auto& run : runs) inputs.push_back(std::filesystem::path(c.reference_dir) / run.key.file_name());
    std::error_code error;
    if (std::filesystem::is_directory(c.report, error))
        for (const std::string& file : port_report_files())
            secondary_output(std::filesystem::path(c.report) / file, c.force, inputs, "--report");
    const port::comparison cmp = port::compare(a, b);
    std::vector<regression::run_check> checks;
    if (!runs.empty()) {
        regression::reference_library references(c.reference_dir);
        for (const auto& run : runs) checks.push_back(regression::check_run(run, references));
    }
    port_report_options ro;
    ro.directory = c.report;
    ro.plots = !c.no_plots;
    ro.python = python_interpreter(c.python);
    ro.reference_dir = c.reference_dir;
    const bool passed = write_port_report(ro, a, b, cmp, checks, std::cout);
    return passed ? 0 : 1;
}

}  // namespace

action register_port_check(CLI::App& app) {
    auto rec = std::make_shared<record_cli>();
    auto cmp = std::make_shared<compare_cli>();
    auto* cmd = app.add_subcommand("port-check",
                                   "Validate a port: record velocities of fixed configurations in every "
                                   "precision mode, compare two records (engine/docs/porting.md)");
    cmd->require_subcommand(1);
    auto* r = cmd->add_subcommand(
        "record", "Evaluate the velocities of the fixed configuration set and store them with provenance");
    r->add_option("output", rec->output, "record file to write (HDF5)")->required();
    rec->run_keys = add_run_key_options(
        *r,
        "Where the velocities are evaluated, as these [run] keys choose for a run (on several devices the record "
        "equals the one-device record bit for bit), and a short run after them: --steps (default none) at --dt "
        "(default 0.001 here)",
        {"backend", "hi_kernel", "devices", "steps", "dt"});
    add_precision_list_option(*r, rec->modes, "default all nine");
    r->add_option(
        "--configs", rec->configs,
        "configurations, comma separated: tetrahedron,fcc_500,fcc_4000,random_1000,near_contact (default all)");
    add_threads_option(*r, rec->threads);
    r->add_flag("--force", rec->force, "replace an existing record");
    r->add_option("--swap-mode", rec->swap, "negative control: store mode FROM's velocities as mode TO (FROM:TO)")
        ->group("");
    auto* c =
        cmd->add_subcommand("compare", "Compare two records: ULP and relative differences, per-mode verdicts, report");
    c->add_option("a", cmp->a, "the recorded (old) record")->required();
    c->add_option("b", cmp->b, "the new record")->required();
    c->add_option("--report", cmp->report, "report directory (report.md, report.html, report.json, PNG plots)");
    c->add_option("--reference-dir", cmp->reference_dir, "reference directory for --results (default reference_data)");
    c->add_option("--results", cmp->results,
                  "long-run result files (stokesian run / suite run) to check against the references");
    c->add_flag("--no-plots", cmp->no_plots, "render the report without figures (tools/report)");
    c->add_flag("--force", cmp->force, "replace the files of an earlier report in the --report directory");
    c->add_option("--python", cmp->python,
                  "Python interpreter for the report renderer, tools/report (default $STOKESIAN_PYTHON, else "
                  "/usr/bin/python3, else python3)");
    return [rec, cmp, r, c]() -> int {
        if (r->parsed()) return run_record(*rec);
        if (c->parsed()) return run_compare(*cmp);
        return 2;
    };
}

}  // namespace stokesian::cli
