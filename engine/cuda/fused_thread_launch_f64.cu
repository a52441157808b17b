// The one-thread fused kernel for hi=f64 and the three integration precisions (fused_thread_launch.cuh).
#include "fused_thread_launch.cuh"

namespace stokesian::cuda {

template struct fused_thread_launcher<precision_policy<precision::f64, precision::f32>>;
template struct fused_thread_launcher<precision_policy<precision::f64, precision::ds>>;
template struct fused_thread_launcher<precision_policy<precision::f64, precision::f64>>;

}  // namespace stokesian::cuda
