// `stokesian port-check compare`: reading a record and comparing two (stokesian/port/port_check.hpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/port/port_check.hpp"

namespace stokesian::port {

namespace {

[[noreturn]] void bad(const std::filesystem::path& file, const std::string& what) {
    throw input_error(file.string(), "", "", what);
}

std::vector<double> read_array(const io::h5md_file& f, const std::filesystem::path& file, const std::string& path,
                               std::size_t n) {
    if (!f.exists(path)) bad(file, "missing dataset " + path + " (not a complete port-check record)");
    const auto shape = f.shape(path);
    if (shape.size() != 2 || shape[0] != n || shape[1] != 3)
        bad(file, path + " has the wrong shape (expected " + std::to_string(n) + " x 3)");
    return f.read_doubles(path);
}

std::size_t ulp_bin(double ulps) {
    if (ulps <= 0) return 0;
    // (0, 1] -> 1, (1, 2] -> 2, (2, 4] -> 3, ..., (2^29, 2^30] -> 31, more -> 32
    if (ulps <= 1) return 1;
    if (ulps > 0x1p30) return 32;
    return std::size_t(std::ceil(std::log2(ulps))) + 1;
}

histogram ulp_histogram() {
    histogram h;
    h.labels = {"0", "<=1"};
    for (int k = 1; k <= 30; ++k) {
        const double lo = std::ldexp(1.0, k - 1) + 1, hi = std::ldexp(1.0, k);
        h.labels.push_back(lo == hi ? std::to_string((long long)hi)
                                    : std::to_string((long long)lo) + "-" + std::to_string((long long)hi));
    }
    h.labels.push_back(">2^30");
    h.counts.assign(h.labels.size(), 0);
    return h;
}

histogram relative_histogram() {
    histogram h;
    h.labels = {"0"};
    for (int e = -20; e < 0; ++e) h.labels.push_back("1e" + std::to_string(e) + "..1e" + std::to_string(e + 1));
    h.labels.push_back(">=1");
    h.counts.assign(h.labels.size(), 0);
    return h;
}

std::size_t relative_bin(double r) {
    if (r <= 0) return 0;
    if (r >= 1) return 21;
    const int e = int(std::floor(std::log10(r)));
    return std::size_t(std::clamp(e, -20, -1) + 21);
}

verdict worse(verdict a, verdict b) { return std::max(a, b); }

}  // namespace

std::string to_string(verdict v) {
    return v == verdict::bitwise ? "bitwise" : v == verdict::within_bound ? "within rounding bound" : "FAIL";
}

bool comparison::passed() const {
    for (const auto& [mode, v] : per_mode)
        if (v == verdict::fail) return false;
    for (const auto& e : evaluators)
        if (e.result == verdict::fail) return false;
    return !per_mode.empty();
}

double accumulator_unit_roundoff(precision_mode m) { return precision_info_of(m.hi).unit_roundoff; }
double working_unit_roundoff(precision_mode m) { return precision_info_of(working_precision(m.hi)).unit_roundoff; }

double rounding_bound_factor(precision_mode m, std::size_t particles, hydrodynamic_tensor tensor) {
    const double ua = accumulator_unit_roundoff(m), uw = working_unit_roundoff(m), k = tensor_term_allowance(tensor);
    const double n = particles > 1 ? double(particles - 1) : 0.0;
    const double gamma = n * ua / (1.0 - n * ua);
    return 2.0 * (gamma * (1.0 + k * uw) + k * uw);
}

port_record read_record(const std::filesystem::path& path) {
    io::h5md_file f(path);  // input_error: missing, not HDF5, no /h5md
    port_record r;
    r.file = path;
    const auto root = f.string_attributes("/");
    const auto schema = root.find("schema");
    if (schema == root.end() || schema->second != record_schema)
        bad(path, "not a port-check record (root attribute schema is '" +
                      (schema == root.end() ? std::string("missing") : schema->second) + "', expected '" +
                      record_schema + "')");
    const auto version = root.find("schema_version");
    if (version == root.end() || version->second != record_schema_version)
        bad(path, "port-check record of schema version '" +
                      (version == root.end() ? std::string("missing") : version->second) +
                      "', this build reads version " + record_schema_version);
    for (const char* g : {"/provenance/build", "/provenance/run", "/provenance/settings", "/configurations"})
        if (!f.is_group(g)) bad(path, std::string("missing group ") + g + " (not a complete port-check record)");
    r.build = f.string_attributes("/provenance/build");
    r.run = f.string_attributes("/provenance/run");
    r.settings = f.string_attributes("/provenance/settings");
    if (f.is_group("/provenance/engine")) r.device = f.string_attributes("/provenance/engine");
    for (const std::string& name : f.list("/configurations")) {
        const std::string base = "/configurations/" + name;
        if (!f.is_group(base)) bad(path, base + " is not a group");
        configuration_record c;
        c.name = name;
        const auto attrs = f.string_attributes(base);
        auto get = [&](const std::string& key) {
            const auto it = attrs.find(key);
            if (it == attrs.end()) bad(path, base + " lacks the attribute " + key);
            return it->second;
        };
        c.description = get("description");
        const auto particles = read_count(get("particles")), steps = read_count(get("steps"));
        if (!particles || !steps) bad(path, base + ": particles or steps is not a number");
        c.particles = *particles;
        c.steps = *steps;
        if (c.particles == 0) bad(path, base + " has no particles");
        const std::string tensor = get("tensor");
        const std::optional<hydrodynamic_tensor> key = parse_tensor(tensor);
        if (!key) {
            std::string known;
            for (const std::string& n : tensor_names()) known += (known.empty() ? "" : ", ") + n;
            bad(path, base + ": tensor '" + tensor + "' is not one this build registers (" + known + ")");
        }
        c.tensor = *key;
        c.position = read_array(f, path, base + "/position", c.particles);
        c.external_force = read_array(f, path, base + "/external_force", c.particles);
        c.absolute_sum = read_array(f, path, base + "/absolute_sum", c.particles);
        for (const std::string& m : f.list(base)) {
            if (!f.is_group(base + "/" + m)) continue;
            mode_record mr;
            try {
                mr.mode = parse_precision_mode(m);
            } catch (const std::invalid_argument&) {
                bad(path, base + "/" + m + " is not a precision mode");
            }
            const std::string mb = base + "/" + m;
            mr.engine = f.string_attributes(mb);
            const auto storage = mr.engine.find("storage");
            const std::string expected(precision_info_of(mr.mode.hi).storage_name);
            if (storage == mr.engine.end() || storage->second != expected)
                bad(path, mb + ": storage '" + (storage == mr.engine.end() ? std::string("missing") : storage->second) +
                              "' does not match the mode (expected " + expected + ")");
            mr.storage = expected;
            mr.hi = read_array(f, path, mb + "/velocity", c.particles);
            mr.lo = precision_info_of(mr.mode.hi).words == 2 ? read_array(f, path, mb + "/velocity_lo", c.particles)
                                                             : std::vector<double>(3 * c.particles, 0.0);
            if (c.steps > 0) {
                mr.run_position = read_array(f, path, mb + "/run_position", c.particles);
                mr.run_velocity = read_array(f, path, mb + "/run_velocity", c.particles);
            }
            c.modes.push_back(std::move(mr));
        }
        r.configurations.push_back(std::move(c));
    }
    if (r.configurations.empty()) bad(path, "records no configuration");
    if (f.is_group("/evaluators"))
        for (const std::string& name : f.list("/evaluators")) {
            const std::string base = "/evaluators/" + name;
            evaluator_record e;
            e.name = name;
            const auto attrs = f.string_attributes(base);
            const auto description = attrs.find("description"), allowance = attrs.find("allowance");
            if (description == attrs.end() || allowance == attrs.end())
                bad(path, base + " lacks the attribute description or allowance");
            e.description = description->second;
            e.allowance = std::strtod(allowance->second.c_str(), nullptr);
            if (!f.exists(base + "/distance")) bad(path, "missing dataset " + base + "/distance");
            e.distance = f.read_doubles(base + "/distance");
            const std::size_t m = e.distance.size();
            const auto four_columns = [&](const std::string& dataset) {
                if (!f.exists(dataset)) bad(path, "missing dataset " + dataset + " (not a complete port-check record)");
                const auto shape = f.shape(dataset);
                if (shape.size() != 2 || shape[0] != m || shape[1] != 4)
                    bad(path, dataset + " has the wrong shape (expected " + std::to_string(m) + " x 4)");
                return f.read_doubles(dataset);
            };
            e.absolute = four_columns(base + "/absolute");
            for (const char* working : {"float32", "float64"})
                if (f.exists(base + "/" + working)) e.values[working] = four_columns(base + "/" + working);
            r.evaluators.push_back(std::move(e));
        }
    return r;
}

comparison compare(const port_record& a, const port_record& b) {
    comparison out;
    for (const configuration_record& ca : a.configurations) {
        const auto cb_it = std::find_if(b.configurations.begin(), b.configurations.end(),
                                        [&](const configuration_record& c) { return c.name == ca.name; });
        if (cb_it == b.configurations.end()) {
            out.not_compared.push_back(ca.name + ": only in " + a.file.string());
            continue;
        }
        const configuration_record& cb = *cb_it;
        if (ca.particles != cb.particles || ca.position != cb.position || ca.external_force != cb.external_force ||
            ca.tensor != cb.tensor)
            throw input_error(b.file.string(), "", "",
                              "configuration " + ca.name + " differs from " + a.file.string() +
                                  " (positions, forces or tensor): records of different versions of the "
                                  "configuration set");
        for (const mode_record& ma : ca.modes) {
            const auto mb_it =
                std::find_if(cb.modes.begin(), cb.modes.end(), [&](const mode_record& m) { return m.mode == ma.mode; });
            if (mb_it == cb.modes.end()) {
                out.not_compared.push_back(ca.name + "/" + to_string(ma.mode) + ": only in " + a.file.string());
                continue;
            }
            const mode_record& mb = *mb_it;
            mode_comparison row;
            row.configuration = ca.name;
            row.mode = ma.mode;
            row.particles = ca.particles;
            row.ulp = ulp_histogram();
            row.relative = relative_histogram();
            const auto ulp_distance = precision_info_of(ma.mode.hi).ulp_distance;  // in the storage type
            const double factor = rounding_bound_factor(ma.mode, ca.particles, ca.tensor);
            const double floor = double(ca.particles) * 0x1p-125;
            row.bound_factor = factor;
            std::vector<double> ulps;
            ulps.reserve(3 * ca.particles);
            double sum_sq = 0;
            for (std::size_t i = 0; i < ca.particles; ++i) {
                double norm = 0;
                for (int k = 0; k < 3; ++k) {
                    const double v = ma.hi[3 * i + k] + ma.lo[3 * i + k];
                    norm += v * v;
                }
                norm = std::sqrt(norm);
                for (int k = 0; k < 3; ++k) {
                    const std::size_t x = 3 * i + std::size_t(k);
                    const bool same =
                        std::bit_cast<std::uint64_t>(ma.hi[x]) == std::bit_cast<std::uint64_t>(mb.hi[x]) &&
                        std::bit_cast<std::uint64_t>(ma.lo[x]) == std::bit_cast<std::uint64_t>(mb.lo[x]);
                    const double u = same ? 0.0 : ulp_distance(ma.hi[x], ma.lo[x], mb.hi[x], mb.lo[x]);
                    const double diff = double(std::fabs(((long double)ma.hi[x] - (long double)mb.hi[x]) +
                                                         ((long double)ma.lo[x] - (long double)mb.lo[x])));
                    const double rel = same ? 0.0 : norm > 0 ? diff / norm : std::numeric_limits<double>::infinity();
                    const double bound = factor * ca.absolute_sum[x] + floor;
                    const double ratio = same                  ? 0.0
                                         : std::isfinite(diff) ? diff / bound
                                                               : std::numeric_limits<double>::infinity();
                    if (!same) {
                        ++row.differing_components;
                        // NaN in one record and not the other: a failure
                        if (std::isnan(ma.hi[x]) != std::isnan(mb.hi[x]) || std::isnan(diff))
                            row.max_bound_ratio = INFINITY;
                    }
                    ulps.push_back(u);
                    row.max_ulp = std::max(row.max_ulp, u);
                    row.max_relative = std::max(row.max_relative, rel);
                    sum_sq += rel * rel;
                    if (ratio > row.max_bound_ratio) {
                        row.max_bound_ratio = ratio;
                        row.worst_particle = i;
                        row.worst_component = k;
                    }
                    ++row.ulp.counts[ulp_bin(u)];
                    ++row.relative.counts[relative_bin(rel)];
                }
            }
            row.rms_relative = std::sqrt(sum_sq / double(3 * ca.particles));
            std::nth_element(ulps.begin(), ulps.begin() + long(ulps.size() / 2), ulps.end());
            row.median_ulp = ulps[ulps.size() / 2];
            row.result = row.differing_components == 0 ? verdict::bitwise
                         : row.max_bound_ratio <= 1.0  ? verdict::within_bound
                                                       : verdict::fail;
            if (ca.steps > 0 && cb.steps == ca.steps && !ma.run_position.empty() && !mb.run_position.empty()) {
                row.has_run = true;
                row.run_bitwise = ma.run_position == mb.run_position && ma.run_velocity == mb.run_velocity;
                double vmax = 0;
                for (double v : ma.run_velocity) vmax = std::max(vmax, std::fabs(v));
                for (std::size_t x = 0; x < ma.run_position.size(); ++x) {
                    row.run_max_position_difference =
                        std::max(row.run_max_position_difference, std::fabs(ma.run_position[x] - mb.run_position[x]));
                    if (vmax > 0)
                        row.run_max_relative_velocity = std::max(
                            row.run_max_relative_velocity, std::fabs(ma.run_velocity[x] - mb.run_velocity[x]) / vmax);
                }
            }
            const std::string key = to_string(row.mode);
            out.per_mode[key] = out.per_mode.count(key) ? worse(out.per_mode[key], row.result) : row.result;
            out.rows.push_back(std::move(row));
        }
        for (const mode_record& mb : cb.modes)
            if (std::none_of(ca.modes.begin(), ca.modes.end(), [&](const mode_record& m) { return m.mode == mb.mode; }))
                out.not_compared.push_back(ca.name + "/" + to_string(mb.mode) + ": only in " + b.file.string());
    }
    for (const configuration_record& cb : b.configurations)
        if (std::none_of(a.configurations.begin(), a.configurations.end(),
                         [&](const auto& c) { return c.name == cb.name; }))
            out.not_compared.push_back(cb.name + ": only in " + b.file.string());
    if (out.rows.empty())
        throw input_error(b.file.string(), "", "",
                          "no configuration and precision mode in common with " + a.file.string());
    compare_evaluators(a, b, out);
    return out;
}

}  // namespace stokesian::port
