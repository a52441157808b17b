// One CUDA engine on several devices (label gpu; skipped with a message where fewer than two
// devices are, or the build has no NCCL): every run on two devices -- and on all of them where
// there are more -- ends bit for bit where the same run on one device ends, in every precision
// mode and with every exact HI kernel (the fast kernels: bit for bit one device running the same
// fast kernel), with every integrator, with explicit and implicit lubrication, for slices that
// differ in size and slices that are empty; and a checkpoint written on one device count resumes
// bit for bit on another. Each mode (and kernel) a test of its own. Why bit for bit:
// engine/docs/multi-gpu.md. No tolerance anywhere.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/support/bench_inputs.hpp"
#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/precision_modes.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/backend_modes.hpp"
#include "support/build_paths.hpp"
#include "support/multi_device.hpp"
#include "support/random_cluster.hpp"

using namespace stokesian;
using namespace stokesian::test_support;

namespace {

scenario load(const std::string& name) {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/" + name + ".toml");
}

// Every kernel of every device backend that sums in the CPU's order or uses fast math (the
// registry's classes; not the fused engine, which runs on one device), in every mode.
std::vector<backend_kernel_mode> sliced_kernel_modes() {
    std::vector<backend_kernel_mode> list =
        registered_backend_kernel_modes(backend_place::device, kernel_kind::cpu_order);
    const std::vector<backend_kernel_mode> fast =
        registered_backend_kernel_modes(backend_place::device, kernel_kind::fast_math);
    list.insert(list.end(), fast.begin(), fast.end());
    return list;
}

// The modes of the integrator test.
const precision_mode integrator_modes[] = {
    {precision::f64, precision::f64}, {precision::ds, precision::f32}, {precision::f32, precision::ds}};

// The run on one device against the same run on each multi-device set, on c.backend.
void expect_devices_agree(const engine_config& c, const initial_state& s, std::uint64_t steps,
                          const std::string& what) {
    const run_end one = run_on(c, s, steps, {0});
    for (const std::vector<int>& set : multi_device_sets())
        expect_same_end(one, run_on(c, s, steps, set), what + " on devices " + device_list_text(set));
}

}  // namespace

// A kernel and mode, each pair a test of its own; every mode, each a test of its own; the modes of
// the integrator test.
class MultiDeviceGpuKernels : public testing::TestWithParam<backend_kernel_mode> {};
class MultiDeviceGpuEveryMode : public testing::TestWithParam<precision_mode> {};
class MultiDeviceGpuIntegrators : public testing::TestWithParam<precision_mode> {};

INSTANTIATE_TEST_SUITE_P(OnADevice, MultiDeviceGpuKernels, testing::ValuesIn(sliced_kernel_modes()),
                         backend_kernel_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, MultiDeviceGpuEveryMode, testing::ValuesIn(precision_modes), precision_mode_name);
INSTANTIATE_TEST_SUITE_P(OnADevice, MultiDeviceGpuIntegrators, testing::ValuesIn(integrator_modes),
                         precision_mode_name);

TEST_P(MultiDeviceGpuKernels, TetrahedronIsBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const scenario t = load("tetrahedron");
    const engine_config c = on_backend(make_engine_config(t), GetParam());
    expect_devices_agree(c, t.particles, 300, "tetrahedron " + to_string(c.precision) + " " + c.hi_kernel);
}

TEST_P(MultiDeviceGpuIntegrators, EveryIntegratorIsBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const scenario t = load("tetrahedron");
    for (const integrator_kind integrator : {integrator_kind::heun, integrator_kind::rk4, integrator_kind::ab2}) {
        engine_config c = make_engine_config(t);
        c.precision = GetParam();
        c.integrator = integrator;
        c.hi_kernel = "ordered-split";
        c.backend = "cuda";
        expect_devices_agree(c, t.particles, 300,
                             "tetrahedron " + std::string(to_string(integrator)) + " " + to_string(c.precision));
    }
}

// The nightly's fcc run (scenarios/fcc_sedimentation.toml: N = 4000, periodic, lubrication off as
// there), its 100 steps.
TEST_P(MultiDeviceGpuKernels, FccIsBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const scenario f = load("fcc_sedimentation");
    const engine_config c = on_backend(make_engine_config(f), GetParam());
    expect_devices_agree(c, f.particles, 100, "fcc N = 4000 " + to_string(c.precision) + " " + c.hi_kernel);
}

