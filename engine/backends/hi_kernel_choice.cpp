// --hi-kernel auto|fast (stokesian/backends/hi_kernel_choice.hpp): the table lookup and the choice.
#include "stokesian/backends/hi_kernel_choice.hpp"

#include <algorithm>
#include <stdexcept>

#include "stokesian/backends/hi_kernel_cache.hpp"

namespace stokesian::backends {

namespace {

bool among(const std::vector<std::string>& list, const std::string& kernel) {
    return list.empty() || std::find(list.begin(), list.end(), kernel) != list.end();
}

// "table cc 9.0, measured on NVIDIA H200, 2026-11-26" (with " in an open box" where the open rows
// decide) or "fallback: no table for ... (cc 8.6)" ("no row of hi=... in the table for": a precision
// the device's table has not measured).
std::string table_name(const device_table& t, const kernel_query& q) {
    if (t.compute_capability.empty()) {
        const std::string device =
            (q.device_name.empty() ? std::string("this device") : q.device_name) + " (cc " + q.compute_capability + ")";
        if (&table_for(q.compute_capability) != &t)
            return "fallback: no row of hi=" + std::string(to_string(q.hi)) + " in the table for " + device;
        return "fallback: no table for " + device;
    }
    const table_rows& rows = t.rows_for(q.periodic);
    return "table cc " + std::string(t.compute_capability) + ", measured on " + std::string(rows.measured_on) +
           (&rows == &t.open ? " in an open box" : "");
}

}  // namespace

kernel_request request_of(std::string_view hi_kernel) noexcept {
    if (hi_kernel.empty() || hi_kernel == automatic_hi_kernel) return kernel_request::automatic;
    if (hi_kernel == fastest_hi_kernel) return kernel_request::fastest;
    return kernel_request::named;
}

const device_table& table_for(std::string_view compute_capability) {
    for (const device_table& t : measured_tables())
        if (t.compute_capability == compute_capability) return t;
    return fallback_table();
}

const table_row& nearest_row(const table_rows& rows, precision hi, std::size_t particles) {
    const table_row* best = nullptr;
    // Nearest on a log scale: the smaller ratio max(N, m) / min(N, m); the first row wins a tie.
    const double n = static_cast<double>(std::max<std::size_t>(particles, 1));
    const auto ratio = [n](const table_row& r) {
        const double m = static_cast<double>(r.particles);
        return n >= m ? n / m : m / n;
    };
    for (const table_row& r : rows.rows)
        if (r.hi == hi && (best == nullptr || ratio(r) < ratio(*best))) best = &r;
    if (best == nullptr)
        throw std::logic_error("the hi-kernel table " + std::string(rows.source) +
                               " has no row for hi=" + std::string(to_string(hi)));
    return *best;
}

kernel_choice choose_cuda_kernel(const kernel_query& q, const tuning_cache* cache) {
    const bool fast = q.request == kernel_request::fastest;
    const std::string word(fast ? fastest_hi_kernel : automatic_hi_kernel);
    const std::vector<std::string>& candidates = fast ? q.candidates.fast : q.candidates.exact;
    const std::string what = "N = " + std::to_string(q.particles) + ", hi=" + std::string(to_string(q.hi)) + ", " +
                             (q.periodic ? "periodic" : "open") + " box";
    // A precision the device's table has not measured takes the rows of devices of no measured class.
    const device_table& measured = table_for(q.compute_capability);
    const auto measures_hi = [&](const table_rows& rows) {
        return std::any_of(rows.rows.begin(), rows.rows.end(), [&](const table_row& r) { return r.hi == q.hi; });
    };
    const device_table& table = measures_hi(measured.rows_for(q.periodic)) ? measured : fallback_table();

    // The fused engine is exact (bit for bit the step-by-step engine) and, for small systems, runs
    // whole steps in one launch: auto takes it wherever it applies up to the table's bound for this
    // HI precision and box kind.
    if (const std::size_t bound = table.fused_up_to(q.hi, q.periodic, q.short_range, q.devices);
        !fast && q.fused_possible && q.particles <= bound) {
        const std::string source = table.compute_capability.empty()
                                       ? table_name(table, q)
                                       : "table cc " + std::string(table.compute_capability) +
                                             ", fused bound measured on " + std::string(table.fused.measured_on);
        return {"fused", word + ": fused (" + source + ": the fused engine up to N = " + std::to_string(bound) +
                             (q.short_range ? " with short-range forces" : "") +
                             (q.devices > 1 ? " on two devices" : "") + "; " + what + ")"};
    }

    if (cache != nullptr)
        if (const tuned_kernels* t = cache->find(q.device_name, q.compute_capability, q.particles, q.hi, q.periodic)) {
            const std::string& kernel = fast ? t->fast : t->exact;
            // An entry naming a kernel of the wrong class (an edited file) is not trusted.
            if (!kernel.empty() && among(candidates, kernel))
                return {kernel, word + ": " + kernel + " (tuned on " + q.device_name + " at " + t->tuned_at + ", " +
                                    what + "; " + cache->path().string() + ")"};
        }

    const table_row& row = nearest_row(table.rows_for(q.periodic), q.hi, q.particles);
    std::string kernel(fast ? row.fast : row.exact);
    std::string note =
        table.compute_capability.empty() ? "" : ", nearest measured N = " + std::to_string(row.particles);
    if (!among(candidates, kernel)) {  // a build whose kernel list lacks the table's (never in this tree)
        note += "; " + kernel + " not built, " + candidates.front();
        kernel = candidates.front();
    }
    return {kernel, word + ": " + kernel + " (" + table_name(table, q) + note + "; " + what + ")"};
}

}  // namespace stokesian::backends
