// The implicit lubrication conformance bodies (implicit_lubrication_conformance.hpp) on every
// registered host backend, in the modes each behaviour is stated for (label quick).
#include "implicit_lubrication_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationDenseSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, ImplicitLubricationResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::host),
                                                    stokesian::test_support::implicit_conformance::resume_modes)),
                         backend_mode_name);
