// The engine-checkpoint conformance bodies (engine_resume_conformance.hpp) on every registered host
// backend, each of its kernels, in every mode it runs (label quick). CpuCheckpointConformance
// resumes a CPU checkpoint on another backend: here every host backend but the CPU itself (none in
// the built-in registry).
#include "engine_resume_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, EngineResumeConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::host, kernel_kind::every)),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, CpuCheckpointConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::host, "cpu")), backend_mode_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CpuCheckpointConformance);
