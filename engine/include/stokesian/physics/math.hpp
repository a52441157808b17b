#pragma once
// Elementary functions for float and double on host and device, chosen by overload so that the
// physics templates never mix precisions by accident.
#include <cmath>

#include "stokesian/config.hpp"

namespace stokesian::math {

STOKESIAN_HD_INLINE float sqrt(float x) { return ::sqrtf(x); }
STOKESIAN_HD_INLINE double sqrt(double x) { return ::sqrt(x); }
STOKESIAN_HD_INLINE float log(float x) { return ::logf(x); }
STOKESIAN_HD_INLINE double log(double x) { return ::log(x); }
STOKESIAN_HD_INLINE float exp(float x) { return ::expf(x); }
STOKESIAN_HD_INLINE double exp(double x) { return ::exp(x); }

}  // namespace stokesian::math
