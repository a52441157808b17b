// The conformance bodies (step_conformance.hpp) on every registered host backend, in every mode it
// runs (label quick). CpuBitsConformance compares a backend with the CPU: here it runs every host
// backend but the CPU itself (none in the built-in registry).
#include "step_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, StepConformance, testing::ValuesIn(registered_backend_modes(backend_place::host)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, CpuBitsConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::host, "cpu")), backend_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CpuBitsConformance);

INSTANTIATE_TEST_SUITE_P(OnTheHost, CpuOrderKernelConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::cpu_order,
                                                                           "cpu")),
                         backend_kernel_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CpuOrderKernelConformance);

INSTANTIATE_TEST_SUITE_P(OnTheHost, LubricatedCpuBoundConformance,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host, "cpu"),
                                                    stokesian::test_support::step_conformance::lubricated_fcc_modes)),
                         backend_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LubricatedCpuBoundConformance);
