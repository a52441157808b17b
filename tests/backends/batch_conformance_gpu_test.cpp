// The batch conformance bodies (batch_conformance.hpp) on every registered device backend that runs
// batches, in the modes each behaviour is stated for (label gpu; each skips with a message without a device).
#include "batch_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnADevice, BatchConformance,
                         testing::ValuesIn(batching(registered_backend_modes(backend_place::device))),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, LubricatedBatchConformance,
                         testing::ValuesIn(in_modes(batching(registered_backend_modes(backend_place::device)),
                                                    stokesian::paper_precision_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, BatchReproducibility,
                         testing::ValuesIn(in_modes(batching(registered_backend_modes(backend_place::device)),
                                                    stokesian::test_support::batch_conformance::reproducibility_modes)),
                         backend_mode_name);
