// The rpy-ewald conformance bodies (rpy_ewald_conformance.hpp) on every registered device backend
// (label gpu; each skips with a message without a device): its kernels that sum in the CPU's order
// against the dense product and the CPU's bits, its fast-math kernels against the CPU, in every mode
// it runs. And the fused kernel, which runs pair-form tensors only, refuses the block tensor.
#include <stdexcept>

#include "rpy_ewald_conformance.hpp"
#include "stokesian/core/errors.hpp"
#include "support/require_device.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, RpyEwaldConformance,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device,
                                                                           kernel_kind::cpu_order)),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, RpyEwaldCpuOrderKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device,
                                                                           kernel_kind::cpu_order, "cpu")),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, RpyEwaldFastMathKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device,
                                                                           kernel_kind::fast_math, "cpu")),
                         backend_kernel_mode_name);

TEST(RpyEwaldGpu, FusedKernelRefusesTheBlockTensorWithOneLine) {
    REQUIRE_DEVICE();
    using namespace stokesian;
    using namespace stokesian::test_support::rpy_ewald_conformance;
    const initial_state s = periodic_spheres();
    try {
        ewald_frame_after(ewald_config({"cuda", "fused", {precision::f64, precision::f64}}), s, 0);
        FAIL() << "the fused kernel accepted rpy-ewald";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("pair-form tensors only"), std::string::npos) << e.what();
    }
}
