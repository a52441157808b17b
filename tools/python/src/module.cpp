// stokesian._stokesian: the engine's entry points for the Python package (tools/python/stokesian),
// which wraps them in the user-facing API (docs/how-to/python.md).
#include <stdexcept>

#include "bindings.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"

NB_MODULE(_stokesian, m) {
    // Bad input (a scenario key, an option value, a missing file): ValueError, with the one line the
    // CLI prints. std::invalid_argument is ValueError already (nanobind).
    nanobind::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const stokesian::input_error& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
    m.attr("version") = stokesian::git_describe();
    stokesian::python::bind_mobility(m);
    stokesian::python::bind_scenario(m);
    stokesian::python::bind_h5md(m);
}
