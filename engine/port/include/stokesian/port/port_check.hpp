#pragma once
// `stokesian port-check`: the engine's velocities on a fixed, seeded set of configurations in every
// precision mode, recorded with full provenance by one build on one device, and compared with
// another build's or device's record (engine/docs/porting.md).
//
// A record holds, per configuration, the positions, the external forces and A_i = sum_j |mu_ij| |F_j|
// (the "absolute evaluation" of every pair term, component-wise, in double), and per precision mode
// the velocity v = mu F of one evaluation, bit for bit in the mode's storage type (float, float_float
// as two floats, double); optionally the state after a short run of `steps` steps.
//
// The comparison is per configuration and mode: ULP differences in the storage type, relative
// differences |dv_ic| / |v_i|, and the verdict
//   bitwise                 every stored word equal;
//   within rounding bound   |v^A_ic - v^B_ic| <= B_ic for every particle i and component c, with
//                           B_ic = 2 [gamma_{N-1}(u_a) (1 + k u_w) + k u_w] A_ic + N 2^-125 (derivation:
//                           rounding_bound() below and engine/docs/porting.md);
//   FAIL                    otherwise.
// A mode's verdict is the worst over the configurations.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace stokesian::port {

inline constexpr const char* record_schema = "stokesian-port-check";
inline constexpr const char* record_schema_version = "1";

// Per-term allowance k of the bound: the relative error (in units of the working precision's unit
// roundoff u_w, against the absolute evaluation of the term) that one build may commit in one pair
// term mu_ij F_j. Each tensor evaluator states its own (physics/tensors/, counted there); a record
// names each configuration's tensor by its registered name (physics/tensor_registry.hpp), and the
// comparison takes that tensor's allowance (tensor_term_allowance).

// One configuration of the fixed set. All use the Rotne-Prager tensor and external forces only
// (the velocity at construction is v = mu F_ext: engine/README.md).
struct configuration {
    std::string name, description;
    system_parameters system;
    initial_state state;
};

// The standard set: tetrahedron (paper Sec. 5), fcc_500 (fcc, n = 0.1 a^-3, positions perturbed by
// +-0.1 a, seed 500), fcc_4000 (the paper's benchmark lattice, unperturbed), random_1000 (uniform
// random in a periodic box at n = 0.05 a^-3, no overlaps, seed 20120101), near_contact (pairs at gaps
// 1e-1 ... 1e-4 a, an oblique pair, a three-sphere cluster; lubrication on). Deterministic on every
// platform (our own mapping of mt19937_64's output).
std::vector<configuration> standard_configurations();
std::vector<std::string> standard_configuration_names();

// Every precision mode (core/precision_modes.hpp), in reverse order: f64 first.
std::vector<precision_mode> all_precision_modes();

struct record_options {
    std::filesystem::path output;
    bool force = false;
    std::string backend = "cpu";              // a registered backend or auto
    std::string hi_kernel;                    // empty: the backend's default
    device_selection devices;                 // --devices: not given, one device (multi-gpu.md)
    std::vector<precision_mode> modes;        // empty: all nine
    std::vector<std::string> configurations;  // empty: the whole standard set
    std::uint64_t steps = 0;  // short run after the evaluation (0: none; with lubrication: implicit scheme)
    double dt = 1e-3;         // tau_s, for the short run
    unsigned threads = 0;
    std::map<std::string, std::string> invocation;  // io::run_provenance()
    // Test hook (negative controls): store the velocities of mode `swap_from` under mode `swap_to`.
    std::string swap_from, swap_to;
};

// Writes the record (atomically: OUTPUT.partial, then renamed). Throws input_error for bad input
// (unknown configuration, existing output without force, backend this build lacks).
void record(const record_options& options, std::ostream& log);

// --- reading ------------------------------------------------------------------------------------

struct mode_record {
    precision_mode mode;
    std::string storage;                             // float32 | float_float | float64
    std::vector<double> hi, lo;                      // 3N words each (lo: zero unless float_float)
    std::map<std::string, std::string> engine;       // the engine's description
    std::vector<double> run_position, run_velocity;  // after `steps` steps (empty: no run)
};

struct configuration_record {
    std::string name, description;
    hydrodynamic_tensor tensor{};  // the attribute `tensor`, a registered tensor's name
    std::size_t particles = 0;
    std::vector<double> position, external_force, absolute_sum;  // 3N each
    std::uint64_t steps = 0;
    std::vector<mode_record> modes;
};

