// The implicit lubrication conformance bodies (implicit_lubrication_conformance.hpp) on every
// registered host backend, in the modes each behaviour is stated for (label quick). ImplicitLubricationHeadOn compares a backend with the CPU:
// here it runs every host backend but the CPU itself (none in the built-in registry).
#include "implicit_lubrication_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationDenseSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::test_support::implicit_conformance::resume_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationSolves,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationHeadOn,
                         testing::ValuesIn(in_modes(registered_backend_kernel_modes(backend_place::host,
                                                                                    kernel_kind::cpu_order, "cpu"),
                                                    stokesian::test_support::implicit_conformance::head_on_modes)),
                         backend_kernel_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ImplicitLubricationHeadOn);
