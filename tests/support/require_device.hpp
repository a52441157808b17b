#pragma once
// GPU tests skip with a message in the CTest log on a host without a CUDA device (CI has none).
#include <gtest/gtest.h>

#include "stokesian/cuda/cuda_backend.hpp"

#define REQUIRE_DEVICE() \
    if (!::stokesian::cuda::device_available()) GTEST_SKIP() << "no CUDA device: GPU test skipped"