// The benchmark's fcc lattice with the paper's explicit lubrication (neighbour lists, short-range
// forces from the previous velocities, on every device): the scheme amplifies any difference about
// 5-fold per step here, so ten steps would show one.
TEST_P(MultiDeviceGpuEveryMode, FccWithExplicitLubricationIsBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const bench::benchmark_system s = bench::fcc_system(10, 0.1, true, true);
    for (const char* kernel : {"tiling", "ordered-split"}) {
        engine_config c;
        c.system = s.system;
        c.precision = GetParam();
        c.hi_kernel = kernel;
        c.dt = 0.001;
        c.backend = "cuda";
        expect_devices_agree(c, s.state, 10, "fcc lubricated " + to_string(c.precision) + " " + kernel);
    }
}

// The implicit scheme: every Krylov iteration's mobility products are sliced and gathered, its dot
// products read from the first device. The random aggregate of the solver tests (open box, many
// lubricated pairs); a run the solver stops must stop at the same step with the same message.
TEST_P(MultiDeviceGpuEveryMode, ImplicitLubricationIsBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const initial_state s = testing_support::random_aggregate(30, 1, 0.01, 0.5, {0.0, 0.0, -1.0});
    engine_config c;
    c.system.box.periodic = false;
    c.system.lubrication.enabled = true;
    c.system.lubrication.scheme = lubrication_scheme::implicit_solve;
    c.precision = GetParam();
    c.dt = 0.01;
    c.hi_kernel = "tiling";
    c.backend = "cuda";
    expect_devices_agree(c, s, 100, "implicit lubrication " + to_string(c.precision));
}

// Slices of unequal size (N = 3 on two devices: 2 + 1, N = 5 on four) and empty ones (N = 1 on
// two devices; N = 2 on three or more).
TEST(MultiDeviceGpu, UnequalAndEmptySlicesAreBitwiseOneDevice) {
    REQUIRE_TWO_DEVICES();
    const scenario t = load("tetrahedron");
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3)}) {
        initial_state s;
        s.positions.assign(t.particles.positions.begin(), t.particles.positions.begin() + std::ptrdiff_t(n));
        s.external_forces.assign(t.particles.external_forces.begin(),
                                 t.particles.external_forces.begin() + std::ptrdiff_t(n));
        engine_config c = make_engine_config(t);
        c.precision = {precision::ds, precision::ds};
        c.backend = "cuda";
        expect_devices_agree(c, s, 200, "first " + std::to_string(n) + " spheres of the tetrahedron");
    }
    const bench::benchmark_system five = bench::uniform_system(5, 0.01, 3, true, false);
    engine_config c;
    c.system = five.system;
    c.backend = "cuda";
    expect_devices_agree(c, five.state, 200, "five random spheres");
}

// A checkpoint (engine_state) does not know the device count: 1 -> D and D -> 1 devices halfway
// through end bit for bit where the uninterrupted one-device run ends (Adams-Bashforth: the
// history travels too).
TEST_P(MultiDeviceGpuEveryMode, ACheckpointResumesBitwiseOnAnotherDeviceCount) {
    REQUIRE_TWO_DEVICES();
    const scenario t = load("tetrahedron");
    const bench::benchmark_system f = bench::fcc_system(6, 0.1, true, false);
    const precision_mode mode = GetParam();
    engine_config tc = make_engine_config(t);
    tc.backend = "cuda";
    tc.precision = mode;
    tc.integrator = integrator_kind::ab2;
    engine_config fc;
    fc.system = f.system;
    fc.backend = "cuda";
    fc.precision = mode;
    fc.dt = 0.001;
    for (const auto& [c, s, half, what] :
         {std::tuple{tc, t.particles, std::uint64_t(400), std::string("tetrahedron ab2 ")},
          std::tuple{fc, f.state, std::uint64_t(20), std::string("fcc N = 864 ")}}) {
        const run_end straight = run_on(c, s, 2 * half, {0});
        for (const std::vector<int>& set : multi_device_sets())
            for (const bool from_one : {true, false}) {
                device_context first, second;
                first.ordinals = from_one ? std::vector<int>{0} : set;
                second.ordinals = from_one ? set : std::vector<int>{0};
                engine_state middle;
                {
                    auto e = backends::make_engine(c, first, s);
                    e->advance(half);
                    e->save_state(middle);
                }
                auto e = backends::make_engine(c, second, s);
                e->restore_state(middle);
                e->advance(half);
                run_end resumed;
                e->read_frame(resumed.f);
                e->save_state(resumed.state);
                resumed.step = e->step();
                expect_same_end(
                    straight, resumed,
                    what + to_string(mode) + (from_one ? " from 1 to " : " to 1 from ") + device_list_text(set));
            }
    }
}
