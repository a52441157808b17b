// The conformance bodies (step_conformance.hpp) on every registered device backend (cuda, cuda-fused),
// in every mode it runs (label gpu; each skips with a message without a device).
#include "step_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, StepConformance, testing::ValuesIn(registered_backend_modes(backend_place::device)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, CpuBitsConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::device, "cpu")), backend_mode_name);

INSTANTIATE_TEST_SUITE_P(OnADevice, CpuOrderKernelConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device,
                                                                           kernel_kind::cpu_order, "cpu")),
                         backend_kernel_mode_name);

INSTANTIATE_TEST_SUITE_P(OnADevice, LubricatedCpuBoundConformance,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device, "cpu"),
                                                    stokesian::test_support::step_conformance::lubricated_fcc_modes)),
                         backend_mode_name);
