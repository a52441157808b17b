// Readers of stokesian's own files (a result for `reference check` and the study, a port-check
// record) given well-formed HDF5 with damaged content: each answers with an input_error or an
// observable that is not available, never another exception, a huge allocation or undefined
// behaviour (the sanitized build runs these too). The cases are what the content fuzzer
// (tests/fuzz/fuzz_result_content.cpp) and a reading of the readers found.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/port/port_check.hpp"
#include "stokesian/regression/check_rules.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "stokesian/settings/toml_parsing.hpp"
#include "stokesian/study/study.hpp"
#include "support/scratch_directory.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

using attributes = std::map<std::string, std::string>;

class DamagedResult : public test_support::scratch_directory_test {
protected:
    DamagedResult() : scratch_directory_test("stokesian_damaged_result") {}

    // A completed tetrahedron result: the parameters read_observed_run and read_run_summary need,
    // `run` entries replaced by the test's (an empty value: left out), then whatever `content` writes.
    template <class Content>
    fs::path result(const attributes& run, Content content, const std::string& configuration = "[physics]\n") {
        const fs::path path = dir_ / "result.h5";
        io::h5md_writer writer({path, true}, 4, {});
        attributes r{{"dt", "0.01"},
                     {"steps", "1000"},
                     {"planned_steps", "1000"},
                     {"sample_interval_steps", "10"},
                     {"status", "completed"},
                     {"precision", "hi=f64,int=f64"},
                     {"integrator", "euler"},
                     {"wall_seconds", "1.5"},
                     {"digest_algorithm", "fnv1a64"}};
        for (const auto& [key, value] : run) {
            if (value.empty()) r.erase(key);
            else r[key] = value;
        }
        writer.write_parameters("run", io::text_parameters(r));
        writer.write_parameters("scenario",
                                {{"name", "tetrahedron"}, {"case", ""}, {"resolved_configuration", configuration}});
        writer.write_parameters("engine", io::text_parameters(engine_));
        content(writer);
        writer.finish();
        return path;
    }

    attributes engine_{{"backend", "cpu"}};  // the /parameters/engine attributes result() writes
};