// An evaluator recorded on its own, besides the velocities (port/port_evaluators.cpp): the two-body
// lubrication model's pair correction zeta_pair(s) in its four modes on a fixed set of centre
// distances s, per working type (float32, float64), evaluated by the recording build on the host,
// and its absolute evaluation A (4 per distance, double). Two builds may differ per value by at most
// 2 k u_w A, k the evaluator's rounding allowance (two_body_term_allowance,
// physics/two_body_lubrication.hpp, counted there).
struct evaluator_record {
    std::string name, description;
    std::vector<double> distance, absolute;             // M and 4M
    std::map<std::string, std::vector<double>> values;  // 4M each, by working type
    double allowance = 0.0;                             // k of the recording build (informational)
};
evaluator_record two_body_evaluator_record();

struct port_record {
    std::filesystem::path file;
    std::map<std::string, std::string> build, run, device, settings;
    std::vector<configuration_record> configurations;
    std::vector<evaluator_record> evaluators;  // none in records made before the evaluators were
};

// Throws input_error (one line naming the file) for a missing file, another schema or a tensor
// this build does not register.
port_record read_record(const std::filesystem::path& path);

// --- comparison ---------------------------------------------------------------------------------

enum class verdict : std::uint8_t { bitwise, within_bound, fail };
std::string to_string(verdict v);

// The unit roundoffs of a mode (precision_traits<P>::unit_roundoff): of the accumulator (f32 2^-24;
// ds 2^-47, the relative error bound 2u^2 of DWPlusFP, Joldes, Muller & Popescu 2017; f64 2^-53) and
// of the working type of the terms.
double accumulator_unit_roundoff(precision_mode m);
double working_unit_roundoff(precision_mode m);
// The factor f with B_ic = f A_ic + N 2^-125 (see the header): 2 [gamma_{N-1}(u_a)(1 + k u_w) + k u_w],
// k the tensor's term allowance (tensor_term_allowance, physics/tensor_registry.hpp).
double rounding_bound_factor(precision_mode m, std::size_t particles, hydrodynamic_tensor tensor);

// Histogram bins: ULP differences 0, 1, 2, 3-4, 5-8, ..., > 2^30; relative differences 0 and decades
// 1e-20 ... 1.
struct histogram {
    std::vector<std::string> labels;
    std::vector<std::uint64_t> counts;
};

struct mode_comparison {
    std::string configuration;
    precision_mode mode;
    std::size_t particles = 0;
    verdict result = verdict::bitwise;
    std::uint64_t differing_components = 0;
    double max_ulp = 0.0, median_ulp = 0.0;
    double max_relative = 0.0, rms_relative = 0.0;
    double max_bound_ratio = 0.0;  // max |dv| / B over the components (<= 1: within the bound)
    double bound_factor = 0.0;     // f of rounding_bound_factor
    std::size_t worst_particle = 0;
    int worst_component = 0;
    histogram ulp, relative;
    // short run (informational, no verdict): bitwise or the largest relative position difference
    bool has_run = false, run_bitwise = false;
    double run_max_position_difference = 0.0, run_max_relative_velocity = 0.0;
    std::string note;
};

// One evaluator in one working type: bitwise, within 2 k u_w A, or FAIL.
struct evaluator_comparison {
    std::string evaluator, working;
    verdict result = verdict::bitwise;
    std::uint64_t differing = 0;
    double max_ulp = 0.0, max_bound_ratio = 0.0, allowance = 0.0, bound_factor = 0.0;
    double worst_distance = 0.0;
    int worst_mode = 0;  // x_sum, x_difference, y_sum, y_difference
};
double evaluator_unit_roundoff(const std::string& working);

struct comparison {
    std::vector<mode_comparison> rows;
    std::vector<evaluator_comparison> evaluators;
    std::map<std::string, verdict> per_mode;  // the worst over the configurations, by mode name
    std::vector<std::string> not_compared;    // "config/mode: only in A" ...
    bool passed() const;
};

// Throws input_error when the records cannot be compared (different positions, forces or tensor
// of a configuration, or no configuration and mode in common). Each configuration's bound takes the
// allowance of the tensor the records name.
comparison compare(const port_record& a, const port_record& b);
// The evaluators' part of compare (an evaluator only in one record: not compared).
void compare_evaluators(const port_record& a, const port_record& b, comparison& out);

}  // namespace stokesian::port
