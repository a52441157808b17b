#include "event_times.cuh"
#include "stokesian/cuda/hi_benchmark.hpp"

#include <algorithm>

#include "device_buffer.hpp"
#include "hi_launch.cuh"

namespace stokesian::cuda {

namespace {

template <precision Hi>
hi_timing time_with(hi_kernel kernel, const system_parameters& system, const std::vector<vec3<double>>& positions,
                    const std::vector<vec3<double>>& forces, int repeats, unsigned block) {
    using W = hi_working_t<Hi>;
    using A = hi_accumulator_t<Hi>;
    const auto n = static_cast<unsigned>(positions.size());
    std::vector<packed4<W>> r(n), f(n);
    for (unsigned i = 0; i < n; ++i) {
        r[i] = pack(value_cast<W>(positions[i]));
        f[i] = pack(value_cast<W>(forces[i]));
    }
    device_buffer<packed4<W>> r_d, f_d;
    r_d.upload(r);
    f_d.upload(f);
    device_buffer<vec3<A>> v_d(n, "velocities");
    const interaction_parameters<W> p = make_interaction_parameters<W>(system);
    for (int w = 0; w < 3; ++w)
        launch_hi_kernel<Hi>(kernel, block, r_d.data(), f_d.data(), v_d.data(), target_range{0, n}, n, p);
    check(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> ms = bench::event_times_ms(repeats, [&] {
        launch_hi_kernel<Hi>(kernel, block, r_d.data(), f_d.data(), v_d.data(), target_range{0, n}, n, p);
    });
    std::sort(ms.begin(), ms.end());
    return {to_string(kernel), precision::f32, n, block, ms[ms.size() / 2], ms.front(), ms.back(), repeats};
}

}  // namespace

hi_timing time_hi_kernel(const std::string& kernel, precision hi, const system_parameters& system,
                         const std::vector<vec3<double>>& positions, const std::vector<vec3<double>>& forces,
                         int repeats, unsigned block) {
    const hi_kernel k = parse_hi_kernel(kernel);
    hi_timing t = visit_precision(
        hi, [&]<class P>(P) { return time_with<P::value>(k, system, positions, forces, repeats, block); });
    t.hi = hi;
    return t;
}

}  // namespace stokesian::cuda
