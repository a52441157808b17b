// The segmented-verification bodies (segmented_verification.hpp) on every device backend whose
// segments run as one batch (CUDA's fused batch); label gpu, each skips with a message without a
// device.
#include "segmented_verification.hpp"

using namespace segmented_verification;

INSTANTIATE_TEST_SUITE_P(OnADevice, SegmentedVerification, testing::ValuesIn(batching_backends(backend_place::device)),
                         backend_mode_name);
