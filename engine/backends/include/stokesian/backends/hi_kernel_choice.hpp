#pragma once
// `--hi-kernel auto` (the default) and `--hi-kernel fast`: which kernel runs the hydrodynamic sum,
// chosen per run from N, the precision mode's HI precision, the boundary and the device
// (engine/docs/performance.md, "The kernel choice"). Every backend accepts both requests (the
// registry puts them first in each backend's capabilities::hi_kernels); the CPU backend resolves
// them to its own loop, CUDA to the fastest exact path (auto: a kernel that sums in the CPU's order,
// or the fused engine where it applies, so the result is bit for bit whatever it picks) or the
// fastest fast-math kernel (fast). The choice comes from the measured table (hi_kernel_table.cpp)
// or, where `stokesian bench tune` has timed this device, from the tuning cache
// (hi_kernel_cache.hpp). Pure logic: no device is touched here (the CUDA registration describes the
// device and asks).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/numeric/precision.hpp"

namespace stokesian::backends {

class tuning_cache;

inline constexpr std::string_view automatic_hi_kernel = "auto";  // the fastest exact path (the default)
inline constexpr std::string_view fastest_hi_kernel = "fast";    // the fastest fast-math kernel
// The requests, in the order they head every backend's list of kernel names.
inline constexpr std::string_view hi_kernel_requests[] = {automatic_hi_kernel, fastest_hi_kernel};

enum class kernel_request { named, automatic, fastest };
// "" (the backend's default) and "auto": automatic; "fast": fastest; any other name: named.
kernel_request request_of(std::string_view hi_kernel) noexcept;

// The kernels a request may resolve to: auto picks among `exact` (they sum in the CPU's order, so
// each gives the same bits), fast among `fast`. Filled by the backend from its kernel list.
struct kernel_candidates {
    std::vector<std::string> exact, fast;
};

// The CUDA backend's kernels by class (cuda/hi_kernel_names.hpp: sums_in_cpu_order, uses_fast_math);
// both empty in a build without CUDA. Defined with the CUDA registration.
kernel_candidates cuda_kernel_candidates();

// What the CUDA choice depends on.
struct kernel_query {
    kernel_request request = kernel_request::automatic;
    std::size_t particles = 0;
    precision hi = precision::f64;  // the HI precision of the mode (the integration precision costs nothing here)
    bool periodic = false;
    std::string device_name;         // "NVIDIA H200"
    std::string compute_capability;  // "9.0"
    // The fused engine (the CUDA kernel "fused") can run this configuration on the run's devices.
    bool fused_possible = false;
    // The devices the run drives: the fused bounds were measured on one and on two.
    std::size_t devices = 1;
    // Short-range forces (lubrication or a pair force): the fused engine tests every pair for them,
    // the step-by-step engine a cell list in a periodic box, so the fused bound is another.
    bool short_range = false;
    kernel_candidates candidates;
};

struct kernel_choice {
    std::string kernel;  // a kernel of the backend; "fused": the fused engine
    // Provenance (the engine's hi_kernel_choice): "auto: fused (table cc 9.0, fused bound measured on
    // NVIDIA H200, 2026-11-29: the fused engine up to N = 8192; N = 4, hi=f64, periodic box)".
    std::string reason;
};

// One measured size of a device class: the fastest exact and fast kernel at `particles` particles.
struct table_row {
    precision hi;
    std::size_t particles;
    std::string_view exact, fast;
};

// The rows of one box kind, from the benchmark CSV named in `source`.
struct table_rows {
    std::string_view measured_on;     // "NVIDIA H200, 2026-11-26"
    std::string_view source;          // the CSV under engine/docs/gpu-runs/ the rows come from
    std::span<const table_row> rows;  // per HI precision, ascending N
};

// The largest N at which the fused engine runs a system under auto, in a periodic and in an open box
// (where it was at least as fast as each exact kernel auto takes step by step there, at every measured N
// up to there).
struct box_bounds {
    std::size_t periodic_up_to, open_up_to;
};

// The fused engine's bounds for one HI precision: without short-range forces and with them, on one
// device and on two (on more devices nothing was measured: the step-by-step engine).
struct fused_bound {
    precision hi;
    box_bounds alone, short_range, on_two_devices, on_two_devices_short_range;
};

// The fused bounds of one device class, from the `ci/gpu-hi-auto` CSVs: `source` (bench steps, no
// short-range forces), `short_range_source` (bench fcc, lubrication on), `two_devices_source` (bench
// steps on devices 0,1, no short-range forces) and `two_devices_short_range_source` (the same with a
// pair force).
struct fused_bounds {
    std::string_view measured_on;  // "NVIDIA H200, 2026-11-29"
    std::string_view source;
    std::string_view short_range_source;
    std::string_view two_devices_source;
    std::string_view two_devices_short_range_source;
    std::span<const fused_bound> bounds;  // one per HI precision the rows measure
};

// The table of one device class (compute capability).
struct device_table {
    std::string_view compute_capability;  // "9.0"; "" for the fallback (unknown devices)
    fused_bounds fused;
    table_rows periodic;
    table_rows open;  // no rows: the periodic rows serve open boxes too

    const table_rows& rows_for(bool periodic_box) const { return periodic_box || open.rows.empty() ? periodic : open; }
    // The largest N the fused engine runs under auto at HI precision `hi` in this box kind, with or
    // without short-range forces, on `devices` devices; 0 where the table has no bound for them (the
    // unit test requires one for every precision it has rows of).
    std::size_t fused_up_to(precision hi, bool periodic_box, bool short_range, std::size_t devices = 1) const {
        if (devices > 2) return 0;
        for (const fused_bound& b : fused.bounds)
            if (b.hi == hi) {
                const box_bounds& box = devices == 2 ? (short_range ? b.on_two_devices_short_range : b.on_two_devices)
                                                     : (short_range ? b.short_range : b.alone);
                return periodic_box ? box.periodic_up_to : box.open_up_to;
            }
        return 0;
    }
};

// The measured tables, one per device class (hi_kernel_table.cpp), and the one for devices of no
// measured class.
std::span<const device_table> measured_tables();
const device_table& fallback_table();
// The table of `compute_capability`, or the fallback.
const device_table& table_for(std::string_view compute_capability);
// The row of `rows` for hi nearest `particles` on a log scale (between two measured sizes the one
// whose ratio to N is smaller; ties: the smaller). Throws std::logic_error when there is no row for
// hi (a broken table, caught by the unit test).
const table_row& nearest_row(const table_rows& rows, precision hi, std::size_t particles);

// For the benchmarks that time the step-by-step kernels alone (bench hi, bench fcc): the kernel a
// request (automatic or fastest) stands for on device `ordinal`, the fused engine left out, the
// user's tuning cache consulted. Throws std::runtime_error in a build without CUDA.
kernel_choice choose_cuda_step_kernel(kernel_request request, std::size_t particles, precision hi, bool periodic,
                                      int ordinal);

// The CUDA backend's kernel for `q` (q.request automatic or fastest): a tuning-cache entry of this
// device, N, hi and boundary when `cache` has one, else the table. Deterministic; no output.
kernel_choice choose_cuda_kernel(const kernel_query& q, const tuning_cache* cache);

}  // namespace stokesian::backends
