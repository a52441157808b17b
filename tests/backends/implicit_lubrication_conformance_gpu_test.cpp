// The implicit lubrication conformance bodies (implicit_lubrication_conformance.hpp) on every
// registered device backend, in the modes each behaviour is stated for (label gpu; each skips with a
// message without a device).
#include "implicit_lubrication_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, ImplicitLubricationDenseSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, ImplicitLubricationResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device),
                                                    stokesian::test_support::implicit_conformance::resume_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, ImplicitLubricationSolves,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, ImplicitLubricationHeadOn,
                         testing::ValuesIn(in_modes(registered_backend_kernel_modes(backend_place::device,
                                                                                    kernel_kind::cpu_order, "cpu"),
                                                    stokesian::test_support::implicit_conformance::head_on_modes)),
                         backend_kernel_mode_name);
