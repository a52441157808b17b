// The engine-checkpoint conformance bodies (engine_resume_conformance.hpp) on every registered
// device backend, each of its kernels, in every mode it runs (label gpu; each skips with a message
// without a device).
#include "engine_resume_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, EngineResumeConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device, kernel_kind::every)),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, CpuCheckpointConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::device, "cpu")), backend_mode_name);
