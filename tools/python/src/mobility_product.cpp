// v = mu F for NumPy arrays, computed by an engine exactly as a run computes its first velocities:
// an engine of the requested backend, precision mode and HI kernel is built on the positions with
// the forces as its external forces (no pair force, no lubrication), and its velocities at step 0
// are mu F (engine/README.md, "The step": at construction v = mu F). So the result is bit for bit a
// run's first velocities on the same positions and forces, in every precision mode and on every
// backend. stokesian.Mobility (tools/python/stokesian/mobility.py) is the user-facing class.
#include <nanobind/stl/array.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "arrays.hpp"
#include "bindings.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/engine.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/physics/pair_tensor.hpp"
#include "stokesian/physics/tensor_registry.hpp"

namespace nb = nanobind;

namespace stokesian::python {

namespace {

hydrodynamic_tensor tensor_named(const std::string& name) {
    if (const auto t = parse_tensor(name)) return *t;
    std::string names;
    for (const std::string& n : tensor_names()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("tensor '" + name + "': expected one of " + names);
}

struct mobility_result {
    std::vector<vec3<double>> velocity;
    std::map<std::string, std::string> engine;
};

mobility_result mobility_product(const engine_config& config, const initial_state& state) {
    const std::unique_ptr<engine> e = make_engine(config, state);
    frame f;
    e->read_frame(f);
    return {std::move(f.velocity), e->description().provenance()};
}

}  // namespace

void bind_mobility(nb::module_& m) {
    m.def(
        "mobility_product",
        [](const vectors_in& positions, const vectors_in& forces, double radius, double self_mobility,
           const std::string& tensor, bool periodic, std::array<double, 3> edges, double ewald_tolerance,
           std::optional<double> ewald_xi, const std::string& precision, const std::string& backend,
           const std::string& hi_kernel, unsigned threads) {
            if (positions.shape(0) != forces.shape(0))
                throw std::invalid_argument("forces: " + std::to_string(forces.shape(0)) + " vectors for " +
                                            std::to_string(positions.shape(0)) + " positions");
            engine_config config;
            config.system.radius = radius;
            config.system.self_mobility = self_mobility;
            config.system.tensor = tensor_named(tensor);
            config.system.box = {periodic, {edges[0], edges[1], edges[2]}};
            config.system.ewald = {ewald_tolerance, ewald_xi};
            config.precision = parse_precision_mode(precision);
            config.backend = backend;
            config.hi_kernel = hi_kernel;
            config.threads = threads;
            const initial_state state{to_vectors(positions), to_vectors(forces)};
            mobility_result r;
            {
                nb::gil_scoped_release unlocked;
                r = mobility_product(config, state);
            }
            return nb::make_tuple(vectors_out(r.velocity), r.engine);
        },
        nb::arg("positions"), nb::arg("forces"), nb::arg("radius"), nb::arg("self_mobility"), nb::arg("tensor"),
        nb::arg("periodic"), nb::arg("edges"), nb::arg("ewald_tolerance"), nb::arg("ewald_xi").none(),
        nb::arg("precision"), nb::arg("backend"), nb::arg("hi_kernel"), nb::arg("threads"),
        "v = mu F by an engine's first velocities: (velocities (N, 3), the engine's description)");
    m.def("stokes_self_mobility", &stokes_self_mobility, nb::arg("viscosity"), nb::arg("radius"),
          "mu0 = 1 / (6 pi eta a), as the scenario key physics.viscosity computes it");
    m.def("tensor_names", &tensor_names);
    m.def(
        "backends",
        [] {
            nb::dict out;
            for (const backends::backend& b : backends::backend_registry().all()) {
                const backends::availability here = backends::check_availability(b);
                nb::dict entry;
                entry["built"] = static_cast<bool>(b.make_engine);
                entry["available"] = here.available;
                entry["refusal"] = here.refusal;
                out[b.name.c_str()] = entry;
            }
            return out;
        },
        "the registered backends: {name: {built, available (here, now), refusal (why not)}}");
    m.attr("max_cpu_threads") = max_cpu_threads;
}

}  // namespace stokesian::python