std::string input_error_of(const std::function<void()>& read) {
    try {
        read();
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// A drift whose confidence interval, a loss time or a residual holds no value or two: the reader
// used to take .at(0) of them (std::out_of_range, not an input_error: `reference check` aborted).
TEST_F(DamagedResult, EmptyOrLongScalarsLeaveTheObservableUnavailable) {
    const fs::path path = result({}, [](io::h5md_writer& w) {
        w.write_result("cycle/period_drift_per_cycle", 0.3);
        w.write_result("cycle/period_drift_ci95_half_width", std::span<const double>{});
        const std::vector<double> two{1.0, 2.0};
        w.write_result("cycle/lost_periodicity_time", std::span<const double>(two));
        // Cycles within the early stretch (the first half of the run: 5 tau_s).
        const std::vector<double> t{1.0, 2.0, 3.0}, v{517.0, 517.1, 517.2};
        w.write_result("cycle/period_time", std::span<const double>(t));
        w.write_result("cycle/period", std::span<const double>(v));
        for (const char* name : {"y1", "y3", "x1_plus_x3", "z3_minus_z1", "z4_minus_z2", "x2", "x4"})
            w.write_result(std::string("symmetry/") + name + "_max_abs", 0.0);
        w.write_result("symmetry/y2_plus_y4_max_abs", std::span<const double>{});
    });
    const regression::observed_run run = regression::read_observed_run(path);
    ASSERT_EQ(run.observables.count("cycle.period_drift"), 1u);
    EXPECT_EQ(run.observables.at("cycle.period_drift").values, std::vector<double>{0.3});
    EXPECT_TRUE(std::isnan(run.observables.at("cycle.period_drift").ci95_half_width));
    // Two loss times are no loss time: the early drift uses every cycle of the first half.
    ASSERT_EQ(run.observables.count("cycle.period_drift_early"), 1u);
    EXPECT_NEAR(run.observables.at("cycle.period_drift_early").values.at(0), 0.1, 1e-12);
    EXPECT_EQ(run.observables.count("cycle.lost_periodicity_time"), 0u);
    EXPECT_EQ(run.observables.count("symmetry.max_abs_residual"), 0u);
}

// The window length of the |y1| regrouping from the file: a length of garbage (1e-300 tau_s) would
// ask for 1e303 windows (a float-to-integer conversion out of range, then a vector of that size).
TEST_F(DamagedResult, AWindowLengthOfGarbageDoesNotAllocateWindows) {
    const auto with_window = [&](const std::string& window, double last_time) {
        return result({}, [&](io::h5md_writer& w) {
            const std::vector<std::uint64_t> step{1, 2};
            const std::vector<double> time{5e3, last_time}, value{0.0, 0.0}, maxima{1e-3, 2e-3}, end{1e4};
            w.write_time_series("symmetry/y1", step, time, value);
            w.write_result("symmetry/y1_block_max_abs", std::span<const double>(maxima));
            w.write_result("cycle/window/end_time", std::span<const double>(end), {{"window_length", window}});
        });
    };
    const auto y1_windows = [](const fs::path& p) {
        return regression::read_observed_run(p).observables.count("symmetry.y1_window_max");
    };
    EXPECT_EQ(y1_windows(with_window("1e4", 2e4)), 1u);  // the control: two windows
    EXPECT_EQ(regression::read_observed_run(with_window("1e4", 2e4)).observables.at("symmetry.y1_window_max").values,
              (std::vector<double>{1e-3, 2e-3}));
    EXPECT_EQ(y1_windows(with_window("1e-300", 2e4)), 0u);
    EXPECT_EQ(y1_windows(with_window("1e4", std::numeric_limits<double>::infinity())), 0u);
    EXPECT_EQ(y1_windows(with_window("1e4", std::numeric_limits<double>::quiet_NaN())), 0u);
}

// steps as text that is not a count: read_run_summary converted strtod's value to an integer
// (undefined for -1e30, NaN or 1e30); now one input_error naming the attribute.
TEST_F(DamagedResult, StepsThatAreNotACountAreAnInputError) {
    for (const char* steps : {"-1", "1e30", "nan", "7x", " 7", ""}) {
        const fs::path path = result({{"steps", steps}}, [](io::h5md_writer&) {});
        const std::string message = input_error_of([&] { (void)study::read_run_summary(path); });
        EXPECT_NE(message.find("steps"), std::string::npos) << "steps = '" << steps << "': " << message;
        EXPECT_NE(input_error_of([&] { (void)regression::read_observed_run(path); }).find("steps"), std::string::npos);
    }
    EXPECT_EQ(study::read_run_summary(result({}, [](io::h5md_writer&) {})).steps, 1000u);  // the control
}

// Periods whose squares overflow (1e300 tau_s, four of eight): the trend fit's lack-of-fit statistic
// is NaN, and Boost.Math threw std::domain_error for it out of read_run_summary and
// read_observed_run (not an input_error: `stokesian study` and `reference check` aborted). Found
// with the content fuzzer's edge values (tests/fuzz/hdf5_file_program.cpp). Now the fit reports
// no p-value.
TEST_F(DamagedResult, PeriodsThatOverflowTheTrendFitAreReadWithoutAnException) {
    const fs::path path = result({}, [](io::h5md_writer& w) {
        // Cycles within the early stretch (the first half of the run: 5 tau_s).
        std::vector<double> t, v;
        for (std::size_t k = 0; k < 8; ++k) {
            t.push_back(0.5 * double(k + 1));
            v.push_back(k % 3 == 0 ? 1e300 : 517.0 + 0.1 * double(k));
        }
        w.write_result("cycle/period_time", std::span<const double>(t));
        w.write_result("cycle/period", std::span<const double>(v));
    });
    study::run_summary summary;
    ASSERT_NO_THROW(summary = study::read_run_summary(path));
    EXPECT_EQ(summary.regular_cycles, 8u);
    EXPECT_NE(summary.period_trend.validity, trend_validity::adequate);
    regression::observed_run run;
    ASSERT_NO_THROW(run = regression::read_observed_run(path));
    EXPECT_EQ(run.observables.count("cycle.period_drift_early"), 1u);
}

// The stored configuration goes through the same TOML guard as a scenario file: text that makes
// toml++ 3.3 reach __builtin_unreachable() (a character beyond ASCII outside a string) is a syntax
// error, so the run counts as one with short-range forces and its fingerprint hashes the text.
TEST_F(DamagedResult, AStoredConfigurationThatIsNotTomlIsHashedAsText) {
    const fs::path path = result(
        {}, [](io::h5md_writer&) {}, "[physics]\nradius\xc8\x98 = 1.0\n");
    const regression::observed_run run = regression::read_observed_run(path);
    EXPECT_TRUE(run.short_range_forces);
    EXPECT_EQ(run.scenario_fingerprint, regression::scenario_fingerprint("[physics]\nradius\xc8\x98 = 1.0\n"));
    EXPECT_NE(run.scenario_fingerprint, regression::scenario_fingerprint("[physics]\nradius = 1.0\n"));
}

// A result without its digest tag (one of the retired digest basis) is refused with one line naming
// the file: its final-state digest and fingerprint could not be compared with any reference.
TEST_F(DamagedResult, AResultWithoutItsDigestTagIsRefusedWithOneLine) {
    const fs::path path = result({{"digest_algorithm", ""}}, [](io::h5md_writer&) {});
    const std::string error = input_error_of([&] { (void)regression::read_observed_run(path); });
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find("/parameters/run"), std::string::npos) << error;
    EXPECT_NE(error.find("has no digest_algorithm"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// A result of a device backend names the device and the machine code that ran on it (as every CUDA
// engine does, cuda/device_info.cu); one without any of the three is refused with one line naming
// the file and the attribute.
TEST_F(DamagedResult, ADeviceResultWithoutItsDeviceAttributesIsRefusedWithOneLine) {
    engine_ = {{"backend", "cuda"},           {"device_name", "NVIDIA H200"}, {"compute_capability", "9.0"},
               {"driver_version", "12080"},   {"runtime_version", "12040"},   {"cuda_fp_flags", "--fmad=false"},
               {"cuda_fp_profile", "strict"}, {"cuda_architectures", "90"},   {"multiprocessors", "132"},
               {"device_code", "sm_90"}};
    regression::observed_run run;
    ASSERT_NO_THROW(run = regression::read_observed_run(result({}, [](io::h5md_writer&) {})));
    EXPECT_EQ(run.provenance.at("device_code"), "sm_90");
    const attributes complete = engine_;
    for (const std::string key : {"device_name", "compute_capability", "device_code"}) {
        engine_ = complete;
        engine_.erase(key);
        const fs::path path = result({}, [](io::h5md_writer&) {});
        const std::string error = input_error_of([&] { (void)regression::read_observed_run(path); });
        EXPECT_NE(error.find(path.string()), std::string::npos) << error;
        EXPECT_NE(error.find("/parameters/engine " + key), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

// A port-check record whose particle count is "-1": std::stoull read it as 2^64 - 1.
TEST_F(DamagedResult, APortRecordWithANegativeParticleCountIsAnInputError) {
    const fs::path path = dir_ / "record.h5";
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    const auto text = [&](const char* object, const char* name, const std::string& value) {
        if (H5Lexists(file, object, H5P_DEFAULT) <= 0 && std::string(object) != "/")
            H5Gclose(H5Gcreate2(file, object, lcpl, H5P_DEFAULT, H5P_DEFAULT));
        const hid_t o = H5Oopen(file, object, H5P_DEFAULT), type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
        H5Tset_size(type, value.size() + 1);
        const hid_t a = H5Acreate2(o, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, type, value.c_str());
        H5Aclose(a);
        H5Sclose(space);
        H5Tclose(type);
        H5Oclose(o);
    };
    H5Gclose(H5Gcreate2(file, "/h5md", lcpl, H5P_DEFAULT, H5P_DEFAULT));
    text("/", "schema", port::record_schema);
    text("/", "schema_version", port::record_schema_version);
    for (const char* g : {"/provenance/build", "/provenance/run", "/provenance/settings"})
        H5Gclose(H5Gcreate2(file, g, lcpl, H5P_DEFAULT, H5P_DEFAULT));
    text("/configurations/tetrahedron", "description", "test");
    text("/configurations/tetrahedron", "particles", "-1");
    text("/configurations/tetrahedron", "steps", "0");
    H5Pclose(lcpl);
    H5Fclose(file);
    const std::string message = input_error_of([&] { (void)port::read_record(path); });
    EXPECT_NE(message.find("particles or steps is not a number"), std::string::npos) << message;
}

TEST(NumberText, CountsAndNumbersAreTheWholeText) {
    EXPECT_EQ(read_count("0"), 0u);
    EXPECT_EQ(read_count("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
    for (const char* not_a_count : {"", "-1", "+1", " 7", "7 ", "7x", "1e3", "18446744073709551616", "0x10"})
        EXPECT_FALSE(read_count(not_a_count).has_value()) << "'" << not_a_count << "'";
    EXPECT_EQ(read_number("0.01"), 0.01);
    EXPECT_EQ(read_number(exact_number(0.1 + 0.2)), 0.1 + 0.2);  // round trip of what the engine writes
    EXPECT_EQ(read_number("-inf"), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(read_number("nan").value()));
    for (const char* not_a_number : {"", " 1", "1 ", "1,5", "0.01s", "0x1p-3"})
        EXPECT_FALSE(read_number(not_a_number).has_value()) << "'" << not_a_number << "'";
}

// Suite manifests and check rules are TOML too: the guard applies to them as to scenarios.
TEST(TomlParsing, EveryTomlReaderRefusesTextTomlPlusPlusCannotParseSafely) {
    const std::string beyond_ascii = "[[rule]]\nscenario\xc8\x98 = \"tetrahedron\"\n";
    const std::string nul = std::string("[[rule]]\nscenario = \"a\"") + '\0' + "\n";
    for (const std::string& text : {beyond_ascii, nul}) {
        const std::string message = input_error_of([&] { (void)regression::parse_check_rules(text, "checks.toml"); });
        EXPECT_EQ(message.rfind("checks.toml:2:", 0), 0u) << message;
        EXPECT_NE(message.find("TOML syntax error"), std::string::npos) << message;
        EXPECT_NE(input_error_of([&] { (void)parse_toml(text, "x.toml"); }).find("x.toml:2:"), std::string::npos);
    }
    EXPECT_EQ(parse_toml("a = 1\n", "x.toml")["a"].value_or(0), 1);
}
