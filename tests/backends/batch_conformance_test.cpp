// The batch conformance bodies (batch_conformance.hpp) on every registered host backend that runs
// batches, in the modes each behaviour is stated for (label quick).
#include "batch_conformance.hpp"

INSTANTIATE_TEST_SUITE_P(OnTheHost, BatchConformance,
                         testing::ValuesIn(batching(registered_backend_modes(backend_place::host))), backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, LubricatedBatchConformance,
                         testing::ValuesIn(in_modes(batching(registered_backend_modes(backend_place::host)),
                                                    stokesian::paper_precision_modes)),
                         backend_mode_name);
INSTANTIATE_TEST_SUITE_P(OnTheHost, BatchReproducibility,
                         testing::ValuesIn(in_modes(batching(registered_backend_modes(backend_place::host)),
                                                    stokesian::test_support::batch_conformance::reproducibility_modes)),
                         backend_mode_name);
