// The two-body lubrication conformance bodies (two_body_lubrication_conformance.hpp) on every
// registered host backend, in every mode it runs or the modes a behaviour is stated for (label quick).
// The comparison with the CPU runs every host backend but the CPU itself (none in the built-in
// registry).
#include "two_body_lubrication_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, TwoBodyLubricationConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::host)), backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, TwoBodyLubricationDenseSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, TwoBodyLubricationResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::test_support::two_body_conformance::resume_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, TwoBodyLubricationCpuOrderKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::cpu_order,
                                                                           "cpu")),
                         backend_kernel_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TwoBodyLubricationCpuOrderKernels);
