#pragma once
// Precision and time-step studies (`stokesian study precision|timestep`; engine/docs/studies.md):
// a matrix of precision modes x time steps x integrators of one periodic scenario, run
// concurrently by the regression suite's runner from a generated suite manifest, then analysed:
// per run the cycle period and amplitude with their drifts (Student-t CIs), the loss of
// periodicity and the largest |y1|; per (mode, integrator) the order of convergence in dt of the
// period bias and of the period drift; per integrator the drift per unit of compute cost.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "stokesian/core/integrator.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/observables/trend_fit.hpp"
#include "stokesian/study/convergence.hpp"

namespace stokesian::study {

struct study_settings {
    std::string kind;                // "precision" or "timestep"
    std::filesystem::path scenario;  // absolute
    std::string case_name;
    std::vector<precision_mode> modes;
    std::vector<double> dts;  // tau_s, as given (each run's dt)
    std::vector<integrator_kind> integrators;
    double time = 0.0;             // run length, tau_s (a multiple of every dt)
    double sample_every = 1.0;     // tau_s (a multiple of every dt)
    double trajectory_time = 0.0;  // 0: no trajectory run (Fig. 3b)
    std::string backend = "auto";  // a registered backend or auto
    // CUDA kernel of the Euler runs; empty: the suite's default, auto (the fused engine where it
    // applies, which is Euler only, else the fastest exact step-by-step kernel).
    std::string cuda_hi_kernel_euler;
    // Cycles (from the first) that the convergence analysis compares: the drift itself drifts
    // (Euler: 0.22 -> 0.73 tau_s per cycle over 1000 cycles at dt = 0.01), so the period and drift
    // whose convergence is fitted are taken over the same first cycles of every run.
    std::size_t fit_cycles = 10;
};

// One run of the matrix.
struct study_run {
    std::string name;  // <integrator>_dt<dt>_<hi>-<int>, or trajectory_...
    precision_mode mode;
    double dt = 0.0;
    integrator_kind integrator = integrator_kind::euler;
    double time = 0.0;
    bool trajectory = false;  // the short run that stores positions (Fig. 3b)
};

std::string run_name(precision_mode mode, double dt, integrator_kind integrator);
std::vector<study_run> study_matrix(const study_settings& s);

// The suite manifest (TOML, the format of reference_data/suites/*.toml) that runs the matrix;
// `stokesian suite run` on it repeats the study's runs. Throws input_error where a time is not a
// multiple of a dt.
std::string study_manifest_text(const study_settings& s);

// What one result file says, read back for the analysis.
struct run_summary {
    std::string name, file, status, backend;
    precision_mode mode;
    integrator_kind integrator = integrator_kind::euler;
    double dt = nan, wall_seconds = nan;
    std::uint64_t steps = 0;
    double evaluations = 0.0;               // velocity evaluations = steps x evaluations_per_step
    std::vector<double> period, amplitude;  // per cycle (regular cycles only, before any loss)
    std::size_t regular_cycles = 0;
    // From the trend of the periods (trend_fit.hpp): its value and its slope at cycle 0, and the
    // least-squares line's slope over all regular cycles (the engine's period_drift_per_cycle).
    trend_fit period_trend, amplitude_trend;
    double period_first = nan, period_first_ci95 = nan;  // the trend at cycle 0
    double period_mean = nan;
    double period_drift = nan, period_drift_ci95 = nan;            // d period / d cycle at cycle 0, tau_s per cycle
    double period_drift_mean = nan, period_drift_mean_ci95 = nan;  // line slope over the regular cycles
    double amplitude_mean = nan;
    double amplitude_drift = nan, amplitude_drift_ci95 = nan;  // d amplitude / d cycle at cycle 0, a per cycle
    double amplitude_drift_mean = nan, amplitude_drift_mean_ci95 = nan;
    double lost_periodicity_time = nan;  // NaN: periodic to the end
    double max_abs_y1 = nan;             // NaN: not measured
    bool completed = false;
};

run_summary read_run_summary(const std::filesystem::path& result);

// One convergence analysis: a quantity of one (mode, integrator) over the time steps.
struct convergence_series {
    std::string quantity;  // "period_first" or "period_drift"
    precision_mode mode;
    integrator_kind integrator = integrator_kind::euler;
    std::vector<double> dts;                    // descending
    std::vector<double> values;                 // the quantity per dt (each run's own estimate)
    std::vector<difference_point> differences;  // paired, between neighbouring dts
    order_fit fit;
    double extrapolated = nan;   // Q0
    std::vector<double> bias;    // values - extrapolated (or - finest value, if no fit)
    std::string bias_reference;  // "extrapolated" or "finest dt"
    std::size_t cycles = 0;      // cycles paired per difference
};

// Cost of stability: the fitted drift model |drift| = |c| dt^q and the cost per simulated tau_s.
struct cost_entry {
    precision_mode mode;
    integrator_kind integrator = integrator_kind::euler;
    int evaluations_per_step = 1;
    double wall_per_evaluation = nan;                   // s, median over the integrator's runs
    double drift_coefficient = nan, drift_order = nan;  // |period drift| = c dt^q (tau_s per cycle)
    // For each target drift: the dt, evaluations per tau_s and wall seconds per tau_s needed.
    std::vector<double> targets, dt_needed, evaluations_per_tau, wall_per_tau;
    std::vector<bool> beyond_range;     // dt_needed outside the time steps the model was fitted on
    double dt_min = nan, dt_max = nan;  // that range
    std::string note;
};

struct study_report {
    study_settings settings;
    std::vector<run_summary> runs;  // matrix runs (not the trajectory run)
    std::vector<convergence_series> convergence;
    std::vector<cost_entry> cost;
    std::vector<double> drift_targets;  // tau_s per cycle
    double wall_seconds = nan;
};

// Reads every result of the matrix and fits (the convergence over the first s.fit_cycles cycles,
// or as many as every run of the group has).
study_report analyse_study(const study_settings& s, const std::filesystem::path& run_dir);

// study.json: the settings, every run's summary, the convergence fits, the cost table, the figures
// (paths relative to the study folder) and the provenance given (build, host, date, device, ...).
// The documents (summary.md, summary.html) and figures are rendered from it by tools/report.
std::string study_json(const study_report& r, const std::vector<std::string>& figures,
                       const std::map<std::string, std::string>& provenance = {});

// "hi=ds,int=f32" -> "ds-f32" (file names, figure legends stay with the full name).
std::string mode_tag(precision_mode m);

}  // namespace stokesian::study
