// --hi-kernel auto|fast without a device (stokesian/backends/hi_kernel_choice.hpp): the measured
// table against the CSV it was read from, lookups for several N, modes, boxes and devices, the
// fallback for unknown devices, the tuning cache (read, write, corruption) and the CPU backend's
// resolution through the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/hi_kernel_cache.hpp"
#include "stokesian/backends/hi_kernel_choice.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/csv_fields.hpp"

using namespace stokesian;
using namespace stokesian::backends;
using stokesian::test_support::csv_columns;
using stokesian::test_support::csv_fields;

namespace {

namespace fs = std::filesystem;

// The CUDA kernels by class as the CUDA build names them; without CUDA, the names the table uses
// (the test of the table's classes then needs the CUDA build: TableKernelsAreOfTheirClass).
kernel_candidates candidates() {
    kernel_candidates c = cuda_kernel_candidates();
    if (c.exact.empty())
        c = {{"naive", "tiling", "small-tiling", "far-tiling", "ordered-split", "adding-warps"},
             {"fast-split", "fast-far-split"}};
    return c;
}

kernel_query hopper(std::size_t n, precision hi, kernel_request request = kernel_request::automatic) {
    kernel_query q;
    q.request = request;
    q.particles = n;
    q.hi = hi;
    q.periodic = true;
    q.device_name = "NVIDIA H200";
    q.compute_capability = "9.0";
    q.candidates = candidates();
    return q;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A fresh folder under the test's temporary directory.
fs::path scratch(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("stokesian_hi_kernel_choice_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

tuned_kernels tuned(std::size_t n, const std::string& exact, const std::string& fast) {
    tuned_kernels t;
    t.device_name = "NVIDIA H100 80GB HBM3";
    t.compute_capability = "9.0";
    t.particles = n;
    t.hi = precision::f32;
    t.periodic = false;
    t.exact = exact;
    t.fast = fast;
    t.median_ms = {{exact, 0.5}, {fast, 0.25}};
    t.tuned_at = "2026-11-27T10:00:00Z";
    return t;
}

}  // namespace

TEST(HiKernelChoice, RequestsAreAutoByDefaultAndFast) {
    EXPECT_EQ(request_of(""), kernel_request::automatic);
    EXPECT_EQ(request_of("auto"), kernel_request::automatic);
    EXPECT_EQ(request_of("fast"), kernel_request::fastest);
    EXPECT_EQ(request_of("tiling"), kernel_request::named);
    EXPECT_EQ(request_of("fast-split"), kernel_request::named);
}

// Every row of the cc 9.0 table is the fastest kernel of its class at that N and HI precision in
// the CSV it cites (periodic rows: a `bench hi` file; open rows: a `bench fcc` file of an open box),
// and every (N, precision) of the CSV has its row: the table cannot drift from the measurement.
// Columns by name: particles, kernel, hi_precision, median_ms (bench hi) or hi_median_ms (bench fcc).
void expect_rows_are_the_fastest_of_their_csv(const table_rows& t, const std::string& box) {
    std::ifstream csv(std::string(::stokesian::test_support::project_source_dir) + "/" + std::string(t.source));
    ASSERT_TRUE(csv) << t.source;
    const kernel_candidates c = candidates();
    const auto in = [](const std::vector<std::string>& list, const std::string& k) {
        return std::find(list.begin(), list.end(), k) != list.end();
    };
    struct best {
        std::string kernel;
        double ms = 0;
    };
    std::map<std::pair<std::string, std::size_t>, best> exact, fast;
    std::map<std::string, std::size_t> column = csv_columns(csv);
    std::string line;
    const std::size_t ms_column = column.count("median_ms") ? column["median_ms"] : column.at("hi_median_ms");
    const bool has_boundary = column.count("boundary") != 0;
    while (std::getline(csv, line)) {
        const std::vector<std::string> f = csv_fields(line);
        ASSERT_EQ(f.size(), column.size()) << line;
        if (has_boundary) ASSERT_EQ(f[column["boundary"]], box) << t.source;
        const std::string& kernel = f[column.at("kernel")];
        const std::pair key{f[column.at("hi_precision")], std::size_t(std::stoull(f[column.at("particles")]))};
        const double ms = std::stod(f[ms_column]);
        auto& slot = in(c.exact, kernel) ? exact[key] : in(c.fast, kernel) ? fast[key] : exact[{"", 0}];
        if (slot.kernel.empty() || ms < slot.ms) slot = {kernel, ms};
    }
    exact.erase({"", 0});
    std::size_t rows = 0;
    for (const table_row& r : t.rows) {
        const std::pair key{std::string(to_string(r.hi)), r.particles};
        ASSERT_TRUE(exact.count(key) && fast.count(key)) << key.first << " N = " << key.second << " not in the CSV";
        EXPECT_EQ(r.exact, exact[key].kernel) << box << ", " << key.first << " N = " << key.second;
        EXPECT_EQ(r.fast, fast[key].kernel) << box << ", " << key.first << " N = " << key.second;
        ++rows;
    }
    EXPECT_EQ(rows, exact.size()) << "a size of " << t.source << " has no row";
}

TEST(HiKernelChoice, TheHopperTableIsTheFastestOfEachClassInItsCsvs) {
    const device_table& t = table_for("9.0");
    ASSERT_EQ(t.compute_capability, "9.0");
    expect_rows_are_the_fastest_of_their_csv(t.periodic, "periodic");
    ASSERT_FALSE(t.open.rows.empty());
    expect_rows_are_the_fastest_of_their_csv(t.open, "open");
}

// Every fused bound of the cc 9.0 table is where the fused engine led the step-by-step exact kernels
// auto takes at those sizes (ordered-split and adding-warps, the table's rows) in the
// `ci/gpu-hi-auto` CSV it cites: the largest measured N of its precision and box kind up to which
// fused was at least as fast as each of them at every measured N (each size's best of its repeats;
// a tie goes to fused, which is the same bits). Every precision the rows measure has a bound. The CSV is bench
// steps' (scenarios "cubic_N" periodic, "open-fcc..." open; ms_per_step; on two devices its devices
// column "0,1", with short-range forces a pair force) but with short-range forces on one device,
// where it is bench fcc's (lubrication on; its boundary column; whole_step_median_ms: whole steps
// timed without the phase events, of both engines).
void expect_fused_bounds_where_fused_led(const device_table& t, bool short_range, std::size_t devices) {
    const std::string_view source =
        devices == 2 ? (short_range ? t.fused.two_devices_short_range_source : t.fused.two_devices_source)
                     : (short_range ? t.fused.short_range_source : t.fused.source);
    const bool bench_fcc = short_range && devices == 1;
    std::ifstream csv(std::string(::stokesian::test_support::project_source_dir) + "/" + std::string(source));
    ASSERT_TRUE(csv) << source;
    const std::map<std::string, std::size_t> column = csv_columns(csv);
    const std::size_t particles = column.at("particles");
    const std::size_t kernel = bench_fcc ? column.at("kernel") : column.at("hi_kernel");
    const std::size_t ms = bench_fcc ? column.at("whole_step_median_ms") : column.at("ms_per_step");
    constexpr std::array<std::string_view, 2> rivals{"ordered-split", "adding-warps"};
    // (periodic, hi) -> N -> kernel -> best ms per step
    std::map<std::pair<bool, std::string>, std::map<std::size_t, std::map<std::string, double>>> best;
    for (std::string line; std::getline(csv, line);) {
        const std::vector<std::string> f = csv_fields(line);
        ASSERT_EQ(f.size(), column.size()) << line;
        if (f[kernel] != "fused" && std::find(rivals.begin(), rivals.end(), f[kernel]) == rivals.end()) continue;
        bool periodic = false;
        std::string hi;
        if (bench_fcc) {
            ASSERT_EQ(f[column.at("lubrication")], "on") << line;
            periodic = f[column.at("boundary")] == "periodic";
            hi = f[column.at("hi_precision")];
        } else {
            const std::string& scenario = f[column.at("scenario")];
            periodic = scenario.rfind("cubic", 0) == 0;
            ASSERT_TRUE(periodic || scenario.rfind("open-fcc", 0) == 0) << scenario;
            const std::string& mode = f[column.at("precision")];
            hi = mode.substr(3, mode.find(',') - 3);  // "hi=f32,int=f32" -> f32
            if (devices == 2) EXPECT_EQ(f[column.at("devices")], "0,1") << line;
        }
        double& b = best[{periodic, hi}][std::stoul(f[particles])][f[kernel]];
        const double value = std::stod(f[ms]);
        b = b == 0 ? value : std::min(b, value);
    }
    ASSERT_FALSE(best.empty()) << source;
    for (const bool periodic : {true, false})
        for (const precision hi : precisions) {
            const bool measured = std::any_of(t.rows_for(periodic).rows.begin(), t.rows_for(periodic).rows.end(),
                                              [&](const table_row& r) { return r.hi == hi; });
            if (!measured) continue;
            const auto sizes = best.find({periodic, std::string(to_string(hi))});
            ASSERT_NE(sizes, best.end()) << to_string(hi) << (periodic ? " periodic" : " open") << ": not in "
                                         << source;
            std::size_t led_up_to = 0;
            for (const auto& [n, by_kernel] : sizes->second) {
                ASSERT_TRUE(by_kernel.count("fused")) << source << ": N = " << n;
                // Past a bound auto takes the nearest row's exact kernel: it must be one the sweep timed.
                const std::string_view exact = nearest_row(t.rows_for(periodic), hi, n).exact;
                EXPECT_NE(std::find(rivals.begin(), rivals.end(), exact), rivals.end())
                    << exact << " (the row nearest N = " << n << ") was not timed in " << source;
                bool fused_led = true;
                for (const std::string_view rival : rivals) {
                    const auto time = by_kernel.find(std::string(rival));
                    EXPECT_NE(time, by_kernel.end()) << source << ": N = " << n << " has no " << rival;
                    fused_led = fused_led && time != by_kernel.end() && by_kernel.at("fused") <= time->second;
                }
                if (!fused_led) break;
                led_up_to = n;
            }
            EXPECT_EQ(t.fused_up_to(hi, periodic, short_range, devices), led_up_to)
                << to_string(hi) << (periodic ? " periodic" : " open") << (short_range ? ", short-range forces" : "")
                << " on " << devices << " device(s)";
        }
}

TEST(HiKernelChoice, TheHopperFusedBoundsAreWhereTheFusedEngineLedInTheirCsvs) {
    for (const std::size_t devices : {1u, 2u})
        for (const bool short_range : {false, true})
            expect_fused_bounds_where_fused_led(table_for("9.0"), short_range, devices);
}

// Where nothing was measured auto keeps the step-by-step engine: more than two devices, and several
// devices of no measured class.
TEST(HiKernelChoice, TheFusedEngineOnSeveralDevicesOnlyWhereMeasured) {
    const device_table& hopper = table_for("9.0");
    for (const precision hi : precisions)
        for (const bool periodic : {true, false})
            for (const bool short_range : {false, true}) {
                EXPECT_EQ(hopper.fused_up_to(hi, periodic, short_range, 3), 0u) << to_string(hi);
                EXPECT_EQ(fallback_table().fused_up_to(hi, periodic, short_range, 2), 0u) << to_string(hi);
            }
}

// With the CUDA build: every kernel a table names is a kernel of the class it stands for.
TEST(HiKernelChoice, TableKernelsAreOfTheirClass) {
    const kernel_candidates c = cuda_kernel_candidates();
    if (c.exact.empty()) GTEST_SKIP() << "a build without CUDA names no CUDA kernels";
    std::vector<const device_table*> all{&fallback_table()};
    for (const device_table& t : measured_tables()) all.push_back(&t);
    for (const device_table* t : all)
        for (const table_rows* rows : {&t->periodic, &t->open})
            for (const table_row& r : rows->rows) {
                EXPECT_NE(std::find(c.exact.begin(), c.exact.end(), r.exact), c.exact.end()) << r.exact;
                EXPECT_NE(std::find(c.fast.begin(), c.fast.end(), r.fast), c.fast.end()) << r.fast;
            }
    // Each class sums in the CPU's order (exact) or uses fast math; split does neither and is never chosen.
    EXPECT_EQ(std::find(c.exact.begin(), c.exact.end(), "split"), c.exact.end());
    EXPECT_EQ(std::find(c.fast.begin(), c.fast.end(), "split"), c.fast.end());
}

TEST(HiKernelChoice, TableLookupsAcrossSizesModesAndBoxes) {
    // Nearest measured N on a log scale: 4000 is nearer 3000 (1.33x) than 10 000 (2.5x).
    EXPECT_EQ(choose_cuda_kernel(hopper(4000, precision::f64), nullptr).kernel, "adding-warps");
    EXPECT_EQ(choose_cuda_kernel(hopper(50, precision::f32), nullptr).kernel, "adding-warps");
    EXPECT_EQ(choose_cuda_kernel(hopper(300000, precision::f32), nullptr).kernel, "small-tiling");
    // The geometric mean of 30 000 and 100 000 is 54 772.3: below it the smaller row, above the larger.
    EXPECT_EQ(choose_cuda_kernel(hopper(54772, precision::ds), nullptr).kernel, "ordered-split");
    EXPECT_EQ(choose_cuda_kernel(hopper(54773, precision::ds), nullptr).kernel, "small-tiling");
    EXPECT_EQ(choose_cuda_kernel(hopper(200000, precision::ds), nullptr).kernel, "small-tiling");
    EXPECT_EQ(choose_cuda_kernel(hopper(200000, precision::ds, kernel_request::fastest), nullptr).kernel,
              "fast-far-split");
    EXPECT_EQ(choose_cuda_kernel(hopper(864, precision::f32, kernel_request::fastest), nullptr).kernel,
              "fast-far-split");
    const kernel_choice periodic = choose_cuda_kernel(hopper(4000, precision::f32), nullptr);
    EXPECT_TRUE(
        contains(periodic.reason, "auto: adding-warps (table cc 9.0, measured on NVIDIA H200, 2026-11-30, nearest"))
        << periodic.reason;
    // Open boxes have rows of their own (the peers' benchmark's lattice).
    kernel_query open = hopper(4000, precision::f32);
    open.periodic = false;
    const kernel_choice c = choose_cuda_kernel(open, nullptr);
    EXPECT_EQ(c.kernel, "adding-warps");
    EXPECT_TRUE(contains(c.reason,
                         "auto: adding-warps (table cc 9.0, measured on NVIDIA H200, 2026-11-30 in an "
                         "open box, nearest measured N = 10976"))
        << c.reason;
    EXPECT_TRUE(contains(c.reason, "N = 4000, hi=f32, open box")) << c.reason;
    open.particles = 300000;
    EXPECT_EQ(choose_cuda_kernel(open, nullptr).kernel, "ordered-split");
    open.request = kernel_request::fastest;
    open.particles = 500000;
    open.hi = precision::ds;
    EXPECT_EQ(choose_cuda_kernel(open, nullptr).kernel, "fast-far-split");
    // A table without open rows (the fallback) serves open boxes with its periodic ones.
    open.compute_capability = "8.6";
    EXPECT_EQ(choose_cuda_kernel(open, nullptr).kernel, "fast-split");
}

TEST(HiKernelChoice, FusedWhereItAppliesAndOnlyForAuto) {
    kernel_query q = hopper(4, precision::f64);
    q.fused_possible = true;
    kernel_choice c = choose_cuda_kernel(q, nullptr);
    EXPECT_EQ(c.kernel, "fused");
    EXPECT_TRUE(contains(c.reason, "auto: fused (table cc 9.0")) << c.reason;
    EXPECT_TRUE(contains(c.reason, "N = 4, hi=f64, periodic box")) << c.reason;
    // Each HI precision, box kind, presence of short-range forces and device count measured has its
    // own bound: fused up to it, a step-by-step kernel past it.
    for (const std::size_t devices : {1u, 2u})
        for (const bool short_range : {false, true})
            for (const bool periodic : {true, false})
                for (const precision hi : {precision::f32, precision::ds, precision::f64}) {
                    kernel_query at = hopper(table_for("9.0").fused_up_to(hi, periodic, short_range, devices), hi);
                    at.periodic = periodic;
                    at.short_range = short_range;
                    at.devices = devices;
                    at.fused_possible = true;
                    ASSERT_GT(at.particles, 32u);
                    const kernel_choice inside = choose_cuda_kernel(at, nullptr);
                    EXPECT_EQ(inside.kernel, "fused") << to_string(hi) << " N = " << at.particles;
                    EXPECT_TRUE(contains(inside.reason,
                                         "table cc 9.0, fused bound measured on NVIDIA H200, "
                                         "2026-11-30 to 2026-12-01: the fused engine up to N = " +
                                             std::to_string(at.particles) +
                                             (short_range ? " with short-range forces" : "") +
                                             (devices == 2 ? " on two devices;" : ";")))
                        << inside.reason;
                    at.particles += 1;
                    EXPECT_NE(choose_cuda_kernel(at, nullptr).kernel, "fused")
                        << to_string(hi) << " N = " << at.particles;
                }
    // The paper's fcc benchmark, periodic (f32). Without lubrication N = 4000 lies within the fused
    // bound. With it adding-warps' whole steps were 0.125 ms against the fused engine's 0.181
    // (2026-11-30-h200-lagged-longest-row-short-range-bound.csv: the step-by-step neighbour lists a
    // warp a particle, no step waiting for the device), so auto takes the table's exact kernel there,
    // and the fused engine at N = 2048 (0.0553 against 0.0558 ms). At N = 10 976 adding-warps led both
    // ways.
    kernel_query lubricated = hopper(4000, precision::f32);
    lubricated.fused_possible = true;
    EXPECT_EQ(choose_cuda_kernel(lubricated, nullptr).kernel, "fused");
    lubricated.short_range = true;
    EXPECT_EQ(choose_cuda_kernel(lubricated, nullptr).kernel, "adding-warps");
    lubricated.particles = 2048;
    EXPECT_EQ(choose_cuda_kernel(lubricated, nullptr).kernel, "fused");
    lubricated.particles = 10976;
    EXPECT_EQ(choose_cuda_kernel(lubricated, nullptr).kernel, "adding-warps");
    lubricated.short_range = false;
    EXPECT_EQ(choose_cuda_kernel(lubricated, nullptr).kernel, "adding-warps");
    q.particles = 4;
    q.fused_possible = false;  // another integrator, the implicit scheme, MPI ranks
    EXPECT_EQ(choose_cuda_kernel(q, nullptr).kernel, "adding-warps");
    q.fused_possible = true;
    q.request = kernel_request::fastest;  // fused is exact: fast picks a fast kernel
    EXPECT_EQ(choose_cuda_kernel(q, nullptr).kernel, "fast-far-split");
}

TEST(HiKernelChoice, UnknownDevicesFallBack) {
    kernel_query q = hopper(4000, precision::f32);
    q.device_name = "NVIDIA RTX A6000";
    q.compute_capability = "8.6";
    const kernel_choice c = choose_cuda_kernel(q, nullptr);
    EXPECT_EQ(c.kernel, "tiling");
    EXPECT_TRUE(contains(c.reason, "fallback: no table for NVIDIA RTX A6000 (cc 8.6)")) << c.reason;
    q.request = kernel_request::fastest;
    EXPECT_EQ(choose_cuda_kernel(q, nullptr).kernel, "fast-split");
    q.request = kernel_request::automatic;
    q.fused_possible = true;
    q.particles = 32;
    EXPECT_EQ(choose_cuda_kernel(q, nullptr).kernel, "fused");
    q.particles = 33;
    EXPECT_EQ(choose_cuda_kernel(q, nullptr).kernel, "tiling");
    EXPECT_EQ(&table_for(""), &fallback_table());
}

TEST(HiKernelChoice, TheCacheIsWrittenReadAndConsultedForItsDeviceAndSizeOnly) {
    const fs::path file = scratch("cache") / "sub" / "hi-kernels.json";
    tuning_cache cache;
    cache.put(tuned(4000, "small-tiling", "fast-far-split"));
    cache.put(tuned(8000, "far-tiling", "fast-far-split"));
    cache.put(tuned(4000, "naive", "fast-split"));  // replaces the first
    ASSERT_EQ(cache.entries().size(), 2u);
    cache.save(file);
    std::ostringstream warnings;
    const tuning_cache read = tuning_cache::load(file, &warnings);
    EXPECT_EQ(warnings.str(), "");
    ASSERT_EQ(read.entries().size(), 2u);
    const tuned_kernels* e = read.find("NVIDIA H100 80GB HBM3", "9.0", 4000, precision::f32, false);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->exact, "naive");
    EXPECT_EQ(e->median_ms.at("fast-split"), 0.25);
    EXPECT_EQ(read.find("NVIDIA H100 80GB HBM3", "9.0", 4000, precision::f32, true), nullptr);  // other box
    EXPECT_EQ(read.find("NVIDIA H100 80GB HBM3", "9.0", 4001, precision::f32, false), nullptr);
    EXPECT_EQ(read.find("NVIDIA H200", "9.0", 4000, precision::f32, false), nullptr);

    kernel_query q = hopper(4000, precision::f32);
    q.device_name = "NVIDIA H100 80GB HBM3";
    q.periodic = false;
    kernel_choice c = choose_cuda_kernel(q, &read);
    EXPECT_EQ(c.kernel, "naive");
    EXPECT_TRUE(contains(c.reason, "auto: naive (tuned on NVIDIA H100 80GB HBM3 at 2026-11-27T10:00:00Z")) << c.reason;
    EXPECT_TRUE(contains(c.reason, file.string())) << c.reason;
    q.request = kernel_request::fastest;
    EXPECT_EQ(choose_cuda_kernel(q, &read).kernel, "fast-split");
    q.particles = 4001;  // no entry: the table (its open-box rows)
    EXPECT_EQ(choose_cuda_kernel(q, &read).kernel, "fast-far-split");
    // The fused engine comes first: the cache times kernels of the step-by-step engine.
    q = hopper(8000, precision::f32);
    q.device_name = "NVIDIA H100 80GB HBM3";
    q.periodic = false;
    EXPECT_EQ(choose_cuda_kernel(q, &read).kernel, "far-tiling");
}

TEST(HiKernelChoice, AnEntryOfTheWrongClassIsNotTrusted) {
    tuning_cache cache;
    cache.put(tuned(4000, "fast-split", "tiling"));  // an edited file: a fast kernel as the exact one
    kernel_query q = hopper(4000, precision::f32);
    q.device_name = "NVIDIA H100 80GB HBM3";
    q.periodic = false;
    EXPECT_EQ(choose_cuda_kernel(q, &cache).kernel, "adding-warps");
    EXPECT_TRUE(contains(choose_cuda_kernel(q, &cache).reason, "table cc 9.0"));
    q.request = kernel_request::fastest;
    EXPECT_EQ(choose_cuda_kernel(q, &cache).kernel, "fast-far-split");
}

TEST(HiKernelChoice, ACorruptCacheIsIgnoredWithOneLine) {
    const fs::path dir = scratch("corrupt");
    const std::map<std::string, std::string> bad{
        {"truncated.json", "{\"format\": \"stokesian hi-kernel tuning cache\", \"version\": 1, \"entries\": ["},
        {"other.json", "{\"format\": \"something else\", \"version\": 1, \"entries\": []}"},
        {"version.json", "{\"format\": \"stokesian hi-kernel tuning cache\", \"version\": 7, \"entries\": []}"},
        {"entry.json",
         "{\"format\": \"stokesian hi-kernel tuning cache\", \"version\": 1, \"entries\": [{\"device_name\": 3}]}"},
        {"binary.json", std::string("\x00\xff\xfe", 3)}};
    for (const auto& [name, text] : bad) {
        std::ofstream(dir / name, std::ios::binary) << text;
        std::ostringstream warnings;
        const tuning_cache c = tuning_cache::load(dir / name, &warnings);
        EXPECT_TRUE(c.entries().empty()) << name;
        const std::string w = warnings.str();
        EXPECT_TRUE(contains(w, "ignoring the hi-kernel tuning cache " + (dir / name).string())) << name << ": " << w;
        EXPECT_EQ(std::count(w.begin(), w.end(), '\n'), 1) << name << ": " << w;
        // Once per process and message: a suite makes many engines.
        std::ostringstream again;
        (void)tuning_cache::load(dir / name, &again);
        EXPECT_EQ(again.str(), "") << name;
    }
    std::ostringstream none;
    EXPECT_TRUE(tuning_cache::load(dir / "missing.json", &none).entries().empty());
    EXPECT_TRUE(tuning_cache::load("", &none).entries().empty());
    EXPECT_EQ(none.str(), "");
}

TEST(HiKernelChoice, TheCacheLivesUnderTheUsersCacheFolder) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const std::string saved = xdg ? xdg : "";
    ::setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
    EXPECT_EQ(default_cache_path(), fs::path("/somewhere/cache/stokesian/hi-kernels.json"));
    ::setenv("XDG_CACHE_HOME", "", 1);
    const char* home = std::getenv("HOME");
    if (home && *home) EXPECT_EQ(default_cache_path(), fs::path(home) / ".cache/stokesian/hi-kernels.json");
    if (xdg) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else ::unsetenv("XDG_CACHE_HOME");
}

// The requests head every backend's list; the CPU resolves both to its own loop, named in the
// engine's description, and computes exactly what all-pairs computes.
TEST(HiKernelChoice, TheCpuBackendResolvesAutoAndFastToItsLoop) {
    const backend* cpu = backend_registry().find("cpu");
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->can.hi_kernels, (std::vector<std::string>{"auto", "fast", "all-pairs", "symmetric"}));
    const scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    engine_config c = make_engine_config(s);
    c.backend = "cpu";
    c.threads = 1;
    EXPECT_EQ(s.run.hi_kernel, "auto");
    for (const char* request : {"", "auto", "fast"}) {
        c.hi_kernel = request;
        const registry::resolved r = backend_registry().resolve_on(c, s.particles.size(), "the run", device_context{});
        EXPECT_EQ(r.config.hi_kernel, "all-pairs") << request;
        auto e = make_engine(c, s.particles);
        const auto d = e->description();
        EXPECT_EQ(d.hi_kernel, "all-pairs") << request;
        EXPECT_TRUE(contains(d.details.at("hi_kernel_choice"), ": all-pairs (the CPU backend's default")) << request;
        e->advance(50);
        frame chosen, named;
        e->read_frame(chosen);
        c.hi_kernel = "all-pairs";
        auto n = make_engine(c, s.particles);
        EXPECT_EQ(n->description().details.count("hi_kernel_choice"), 0u);  // a named kernel: nothing chosen
        n->advance(50);
        n->read_frame(named);
        EXPECT_EQ(chosen.position, named.position) << request;
        EXPECT_EQ(chosen.velocity, named.velocity) << request;
    }
}
