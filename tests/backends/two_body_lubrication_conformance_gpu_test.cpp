// The two-body lubrication conformance bodies (two_body_lubrication_conformance.hpp) on every
// registered device backend, in every mode it runs or the modes a behaviour is stated for, and with
// every kernel that sums in the CPU's order against the CPU (label gpu; each skips with a message
// without a device). What only devices do: several devices run it bit for bit as one, and the fused
// kernel refuses it.
#include "stokesian/core/errors.hpp"
#include "support/multi_device.hpp"
#include "support/require_device.hpp"
#include "two_body_lubrication_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, TwoBodyLubricationConformance,
                         testing::ValuesIn(registered_backend_modes(backend_place::device)), backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, TwoBodyLubricationDenseSolve,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device),
                                                    stokesian::testing_support::implicit_solver_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, TwoBodyLubricationResume,
                         testing::ValuesIn(in_modes(registered_backend_modes(backend_place::device),
                                                    stokesian::test_support::two_body_conformance::resume_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, TwoBodyLubricationCpuOrderKernels,
                         testing::ValuesIn(registered_backend_kernel_modes(backend_place::device,
                                                                           kernel_kind::cpu_order, "cpu")),
                         backend_kernel_mode_name);

// The multi-device engine runs the same pair kernels on every replica (cuda_engine_lubrication.cuh)
// and slices only the mobility products: 30 steps of the cluster, bit for bit one device's (state and
// frame), in every mode the backend runs.
class TwoBodyLubricationMultiDevice : public testing::TestWithParam<stokesian::test_support::backend_mode> {};

TEST_P(TwoBodyLubricationMultiDevice, RunsAreBitwiseOneDevice) {
    using namespace stokesian;
    const initial_state s = testing_support::lubricated_cluster();
    engine_config c = test_support::on_backend(test_support::two_body_conformance::two_body_model(), GetParam());
    c.hi_kernel = "tiling";
    if (const std::string why = test_support::skip_reason(c, s.size()); !why.empty()) GTEST_SKIP() << why;
    REQUIRE_TWO_DEVICES();
    const test_support::run_end one = test_support::run_on(c, s, 30, {0});
    for (const std::vector<int>& set : test_support::multi_device_sets())
        test_support::expect_same_end(one, test_support::run_on(c, s, 30, set),
                                      "two-body on devices " + test_support::device_list_text(set));
}

INSTANTIATE_TEST_SUITE_P(OnADevice, TwoBodyLubricationMultiDevice,
                         testing::ValuesIn(registered_backend_modes(backend_place::device)), backend_mode_name);

TEST(TwoBodyLubricationGpu, FusedPathRefusesTheModel) {
    // The model needs the implicit scheme, which the fused engine does not run.
    REQUIRE_DEVICE();
    using namespace stokesian;
    using namespace stokesian::test_support::two_body_conformance;
    engine_config c = two_body_model();
    c.backend = "cuda";
    c.hi_kernel = "fused";
    EXPECT_THROW(make_engine(c, oblique_pair_at(0.1, {1, 0, 0}, {-1, 0, 0})), input_error);  // run.hi_kernel, exit 2
}
