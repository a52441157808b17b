// The engine's reader of result files (io::h5md_file) for Python: stokesian.Result
// (tools/python/stokesian/result.py) reads positions, velocities, observables and analysis with it,
// so the package needs no HDF5 module of its own.
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "stokesian/io/h5md.hpp"

namespace nb = nanobind;

namespace stokesian::python {

void bind_h5md(nb::module_& m) {
    nb::class_<io::h5md_file>(m, "H5mdFile", "read access to an H5MD result file")
        .def(nb::init<const std::string&>(), nb::arg("path"))
        .def("exists", &io::h5md_file::exists, nb::arg("path"))
        .def("is_group", &io::h5md_file::is_group, nb::arg("path"))
        .def("list", &io::h5md_file::list, nb::arg("group"))
        .def("shape", &io::h5md_file::shape, nb::arg("dataset"))
        .def(
            "read",
            [](const io::h5md_file& f, const std::string& dataset) {
                return owned_array(f.read_doubles(dataset), f.shape(dataset));
            },
            nb::arg("dataset"), "a dataset as doubles, in its shape")
        .def(
            "read_integers",
            [](const io::h5md_file& f, const std::string& dataset) {
                return owned_array(f.read_integers(dataset), f.shape(dataset));
            },
            nb::arg("dataset"), "an integer dataset as int64, in its shape")
        .def("attributes", &io::h5md_file::string_attributes, nb::arg("path"), "string attributes of an object")
        .def("parameter_attributes", &io::h5md_file::parameter_attributes, nb::arg("path"),
             "attributes of a /parameters group, numbers as their exact text");
}

}  // namespace stokesian::python
