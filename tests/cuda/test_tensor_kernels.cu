// The CUDA HI kernels with a tensor of the tests' own: launch_exact_hi_kernel / launch_fast_hi_kernel
// take any tensor evaluator as a template parameter (nothing registered in the engine).
#include "cuda/device_buffer.hpp"
#include "cuda/hi_launch_common.cuh"
#include "stokesian/core/system.hpp"
#include "test_tensor_kernels.hpp"

namespace stokesian::test_support {

namespace {

template <class W, class A>
std::vector<vec3<double>> velocities_with(cuda::hi_kernel kernel, const integer_system& s) {
    const auto n = static_cast<unsigned>(s.positions.size());
    std::vector<cuda::packed4<W>> r(n), f(n);
    for (unsigned i = 0; i < n; ++i) {
        r[i] = cuda::pack(value_cast<W>(s.positions[i]));
        f[i] = cuda::pack(value_cast<W>(s.forces[i]));
    }
    cuda::device_buffer<cuda::packed4<W>> r_d, f_d;
    r_d.upload(r);
    f_d.upload(f);
    cuda::device_buffer<vec3<A>> v_d(n, "velocities");
    const interaction_parameters<W> p = make_interaction_parameters<W>(system_parameters{});
    cuda::hi_launch<W, A> l;
    cuda::make_hi_launch(l, 128, r_d.data(), f_d.data(), v_d.data(), {0, n}, n, cudaStream_t{});
    if (!cuda::launch_exact_hi_kernel<squared_distance_tensor>(kernel, l, p) &&
        !cuda::launch_fast_hi_kernel<squared_distance_tensor>(kernel, l, p))
        throw std::invalid_argument(std::string("not an all-pairs kernel: ") + cuda::to_string(kernel));
    cuda::check_launch(cuda::to_string(kernel));
    cuda::check(cudaDeviceSynchronize(), "test tensor kernel");
    std::vector<vec3<A>> v;
    v_d.download(v);
    std::vector<vec3<double>> out;
    for (const auto& x : v) out.push_back(value_cast<double>(x));
    return out;
}

}  // namespace

std::vector<vec3<double>> squared_distance_velocities_on_device(const std::string& kernel, precision hi,
                                                                const integer_system& s) {
    const cuda::hi_kernel k = cuda::parse_hi_kernel(kernel);
    switch (hi) {
        case precision::f32: return velocities_with<float, float>(k, s);
        case precision::ds: return velocities_with<float, float_float>(k, s);
        default: return velocities_with<double, double>(k, s);
    }
}

}  // namespace stokesian::test_support
