// The rpy-ewald conformance bodies (rpy_ewald_conformance.hpp) on every registered host backend, with
// each of its loops, in every mode it runs (label quick). The suites compared with the CPU run every
// host backend but the CPU itself (none in the built-in registry).
#include "rpy_ewald_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, RpyEwaldConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::every)),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, RpyEwaldCpuOrderKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::cpu_order,
                                                                           "cpu")),
                         backend_kernel_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RpyEwaldCpuOrderKernels);
INSTANTIATE_TEST_SUITE_P(OnTheHost, RpyEwaldFastMathKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::fast_math,
                                                                           "cpu")),
                         backend_kernel_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RpyEwaldFastMathKernels);
