// `stokesian port-check record`: the fixed configurations, the velocities in every precision mode,
// and the record file (stokesian/port/port_check.hpp, engine/docs/porting.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <random>
#include <stdexcept>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/version.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "stokesian/io/output_target.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/port/port_check.hpp"

namespace stokesian::port {

namespace fs = std::filesystem;

namespace {

// Uniform in [0, 1) from the top 53 bits (portable: not std::uniform_real_distribution).
double uniform(std::mt19937_64& g) { return double(g() >> 11) * 0x1p-53; }

vec3<double> wrap(vec3<double> r, double edge) {
    auto w = [edge](double x) {
        x -= edge * std::floor(x / edge + 0.5);
        if (x >= 0.5 * edge) x -= edge;
        return x;
    };
    return {w(r.x), w(r.y), w(r.z)};
}

system_parameters periodic_system(double edge) {
    system_parameters s;
    s.box.periodic = true;
    s.box.edges = {edge, edge, edge};
    return s;
}

configuration tetrahedron() {
    configuration c{"tetrahedron",
                    "four spheres on the paper's stretched tetrahedron (Sec. 5), L = 64a",
                    periodic_system(64.0),
                    {}};
    c.state.positions = {{5.0, 0.0, 5.0}, {0.0, 5.0, -5.0}, {-5.0, 0.0, 5.0}, {0.0, -5.0, -5.0}};
    c.state.external_forces.assign(4, {0.0, 0.0, -1.0});
    return c;
}

configuration fcc(int cells, double amplitude, std::uint64_t seed, const std::string& name, const std::string& what) {
    const double b = fcc_lattice_constant(0.1);
    const double edge = cells * b;
    configuration c{name, what, periodic_system(edge), {}};
    c.state.positions = fcc_lattice(cells, b);
    if (amplitude > 0) perturb_positions(c.state.positions, amplitude, seed, {edge, edge, edge});
    c.state.external_forces.assign(c.state.positions.size(), {0.0, 0.0, -1.0});
    return c;
}

configuration random_uniform(std::size_t n, std::uint64_t seed) {
    // n = 0.05 a^-3 (volume fraction 0.21): random sequential addition of non-overlapping spheres
    // jams near 0.38, so the paper's n = 0.1 a^-3 (0.42) cannot be reached this way.
    const double edge = std::cbrt(double(n) / 0.05);
    configuration c{"random_" + std::to_string(n),
                    "uniform random in a periodic box at n = 0.05 a^-3, centres >= 2.1a apart (rejection), seed " +
                        std::to_string(seed),
                    periodic_system(edge),
                    {}};
    std::mt19937_64 g(seed);
    const box_geometry<double> box{true, {edge, edge, edge}};
    while (c.state.positions.size() < n) {
        const vec3<double> r =
            wrap({(uniform(g) - 0.5) * edge, (uniform(g) - 0.5) * edge, (uniform(g) - 0.5) * edge}, edge);
        bool free = true;
        for (const auto& q : c.state.positions) {
            const vec3<double> d = minimum_image(r - q, box);
            if (dot(d, d) < 2.1 * 2.1) {
                free = false;
                break;
            }
        }
        if (free) c.state.positions.push_back(r);
    }
    c.state.external_forces.assign(n, {0.0, 0.0, -1.0});
    return c;
}

configuration near_contact() {
    configuration c{"near_contact",
                    "open box, lubrication on: pairs along x at gaps 1e-1, 1e-2, 1e-3, 1e-4 a, an oblique pair at "
                    "gap 1e-2 a, a three-sphere cluster at gaps 1e-3 a; F = (0, 0, -1) (and a push together on "
                    "the oblique pair)",
                    {},
                    {}};
    c.system.lubrication.enabled = true;
    const double gaps[] = {1e-1, 1e-2, 1e-3, 1e-4};
    double y = 0.0;
    for (const double s : gaps) {
        const double h = 1.0 + 0.5 * s;
        c.state.positions.push_back({-h, y, 0.0});
        c.state.positions.push_back({h, y, 0.0});
        c.state.external_forces.push_back({0.0, 0.0, -1.0});
        c.state.external_forces.push_back({0.0, 0.0, -1.0});
        y += 12.0;
    }
    const double h = (2.0 + 1e-2) / (2.0 * std::sqrt(2.0));
    c.state.positions.push_back({-h, y, -h});
    c.state.positions.push_back({h, y, h});
    c.state.external_forces.push_back({0.5, 0.0, -0.5});
    c.state.external_forces.push_back({-0.5, 0.0, -1.5});
    y += 12.0;
    const double d = 2.0 + 1e-3;  // equilateral triangle of side d in the xz-plane
    c.state.positions.push_back({-0.5 * d, y, 0.0});
    c.state.positions.push_back({0.5 * d, y, 0.0});
    c.state.positions.push_back({0.0, y, d * std::sqrt(3.0) / 2.0});
    for (int k = 0; k < 3; ++k) c.state.external_forces.push_back({0.0, 0.0, -1.0});
    return c;
}

// A_ic = sum_j |mu_ij F_j| evaluated with absolute values of every intermediate quantity
// (Rotne-Prager, far and overlap forms; the tie rule changes signs only). Written out for that
// tensor: a configuration of another one needs its own absolute evaluation here.
std::vector<double> absolute_sums(const configuration& c) {
    if (c.system.tensor != hydrodynamic_tensor::rotne_prager)
        throw std::logic_error("port-check: the absolute evaluation of configuration " + c.name +
                               " is written for the Rotne-Prager tensor, not " +
                               std::string(to_string(c.system.tensor)));
    const std::size_t n = c.state.size();
    const box_geometry<double> box{c.system.box.periodic, c.system.box.edges};
    const double a = c.system.radius, mu0 = c.system.self_mobility;
    std::vector<double> out(3 * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        double sx = 0, sy = 0, sz = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const vec3<double> f = c.state.external_forces[j];
            const vec3<double> af{std::abs(f.x), std::abs(f.y), std::abs(f.z)};
            if (i == j) {
                sx += mu0 * af.x, sy += mu0 * af.y, sz += mu0 * af.z;
                continue;
            }
            const vec3<double> r = minimum_image(c.state.positions[i] - c.state.positions[j], box);
            const vec3<double> ar{std::abs(r.x), std::abs(r.y), std::abs(r.z)};
            const double r2 = dot(r, r), dist = std::sqrt(r2);
            double identity, dyadic;
            if (dist >= 2 * a) {
                const double far = 0.75 * a / dist, near = 0.5 * a * a * a / (dist * r2);
                identity = far + near;
                dyadic = (far + 3 * near) / r2;
            } else {
                identity = 1 + 9.0 / 32.0 * dist / a;
                dyadic = 3.0 / 32.0 / (a * dist);
            }
            const double projection = dyadic * dot(ar, af);
            sx += mu0 * (identity * af.x + projection * ar.x);
            sy += mu0 * (identity * af.y + projection * ar.y);
            sz += mu0 * (identity * af.z + projection * ar.z);
        }
        out[3 * i] = sx, out[3 * i + 1] = sy, out[3 * i + 2] = sz;
    }
    return out;
}

std::vector<double> flatten(const std::vector<vec3<double>>& v) {
    std::vector<double> out;
    out.reserve(3 * v.size());
    for (const auto& x : v) out.insert(out.end(), {x.x, x.y, x.z});
    return out;
}

// An (N, 3) dataset, chunked whole, shuffled and deflated (the committed record stays small).
void write_array(hid_t parent, const std::string& name, const std::vector<double>& data, bool as_float,
                 hsize_t columns = 3) {
    const hsize_t shape[2] = {data.size() / columns, columns};
    const io::hdf5::dataspace space(H5Screate_simple(2, shape, nullptr));
    io::hdf5::property_list dcpl = io::dataset_creation(std::span<const hsize_t>(shape, 2));
    io::hdf5::check(H5Pset_shuffle(dcpl.get()), "setting the shuffle filter");
    io::hdf5::check(H5Pset_deflate(dcpl.get(), 9), "setting the deflate filter");
    const io::hdf5::dataset d(
        io::hdf5::check(H5Dcreate2(parent, name.c_str(), as_float ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space.get(),
                                   H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                        "creating " + name));
    if (as_float) {
        std::vector<float> f(data.begin(), data.end());  // exact: the words are floats widened
        io::hdf5::check(H5Dwrite(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, f.data()),
                        "writing " + name);
    } else {
        io::hdf5::check(H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
                        "writing " + name);
    }
}

std::string edges_text(const system_parameters& s) {
    if (!s.box.periodic) return "open";
    char buf[96];
    std::snprintf(buf, sizeof buf, "periodic %.17g %.17g %.17g", s.box.edges.x, s.box.edges.y, s.box.edges.z);
    return buf;
}

}  // namespace

std::vector<configuration> standard_configurations() {
    std::vector<configuration> set;
    set.push_back(tetrahedron());
    set.push_back(
        fcc(5, 0.1, 500, "fcc_500", "fcc lattice, N = 500, n = 0.1 a^-3, coordinates perturbed by +-0.1a (seed 500)"));
    set.push_back(fcc(10, 0.0, 0, "fcc_4000", "fcc lattice, N = 4000, n = 0.1 a^-3 (the paper's benchmark, Sec. 3.3)"));
    set.push_back(random_uniform(1000, 20120101));
    set.push_back(near_contact());
    return set;
}

std::vector<std::string> standard_configuration_names() {
    return {"tetrahedron", "fcc_500", "fcc_4000", "random_1000", "near_contact"};
}

std::vector<precision_mode> all_precision_modes() { return {precision_modes.rbegin(), precision_modes.rend()}; }

void record(const record_options& o, std::ostream& log) {
    const std::vector<precision_mode> modes = o.modes.empty() ? all_precision_modes() : o.modes;
    const std::vector<std::string> known = standard_configuration_names();
    for (const auto& name : o.configurations)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw input_error("", "--configs", name,
                              "one of tetrahedron, fcc_500, fcc_4000, random_1000, near_contact");
    std::vector<configuration> configs;
    for (auto& c : standard_configurations())
        if (o.configurations.empty() ||
            std::find(o.configurations.begin(), o.configurations.end(), c.name) != o.configurations.end())
            configs.push_back(std::move(c));
    // The output rule (a device or FIFO is never replaced, --force or not); the record is written
    // to <output>.partial and renamed onto it.
    io::check_output_target(o.output, o.force, {}, "", ".partial");
    if (o.steps > 0 && !(std::isfinite(o.dt) && o.dt > 0))
        throw input_error("command line", "--dt", exact_number(o.dt), "expected a positive, finite time step");
    // The devices every engine runs on (--devices): checked against the backend before anything is
    // written. A record on D devices is the one-device record bit for bit (engine/docs/multi-gpu.md).
    const backends::registry& registry = backends::backend_registry();
    // An engine of `cfg`, its backend resolved once, on the devices named.
    const auto engine_for = [&](const engine_config& cfg, const initial_state& state) {
        backends::registry::resolved r = registry.resolve(cfg, state.size(), "the record");
        const device_context device = backends::device_context_for(*r.chosen, o.devices, nullptr);
        return backends::make_engine(registry.choose_kernel(std::move(r), state.size(), device), device, state);
    };
    {
        engine_config probe;
        probe.backend = o.backend;
        probe.hi_kernel = o.hi_kernel;
        const std::size_t n = configs.empty() ? 1 : configs.front().state.size();
        // A backend named that this host cannot run (no device, a build without it): refused here,
        // before the progress line begins and before anything is written.
        if (o.backend != "auto" || o.devices.given()) {
            const backends::registry::resolved r = registry.resolve(probe, n, "the record");
            if (o.devices.given()) (void)backends::device_context_for(*r.chosen, o.devices, nullptr);
        }
    }

    const fs::path partial = o.output.string() + ".partial";
    const io::hdf5::error_silencer quiet;
    io::hdf5::property_list fcpl(io::hdf5::check(H5Pcreate(H5P_FILE_CREATE), "file creation list"));
    io::hdf5::file file(io::hdf5::check(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT),
                                        "creating " + partial.string()));
    bool line_open = false;  // the progress line of a configuration, not yet ended
    try {
        {
            auto root = io::require_group(file.get(), "/");
            io::write_string_attributes(root.get(),
                                        {{"schema", record_schema}, {"schema_version", record_schema_version}});
            auto h5md = io::require_group(file.get(), "/h5md");
            const int version[2] = {1, 1};
            io::write_int_attribute(h5md.get(), "version", std::span<const int>(version, 2), false);
            auto creator = io::require_group(file.get(), "/h5md/creator");
            io::write_string_attributes(creator.get(), {{"name", "stokesian port-check"}, {"version", git_describe()}});
            auto build = io::require_group(file.get(), "/provenance/build");
            io::write_string_attributes(build.get(), io::build_provenance());
            auto run = io::require_group(file.get(), "/provenance/run");
            io::write_string_attributes(run.get(), o.invocation);
            std::string mode_list, config_list;
            for (const auto& m : modes) mode_list.append(mode_list.empty() ? "" : ";").append(to_string(m));
            for (const auto& c : configs) config_list += (config_list.empty() ? "" : ";") + c.name;
            // The environment variables that change which machine code the CUDA driver runs.
            auto env = [](const char* name) {
                const char* v = std::getenv(name);
                return v == nullptr ? std::string("(unset)") : std::string(v);
            };
            auto settings = io::require_group(file.get(), "/provenance/settings");
            io::write_string_attributes(settings.get(),
                                        {{"CUDA_FORCE_PTX_JIT", env("CUDA_FORCE_PTX_JIT")},
                                         {"CUDA_DISABLE_PTX_JIT", env("CUDA_DISABLE_PTX_JIT")},
                                         {"CUDA_CACHE_DISABLE", env("CUDA_CACHE_DISABLE")},
                                         {"backend", o.backend},
                                         {"hi_kernel", o.hi_kernel.empty() ? "(default)" : o.hi_kernel},
                                         {"modes", mode_list},
                                         {"configurations", config_list},
                                         {"steps", std::to_string(o.steps)},
                                         {"dt", std::to_string(o.dt)},
                                         {"swap", o.swap_from.empty() ? "" : o.swap_from + " stored as " + o.swap_to}});
            if (o.devices.given()) io::write_string_attributes(settings.get(), {{"devices", to_string(o.devices)}});
        }
        bool device_written = false;
        for (const configuration& c : configs) {
            const std::size_t n = c.state.size();
            log << "port-check: " << c.name << " (N = " << n << ")" << std::flush;
            line_open = true;
            const std::string base = "/configurations/" + c.name;
            auto g = io::require_group(file.get(), base);
            io::write_string_attributes(
                g.get(),
                {{"description", c.description},
                 {"particles", std::to_string(n)},
                 {"box", edges_text(c.system)},
                 {"tensor", std::string(to_string(c.system.tensor))},
                 {"lubrication",
                  c.system.lubrication.enabled ? "on (explicit scheme; the short run: implicit solve)" : "off"},
                 {"steps", std::to_string(o.steps)},
                 {"dt", std::to_string(o.dt)}});
            write_array(g.get(), "position", flatten(c.state.positions), false);
            write_array(g.get(), "external_force", flatten(c.state.external_forces), false);
            write_array(g.get(), "absolute_sum", absolute_sums(c), false);

            // Velocities per mode (and the swap hook of the negative control).
            std::map<std::string, engine_state> states;
            std::map<std::string, std::map<std::string, std::string>> descriptions;
            std::map<std::string, frame> runs;
            for (const precision_mode m : modes) {
                engine_config cfg;
                cfg.system = c.system;
                cfg.precision = m;
                cfg.backend = o.backend;
                cfg.hi_kernel = o.hi_kernel;
                cfg.dt = o.dt;
                cfg.threads = o.threads;
                auto eng = engine_for(cfg, c.state);
                engine_state s;
                eng->save_state(s);
                states[to_string(m)] = std::move(s);
                descriptions[to_string(m)] = eng->description().provenance();
                if (!device_written) {
                    auto e = io::require_group(file.get(), "/provenance/engine");
                    io::write_string_attributes(e.get(), descriptions[to_string(m)]);
                    device_written = true;
                }
                if (o.steps > 0) {
                    // The explicit lubrication scheme is unstable below s_c = 0.282 whatever dt
                    // (engine/docs/lubrication.md): near-contact runs use the implicit solve.
                    std::unique_ptr<engine> implicit_engine;
                    if (c.system.lubrication.enabled) {
                        engine_config run_cfg = cfg;
                        run_cfg.system.lubrication.scheme = lubrication_scheme::implicit_solve;
                        implicit_engine = engine_for(run_cfg, c.state);
                    }
                    engine& runner = implicit_engine ? *implicit_engine : *eng;
                    runner.advance(o.steps);
                    frame f;
                    runner.read_frame(f);
                    runs[to_string(m)] = std::move(f);
                }
                log << "." << std::flush;
            }
            for (const precision_mode m : modes) {
                std::string source = to_string(m);
                if (!o.swap_to.empty() && source == o.swap_to && states.count(o.swap_from)) source = o.swap_from;
                const engine_state& s = states[source];
                auto mg = io::require_group(file.get(), base + "/" + to_string(m));
                std::map<std::string, std::string> attrs = descriptions[source];
                attrs["precision"] = to_string(m);
                const precision_info storage = precision_info_of(m.hi);
                attrs["storage"] = storage.storage_name;
                io::write_string_attributes(mg.get(), attrs);
                write_array(mg.get(), "velocity", flatten(s.velocity_hi), storage.word_bits == 32);
                if (storage.words == 2) write_array(mg.get(), "velocity_lo", flatten(s.velocity_lo), true);
                if (o.steps > 0) {
                    write_array(mg.get(), "run_position", flatten(runs[source].position), false);
                    write_array(mg.get(), "run_velocity", flatten(runs[source].velocity), false);
                }
            }
            log << "\n";
            line_open = false;
        }
        {
            // The evaluators, on the host (the CPU part of a record; port/port_evaluators.cpp).
            const evaluator_record e = two_body_evaluator_record();
            auto g = io::require_group(file.get(), "/evaluators/" + e.name);
            io::write_string_attributes(
                g.get(),
                {{"description", e.description}, {"allowance", std::to_string(e.allowance)}, {"evaluated_on", "host"}});
            write_array(g.get(), "distance", e.distance, false, 1);
            write_array(g.get(), "absolute", e.absolute, false, 4);
            for (const auto& [working, values] : e.values)
                write_array(g.get(), working, values, working == "float32", 4);
        }
        file = io::hdf5::file();
        io::sync_to_disk(partial, false);
        fs::rename(partial, o.output);
        io::sync_to_disk(io::directory_of(o.output), true);
    } catch (...) {
        if (line_open) log << "\n" << std::flush;  // the error's line is a line of its own
        file = io::hdf5::file();
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw;
    }
}

}  // namespace stokesian::port
