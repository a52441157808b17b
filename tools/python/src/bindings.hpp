#pragma once
// The parts of the module stokesian._stokesian (module.cpp), one file each.
#include <nanobind/nanobind.h>

namespace stokesian::python {

void bind_mobility(nanobind::module_& m);  // mobility_product.cpp: v = mu F through an engine
void bind_scenario(nanobind::module_& m);  // scenario.cpp: load, override, run
void bind_h5md(nanobind::module_& m);      // h5md.cpp: the reader of result files

}  // namespace stokesian::python
