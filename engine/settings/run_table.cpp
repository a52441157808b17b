// The [run] table: run length, sampling, precision, backend, integrator, checkpoints; the keys with a
// command-line option say how it is spelled (`cli`).
#include <algorithm>
#include <cmath>
#include <string>

#include "field_reader.hpp"
#include "scenario_tables.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/step_count.hpp"

namespace stokesian::settings {

namespace {

// time (or sample_every, checkpoint_every) = k dt with a whole number of steps k (core/step_count.hpp).
void require_multiple_of_dt(const field_reader& r, std::string_view key, double value, double dt) {
    const auto e = r.table().find(key);
    const std::string problem = whole_steps_problem(value, dt, e->key, r.table().find("dt")->key);
    if (!problem.empty()) r.check().fail(*e, problem);
}

// Of time and steps, the one of the highest layer that sets either; exactly one is required.
void resolve_run_length(const field_reader& r, run_settings& run) {
    const auto length = r.table().exclusive("time", "steps");
    if (!length) r.check().fail_missing(r.table().key("time"), "time = <tau_s> or steps = <integer>, the run length");
    if (length->key.ends_with("steps")) {
        run.time.reset();
    } else {
        run.steps.reset();
        require_multiple_of_dt(r, "time", *run.time, run.dt);
    }
}

void resolve_sample_every(const field_reader& r, run_settings& run) {
    if (r.table().find("sample_every")) require_multiple_of_dt(r, "sample_every", run.sample_every, run.dt);
    // The multiple of dt closest to 1 tau_s (dt itself when dt > 1).
    else run.sample_every = run.dt * std::max(1.0, std::round(1.0 / run.dt));
}

void check_checkpoint_every(const field_reader& r, run_settings& run) {
    if (run.checkpoint_every) require_multiple_of_dt(r, "checkpoint_every", *run.checkpoint_every, run.dt);
}

// run.backend: a registered backend or "auto" (stokesian/backends/registry.hpp), each named in the
// reference's row.
std::string_view backend_doc() {
    static const std::string doc = [] {
        const backends::registry& registry = backends::backend_registry();
        std::string text;
        for (const backends::backend& b : registry.all()) text += "`\"" + b.name + "\"` (" + b.title + "), ";
        return text.substr(0, text.size() - 2) + " or `\"auto\"` (" + registry.automatic_order() + ")";
    }();
    return doc;
}

// run.backend: a registered backend or "auto"; the registry's refusal names them (and, for a
// backend's name joined to a kernel's, "cuda-fused", the one spelling of it).
void set_backend(run_settings& r, const std::string& text) {
    const backends::registry& registry = backends::backend_registry();
    if (!registry.accepts(text)) throw std::invalid_argument(registry.refusal_of(text));
    r.backend = text;
}

// --backend's help: "cpu | cuda | auto (auto: <what it picks>)".
std::string_view backend_help() {
    static const std::string help = [] {
        const backends::registry& registry = backends::backend_registry();
        std::string text;
        for (const std::string& name : registry.choices()) text += (text.empty() ? "" : " | ") + name;
        return text + " (auto: " + registry.automatic_order() + ")";
    }();
    return help;
}

// run.hi_kernel: a request or a kernel of the backend (which checks the name); "auto" is the one
// spelling of the default request.
void set_hi_kernel(run_settings& r, const std::string& text) {
    if (text.empty()) throw std::invalid_argument("expected auto, fast or a kernel the backend names");
    r.hi_kernel = text;
}

// --hi-kernel's help: "HI summation kernel (cpu: auto | fast | all-pairs | symmetric; cuda: ...)",
// the registry's names, the requests first (stokesian/backends/hi_kernel_choice.hpp).
std::string_view hi_kernel_help() {
    static const std::string help = [] {
        std::string text;
        for (const backends::backend& b : backends::backend_registry().all()) {
            if (b.can.hi_kernels.empty()) continue;
            text += (text.empty() ? "" : "; ") + b.name + ":";
            for (std::size_t k = 0; k < b.can.hi_kernels.size(); ++k) text += (k ? " | " : " ") + b.can.hi_kernels[k];
        }
        return "HI summation kernel (" + text +
               "); auto: the fastest exact path for N, precision, box and device (bit for bit whatever it picks), "
               "fast: the fastest fast-math kernel";
    }();
    return help;
}

// run.precision's row (a '|' escaped in the Markdown table) and --precision's help, from the list of
// precisions.
std::string_view precision_doc() {
    static const std::string doc = [] {
        std::string text = "`";
        for (const char c : precision_mode_spellings()) text += c == '|' ? std::string("\\|") : std::string(1, c);
        return text +
               "`: the precision of the accumulation of hydrodynamic interactions and of the positions (paper "
               "Sec. 5)";
    }();
    return doc;
}
std::string_view precision_help() {
    static const std::string help = "precision mode: " + precision_mode_spellings();
    return help;
}

// Built on first use: the backend choices come from the registry, which must exist first.
std::span<const field<run_settings>> table() {
    static const field<run_settings> fields[] = {
        {.key = "dt",
         .member = &run_settings::dt,
         .rule = {.sign = sign_rule::positive},
         .doc = {"number", "required", "> 0; the time step in tau_s"},
         .missing = "a number > 0 (the time step in tau_s)",
         .cli = {.option = "--dt"}},
        {.key = "time",
         .member = &run_settings::time,
         .rule = {.sign = sign_rule::positive},
         .doc = {"number", "", "> 0; the run length in tau_s, an integer multiple of `dt` (within 1e-9 relative)"},
         .excludes = "steps",
         .cli = {.option = "--time"}},
        {.key = "steps",
         .member = &run_settings::steps,
         .rule = {.min = 1, .max = std::int64_t(max_step_count)},
         .doc = {"integer", "", "1 to 2^53; the run length in steps. Set exactly one of `time` and `steps`"},
         .after = resolve_run_length,
         .excludes = "time",
         .cli = {.option = "--steps", .help = "1 to 2^53 (digits only); the run length in steps"}},
        {.key = "total_steps", .member = +[](const run_settings& r) { return r.total_steps(); }},
        {.key = "sample_every",
         .member = &run_settings::sample_every,
         .rule = {.sign = sign_rule::positive},
         .doc = {"number", "the multiple of dt closest to 1 tau_s (dt if dt > 1)",
                 "> 0; tau_s between samples, an integer multiple of `dt`"},
         .after = resolve_sample_every,
         .cli = {.option = "--sample-every"}},
        {.key = "sample_interval_steps", .member = +[](const run_settings& r) { return r.sample_interval_steps(); }},
        {.key = "precision",
         .member = text_member<run_settings>{
             [](const run_settings& r) { return to_string(r.precision); },
             [](run_settings& r, const std::string& text) { r.precision = parse_precision_mode(text); }},
         .rule = {.what = "a string such as \"hi=ds,int=f32\" or \"ds/f32\""},
         .doc = {"string", "`\"hi=f64,int=f64\"`", precision_doc()},
         .cli = {.option = "--precision", .help = precision_help()}},
        {.key = "backend",
         .member = text_member<run_settings>{[](const run_settings& r) { return r.backend; }, set_backend},
         .doc = {"string", "`\"cpu\"`", backend_doc()},
         .cli = {.option = "--backend", .help = backend_help()}},
        {.key = "hi_kernel",
         .member = text_member<run_settings>{[](const run_settings& r) { return r.hi_kernel; }, set_hi_kernel},
         .doc = {"string", "`\"auto\"`",
                 "the kernel of the hydrodynamic sum: `\"auto\"` the fastest exact path for this N, precision, box and "
                 "device (on CUDA a kernel that sums in the CPU's order, or the fused engine for small systems: the "
                 "results are bit for bit whatever it picks), `\"fast\"` the fastest fast-math kernel, or a kernel the "
                 "backend names (`stokesian run --help`; engine/docs/performance.md, \"The kernel choice\"). Checked "
                 "by the backend; the choice is recorded as `hi_kernel_choice` in the output's engine provenance"},
         .cli = {.option = "--hi-kernel", .help = hi_kernel_help()}},
        {.key = "integrator",
         .member = text_member<run_settings>{
             [](const run_settings& r) { return std::string(to_string(r.integrator)); },
             [](run_settings& r, const std::string& text) { r.integrator = parse_integrator(text); }},
         .doc =
             {"string", "`\"euler\"`",
              "`\"euler\"` (the paper's explicit scheme, first order), `\"heun\"` (2nd order, 2 velocity evaluations "
              "per step), `\"rk4\"` (classical Runge–Kutta, 4th order, 4 evaluations), `\"ab2\"` (Adams–Bashforth, "
              "2nd order, 1 evaluation; its first step is Euler). The fused CUDA kernel runs Euler only"},
         .cli = {.option = "--integrator"}},
        {.key = "write_trajectory",
         .member = &run_settings::write_trajectory,
         .doc = {"boolean", "`true`", "write positions, velocities and forces at every sample"},
         .cli = {.option = "--no-trajectory", .help = "write observables only, no particles/ group", .negated = true}},
        {.key = "checkpoint_every",
         .member = &run_settings::checkpoint_every,
         .rule = {.sign = sign_rule::positive},
         .doc =
             {"number", "none",
              "> 0; tau_s between checkpoints (`<output>.checkpoint`), an integer multiple of `dt`. Checkpoints are "
              "also written every 10 minutes of wall time (`--checkpoint-wall`) and on SIGINT/SIGTERM; `stokesian run "
              "--resume OUTPUT` continues a run bitwise (engine/docs/reliability.md)"},
         .after = check_checkpoint_every,
         .cli = {.option = "--checkpoint-every"}},
        {.key = "min_separation",
         .member = &run_settings::min_separation,
         .rule = {.sign = sign_rule::non_negative},
         .doc =
             {"number", "`1.0`",
              ">= 0; in units of a. Two centres closer than this (minimum image) stop the run as a numerical blow-up "
              "(exit code 1, the particles and the last good checkpoint named); `0` switches the check off. Below r = "
              "a the pair physics is meaningless; set it lower (or 0) for intended overlaps (`allow_overlap = true`)"},
         .cli = {.option = "--min-separation",
                 .help = ">= 0, in units of a; centres closer than this stop the run as a blow-up (0: off)"}},
        {.key = "devices",
         .member = text_member<run_settings>{
             [](const run_settings& r) { return to_string(r.devices); },
             [](run_settings& r, const std::string& text) { r.devices = parse_device_selection(text); }},
         .rule = {.what = "a string such as \"0,1,2,3\" or \"all\""},
         .doc = {"string", "one device (ordinal 0)",
                 "`\"0,1,2,3\"` (distinct device ordinals, the first the primary) or `\"all\"` (every device present): "
                 "the GPUs one run drives. A backend that runs on the host (`cpu`) refuses it; more "
                 "devices than the backend drives or than are present are refused. Under `mpirun -n R` with the "
                 "CUDA backend each rank drives one device: its host-local rank's, or the one ordinal given here "
                 "([docs/how-to/multi-gpu.md](../how-to/multi-gpu.md))"},
         .written = [](const run_settings& r) { return r.devices.given(); },
         .cli = {.option = "--devices",
                 .help = "GPUs one run drives: device ordinals, comma-separated (0,1,2,3), or all (every device "
                         "present)"}},
    };
    return fields;
}

}  // namespace

std::span<const field<run_settings>> run_fields() { return table(); }

}  // namespace stokesian::settings
