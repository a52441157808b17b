#pragma once
// The fuzz input read as a small program that writes a well-formed HDF5 file through HDF5's own
// API: a skeleton (nothing, an H5MD root, a stokesian result's parameters, a port-check record),
// then groups, datasets, attributes and links at the paths and names the stokesian readers look
// for, with fuzzed types, shapes, layouts and values. Every input gives a file HDF5 itself wrote,
// so a finding is a defect of the readers' logic, not of HDF5's parser (the raw-byte targets fuzz
// that, label long: engine/docs/reliability.md, "Fuzzing").
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian::fuzz {

// Object paths the readers open (regression/observable_catalogue.cpp, observed_run.cpp,
// study/study_analysis.cpp, port/port_compare.cpp) and a few neighbours.
inline const std::vector<std::string>& object_paths() {
    static const std::vector<std::string> paths{"/h5md",
                                                "/h5md/creator",
                                                "/parameters",
                                                "/parameters/run",
                                                "/parameters/scenario",
                                                "/parameters/engine",
                                                "/parameters/build",
                                                "/parameters/invocation",
                                                "/parameters/negative_control",
                                                "/analysis",
                                                "/analysis/cycle",
                                                "/analysis/cycle/period",
                                                "/analysis/cycle/period_time",
                                                "/analysis/cycle/amplitude",
                                                "/analysis/cycle/amplitude_time",
                                                "/analysis/cycle/regular_cycles",
                                                "/analysis/cycle/windows",
                                                "/analysis/cycle/window/period_mean",
                                                "/analysis/cycle/window/amplitude_mean",
                                                "/analysis/cycle/window/end_time",
                                                "/analysis/cycle/period_drift_per_cycle",
                                                "/analysis/cycle/period_drift_ci95_half_width",
                                                "/analysis/cycle/amplitude_drift_per_cycle",
                                                "/analysis/cycle/amplitude_drift_ci95_half_width",
                                                "/analysis/cycle/lost_periodicity_time",
                                                "/analysis/symmetry/y1_max_abs",
                                                "/analysis/symmetry/y3_max_abs",
                                                "/analysis/symmetry/x1_plus_x3_max_abs",
                                                "/analysis/symmetry/z3_minus_z1_max_abs",
                                                "/analysis/symmetry/z4_minus_z2_max_abs",
                                                "/analysis/symmetry/x2_max_abs",
                                                "/analysis/symmetry/x4_max_abs",
                                                "/analysis/symmetry/y2_plus_y4_max_abs",
                                                "/analysis/symmetry/y1_block_max_abs",
                                                "/observables/symmetry_y1/time",
                                                "/observables/symmetry_y1/value",
                                                "/analysis/centre_of_mass/mean_velocity_z",
                                                "/analysis/pair_gap/first_sign_change_time",
                                                "/analysis/pair_gap/gap_at_first_sign_change",
                                                "/analysis/pair_gap/minimum_gap",
                                                "/analysis/pair_gap/minimum_gap_time",
                                                "/analysis/pair_gap/sign_changes",
                                                "/analysis/pair_gap/critical_gap_crossing_time",
                                                "/analysis/mobility/checks",
                                                "/analysis/mobility/failures",
                                                "/analysis/mobility/min_smallest_eigenvalue",
                                                "/analysis/velocity_spread/final_mean_velocity_z",
                                                "/analysis/velocity_spread/initial_max_deviation",
                                                "/analysis/velocity_spread/initial_mean_velocity_z",
                                                "/analysis/velocity_spread/initial_rms_deviation",
                                                "/analysis/velocity_spread/largest_max_deviation",
                                                "/particles/trajectory/position/value",
                                                "/particles/trajectory/box",
                                                "/provenance/build",
                                                "/provenance/run",
                                                "/provenance/settings",
                                                "/provenance/engine",
                                                "/configurations",
                                                "/configurations/tetrahedron",
                                                "/configurations/tetrahedron/position",
                                                "/configurations/tetrahedron/external_force",
                                                "/configurations/tetrahedron/absolute_sum",
                                                "/configurations/tetrahedron/hi=f64,int=f64",
                                                "/configurations/tetrahedron/hi=f64,int=f64/velocity",
                                                "/configurations/tetrahedron/hi=ds,int=ds",
                                                "/configurations/tetrahedron/hi=ds,int=ds/velocity",
                                                "/configurations/tetrahedron/hi=ds,int=ds/velocity_lo",
                                                "/configurations/tetrahedron/hi=f64,int=f64/run_position",
                                                "/configurations/tetrahedron/hi=f64,int=f64/run_velocity",
                                                "/configurations/random"};
    return paths;
}

inline const std::vector<std::string>& attribute_names() {
    static const std::vector<std::string> names{"version",
                                                "name",
                                                "schema",
                                                "schema_version",
                                                "dt",
                                                "steps",
                                                "planned_steps",
                                                "sample_interval_steps",
                                                "status",
                                                "precision",
                                                "integrator",
                                                "wall_seconds",
                                                "final_state_digest",
                                                "backend",
                                                "cuda_fp_profile",
                                                "case",
                                                "resolved_configuration",
                                                "source_path",
                                                "description",
                                                "labelled_as",
                                                "precision_that_ran",
                                                "window_length",
                                                "particles",
                                                "storage",
                                                "unit",
                                                "command",
                                                "date",
                                                "host",
                                                "digest_algorithm"};
    return names;
}

// (object, attribute) pairs the readers read.
inline const std::vector<std::pair<std::string, std::string>>& read_attributes() {
    static const std::vector<std::pair<std::string, std::string>> pairs{
        {"/parameters/run", "dt"},
        {"/parameters/run", "steps"},
        {"/parameters/run", "planned_steps"},
        {"/parameters/run", "sample_interval_steps"},
        {"/parameters/run", "status"},
        {"/parameters/run", "precision"},
        {"/parameters/run", "integrator"},
        {"/parameters/run", "wall_seconds"},
        {"/parameters/run", "digest_algorithm"},
        {"/parameters/run", "final_state_digest"},
        {"/parameters/scenario", "name"},
        {"/parameters/scenario", "case"},
        {"/parameters/scenario", "resolved_configuration"},
        {"/parameters/engine", "backend"},
        {"/parameters/negative_control", "description"},
        {"/analysis/cycle/window/end_time", "window_length"},
        {"/analysis/cycle/window/period_mean", "window_length"},
        {"/", "schema"},
        {"/", "schema_version"},
        {"/configurations/tetrahedron", "particles"},
        {"/configurations/tetrahedron", "steps"},
        {"/configurations/tetrahedron", "description"},
        {"/configurations/tetrahedron/hi=f64,int=f64", "storage"},
        {"/configurations/tetrahedron/hi=ds,int=ds", "storage"},
        {"/h5md", "version"}};
    return pairs;
}

// Attribute texts: values the readers accept, their edges, and text they must refuse.
inline const std::vector<std::string>& attribute_texts() {
    static const std::vector<std::string> texts{"",
                                                "0",
                                                "1",
                                                "-1",
                                                "2",
                                                "3",
                                                "10",
                                                "1000",
                                                "0.01",
                                                "0.001",
                                                "1e4",
                                                "1e-300",
                                                "1e300",
                                                "1e308",
                                                "inf",
                                                "-inf",
                                                "nan",
                                                "18446744073709551615",
                                                "18446744073709551616",
                                                "9223372036854775807",
                                                "12abc",
                                                " 7",
                                                "0x10",
                                                "hi=f64,int=f64",
                                                "hi=ds,int=ds",
                                                "hi=f32,int=ds",
                                                "hi=ds,int=f32",
                                                "hi=f32,int=f32",
                                                "hi=x,int=y",
                                                "euler",
                                                "heun",
                                                "rk4",
                                                "ab2",
                                                "leapfrog",
                                                "cpu",
                                                "cuda",
                                                "gpu",
                                                "completed",
                                                "interrupted",
                                                "tetrahedron",
                                                "approaching_pairs",
                                                "fcc_sedimentation",
                                                "float64",
                                                "float32",
                                                "float_float",
                                                "stokesian-port-check",
                                                "fnv1a64",
                                                "FNV1a64",
                                                "cbf29ce484222325",
                                                "../tetrahedron",
                                                ".tetrahedron",
                                                "-tetrahedron",
                                                "tetra/hedron",
                                                "tetra hedron",
                                                "name = \"tetrahedron\"\n[physics]\nlubrication = true\n",
                                                "[physics]\npair_force = \"repulsive\"\n",
                                                "[physics\n",
                                                "a = \"\xc8\x98\"\n",
                                                "[physics]\nradius\xc8\x98 = 1.0\n",
                                                "a\x01 = 1",
                                                "\xff\xfe"};
    return texts;
}

class hdf5_file_program {
public:
    hdf5_file_program(FuzzedDataProvider& in, const std::filesystem::path& path);
    ~hdf5_file_program();
    hdf5_file_program(const hdf5_file_program&) = delete;
    hdf5_file_program& operator=(const hdf5_file_program&) = delete;

private:
    void skeleton(int kind);
    void operation();
    std::string pick_path();
    void remove_link(const std::string& path);
    hid_t pick_type();
    hid_t pick_space(hsize_t& elements);
    void dataset(const std::string& path);
    void attribute(const std::string& object, const std::string& name, const std::string* text);
    void text_attribute(const std::string& object, const std::string& name, const std::string& text);
    void group(const std::string& path);
    void parent_of(const std::string& path);
    hid_t create_dataset(const std::string& path, hid_t type, hid_t space, hid_t create);

    FuzzedDataProvider& in_;
    hid_t file_ = -1;
    hid_t group_properties_ = -1;
};

}  // namespace stokesian::fuzz
