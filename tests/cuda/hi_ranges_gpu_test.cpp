// The CUDA HI kernels over target ranges (cuda/hi_launch.cuh), label gpu: for every kernel, every
// precision of the sum (each of the list has its launches) and every registered tensor, ranges that cover [0, N) give the
// whole-range velocities bit for bit and leave the others alone. And the test-only tensor
// (support/test_tensor.hpp) runs through every kernel as its closed form.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/hi_launch.cuh"
#include "stokesian/core/system.hpp"
#include "stokesian/physics/accumulate.hpp"
#include "support/require_device.hpp"
#include "test_tensor_kernels.hpp"

using namespace stokesian;
using namespace stokesian::cuda;

namespace {

// Bit for bit (so -0 differs from +0 and a NaN equals only itself), component by component.
bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool same_bits(float_float a, float_float b) { return same_bits(a.hi, b.hi) && same_bits(a.lo, b.lo); }
template <class A>
bool same_bits(const vec3<A>& a, const vec3<A>& b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

// N = 1000 in a periodic box at n = 0.05 a^-3, a tied pair (exactly L/2 apart along x) among them.
template <precision Hi>
void check_ranges(hi_kernel kernel, system_parameters system) {
    using W = hi_working_t<Hi>;
    using A = hi_accumulator_t<Hi>;
    const unsigned n = 1000;
    const double edge = std::cbrt(n / 0.05);
    system.box = {true, {edge, edge, edge}};
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-edge / 2, edge / 2), g(-1, 1);
    std::vector<packed4<W>> r, f;
    r.push_back(pack(value_cast<W>(vec3<double>{-edge / 4, 1.0, 2.0})));
    r.push_back(pack(value_cast<W>(vec3<double>{edge / 4, 1.0, 2.0})));
    while (r.size() < n) r.push_back(pack(value_cast<W>(vec3<double>{u(rng), u(rng), u(rng)})));
    while (f.size() < n) f.push_back(pack(value_cast<W>(vec3<double>{0.3 * g(rng), 0.3 * g(rng), -1.0})));
    device_buffer<packed4<W>> r_d, f_d;
    r_d.upload(r);
    f_d.upload(f);
    const interaction_parameters<W> p = make_interaction_parameters<W>(system);
    const std::string what = std::string(to_string(kernel)) + " " + std::string(to_string(system.tensor)) +
                             " hi=" + std::string(to_string(Hi));

    auto run = [&](const std::vector<target_range>& ranges, vec3<A> fill) {
        device_buffer<vec3<A>> v_d;
        v_d.upload(std::vector<vec3<A>>(n, fill));
        for (const target_range t : ranges)
            launch_hi_kernel<Hi>(kernel, 128, r_d.data(), f_d.data(), v_d.data(), t, n, p);
        check(cudaDeviceSynchronize(), "HI ranges");
        std::vector<vec3<A>> v;
        v_d.download(v);
        return v;
    };
    const vec3<A> zero = zero_vector<A>(), untouched = value_cast<A>(vec3<double>{7.0, 7.0, 7.0});
    const std::vector<vec3<A>> whole = run({{0, n}}, zero);
    for (unsigned i = 0; i < n; ++i) ASSERT_NE(value_cast<double>(whole[i].z), 0.0) << what << ", particle " << i;
    for (const std::vector<target_range>& cut :
         std::vector<std::vector<target_range>>{{{0, 333}, {333, 334}, {334, n}}, {{0, 500}, {500, 500}, {500, n}}}) {
        const std::vector<vec3<A>> pieces = run(cut, zero);
        for (unsigned i = 0; i < n; ++i) ASSERT_TRUE(same_bits(pieces[i], whole[i])) << what << ", particle " << i;
    }
    const std::vector<vec3<A>> one = run({{100, 163}}, untouched);
    for (unsigned i = 0; i < n; ++i)
        ASSERT_TRUE(same_bits(one[i], i >= 100 && i < 163 ? whole[i] : untouched)) << what << ", particle " << i;
}

}  // namespace

TEST(HiRangesGpu, EveryKernelOverRangesGivesTheWholeRangeVelocitiesBitwise) {
    REQUIRE_DEVICE();
    for (const std::string& name : step_kernel_names()) {
        const hi_kernel k = parse_hi_kernel(name);
        for_each_tensor([&](hydrodynamic_tensor key, auto) {
            system_parameters system;
            system.tensor = key;
            for (const precision hi : precisions)
                visit_precision(hi, [&]<class P>(P) { check_ranges<P::value>(k, system); });
        });
    }
}

TEST(HiRangesGpu, ATestOnlyTensorRunsThroughEveryKernelAsItsClosedForm) {
    REQUIRE_DEVICE();
    const test_support::integer_system s = test_support::make_integer_system(300);
    const std::vector<vec3<double>> expected = test_support::squared_distance_velocities(s);
    for (const std::string& name : step_kernel_names())
        for (precision hi : {precision::f32, precision::ds, precision::f64}) {
            const std::vector<vec3<double>> v = test_support::squared_distance_velocities_on_device(name, hi, s);
            for (std::size_t i = 0; i < s.positions.size(); ++i)
                ASSERT_EQ(v[i], expected[i]) << name << " hi=" << to_string(hi) << ", particle " << i;
        }
}
