// The backend registry (stokesian/backends/registry.hpp): what it lists, how "auto" is resolved from
// capabilities, the errors for unknown or absent backends, and a backend added from a test without
// an edit to any engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/regression/suite_manifest.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#if defined(STOKESIAN_HAVE_CUDA)
#include "stokesian/cuda/cuda_backend.hpp"
#endif
#include "support/build_paths.hpp"
#include "support/still_engine.hpp"

using namespace stokesian;
using namespace stokesian::backends;

namespace {

scenario tetrahedron() {
    return load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
}

backend frozen_backend(const std::string& name, int preference) {
    backend b;
    b.name = name;
    b.title = "the " + name + " backend";
    b.auto_preference = preference;
    b.can.devices = 1;
    b.make_engine = [](const engine_config& c, const device_context&, const initial_state& s) {
        return std::unique_ptr<engine>(new test_support::still_engine(c, s, false));
    };
    return b;
}

const backend& frozen_in_global_registry() {
    static const backend& b = []() -> const backend& {
        backend_registry().add(frozen_backend("test-frozen", -1));
        return *backend_registry().find("test-frozen");
    }();
    return b;
}

}  // namespace

TEST(BackendRegistry, ListsTheBuiltInBackendsAndTheirCapabilities) {
    const registry& r = backend_registry();
    const backend* cpu = r.find("cpu");
    const backend* cuda = r.find("cuda");
    ASSERT_NE(cpu, nullptr);
    ASSERT_NE(cuda, nullptr);  // registered as absent in a build without CUDA
    // The fused engine is a kernel of the CUDA backend, not a backend of its own.
    EXPECT_EQ(r.find("cuda-fused"), nullptr);
    EXPECT_FALSE(r.accepts("cuda-fused"));
    EXPECT_TRUE(check_availability(*cpu).available);
    EXPECT_TRUE(cpu->can.batches);
    EXPECT_EQ(cpu->can.hi_kernels, (std::vector<std::string>{"auto", "fast", "all-pairs", "symmetric"}));
    EXPECT_EQ(cpu->can.devices, 0u);
    // One engine on several devices where the build has NCCL's header (engine/docs/multi-gpu.md).
#if defined(STOKESIAN_HAVE_CUDA)
    const bool several = cuda::multi_device_build();
#else
    const bool several = false;
#endif
    EXPECT_EQ(cuda->can.devices, several ? any_device_count : 1u);
    EXPECT_NE(describe(*cuda).find(several ? "; devices any;" : "; devices 1;"), std::string::npos) << describe(*cuda);
#if defined(STOKESIAN_HAVE_CUDA)
    EXPECT_NE(std::find(cuda->can.hi_kernels.begin(), cuda->can.hi_kernels.end(), "fused"), cuda->can.hi_kernels.end());
#endif
    EXPECT_GT(cuda->auto_preference, cpu->auto_preference);
    const std::string line = describe(*cuda);
    EXPECT_NE(line.find("cuda: "), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;

    // Capabilities refuse what they exclude (these: the fused engine's, a kernel of the CUDA backend).
    capabilities small;
    small.integrators = {integrator_kind::euler};
    small.max_particles = 1024;
    small.pair_tensors_only = true;
    engine_config c = make_engine_config(tetrahedron());
    EXPECT_EQ(small.refusal(c, 4), "");
    EXPECT_NE(small.refusal(c, 1025).find("at most 1024 particles"), std::string::npos);
    c.integrator = integrator_kind::ab2;
    EXPECT_NE(small.refusal(c, 4).find("ab2"), std::string::npos);
    EXPECT_EQ(cpu->can.refusal(c, 1 << 20), "");
    // A block tensor (Ewald) is not of the pair form the fused kernels evaluate: auto must not pick them.
    c.integrator = integrator_kind::euler;
    c.system.tensor = hydrodynamic_tensor::rpy_ewald;
    EXPECT_NE(small.refusal(c, 4).find("rpy-ewald tensor"), std::string::npos) << small.refusal(c, 4);
    EXPECT_EQ(cpu->can.refusal(c, 4), "");
}

// "auto" follows the capabilities: the most preferred available backend that can run the system,
// with a notice naming why the preferred one was passed over, and its HI kernel reset.
TEST(BackendRegistry, AutoIsResolvedFromCapabilities) {
    registry r;
    backend small = frozen_backend("small", 10);
    small.can.max_particles = 8;
    backend absent = frozen_backend("absent", 20);
    absent.probe = [] { return availability{false, "absent is not here (use small)", "absent is not here"}; };
    r.add(small);
    r.add(frozen_backend("any", 0));
    engine_config c = make_engine_config(tetrahedron());
    EXPECT_EQ(r.choose_automatic(&c, 4).chosen->name, "small");
    EXPECT_EQ(r.choose_automatic(&c, 4).notice, "");
    const auto big = r.choose_automatic(&c, 100);
    EXPECT_EQ(big.chosen->name, "any");
    EXPECT_EQ(big.notice, "the small backend runs at most 8 particles, not 100");

    r.add(absent);
    c.backend = "auto";
    c.hi_kernel = "tiling";
    testing::internal::CaptureStderr();
    const registry::resolved chosen = r.resolve(c, 4, "the run");
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "stokesian: absent is not here, running the run on the small backend\n");
    EXPECT_EQ(chosen.chosen->name, "small");
    EXPECT_EQ(chosen.config.backend, "small");
    EXPECT_EQ(chosen.config.hi_kernel, "");

    // An explicit request for a backend that cannot run here is bad input naming run.backend.
    c.backend = "absent";
    try {
        r.resolve(c, 4, "the run");
        FAIL() << "expected input_error";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("key 'run.backend' = absent: absent is not here (use small)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(r.add(frozen_backend("small", 0)), std::invalid_argument);  // a name is registered once
    EXPECT_THROW(r.add(frozen_backend("auto", 0)), std::invalid_argument);
}

// "auto" chooses by measured speed at the run's N: a backend measured slower than the next one for
// systems of at most auto_slower_up_to particles is passed over for such a system run alone, with
// no notice (it is a choice, not a fallback) and the measurement in the reason; not for a larger
// one, nor where the run is not alone (batches, device lists, MPI ranks: not what was measured).
TEST(BackendRegistry, AutoPassesOverABackendMeasuredSlowerForASmallSystemRunAlone) {
    registry r;
    backend device = frozen_backend("device", 10);
    device.auto_slower_up_to = 4;
    device.auto_slower_measured = "m.csv: the host 2x";
    r.add(device);
    r.add(frozen_backend("host", 0));
    EXPECT_EQ(r.automatic_order(),
              "device where it can run (not for one system of N <= 4 run alone: measured slower), else host");
    engine_config c = make_engine_config(tetrahedron());
    const auto small = r.choose_automatic(&c, 4, true);
    EXPECT_EQ(small.chosen->name, "host");
    EXPECT_EQ(small.notice, "");
    EXPECT_EQ(small.reason, "N = 4 <= 4: device measured slower, m.csv: the host 2x");
    EXPECT_EQ(r.choose_automatic(&c, 5, true).chosen->name, "device");
    EXPECT_EQ(r.choose_automatic(&c, 5, true).reason, "the most preferred backend that runs it here");
    EXPECT_EQ(r.choose_automatic(&c, 4, false).chosen->name, "device");
    EXPECT_EQ(r.choose_automatic(&c, 0, true).chosen->name, "device");  // any size

    c.backend = "auto";
    c.hi_kernel = "tiling";  // meant for the device
    testing::internal::CaptureStderr();
    const registry::resolved chosen = r.resolve(c, 4, "the run", true);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(chosen.chosen->name, "host");
    EXPECT_EQ(chosen.config.backend, "host");
    EXPECT_EQ(chosen.config.hi_kernel, "");
    EXPECT_EQ(chosen.backend_choice, "auto: host (N = 4 <= 4: device measured slower, m.csv: the host 2x)");
    c.backend = "host";
    EXPECT_EQ(r.resolve(c, 4, "the run", true).backend_choice, "") << "a named backend is no choice of auto";
}

// The built-in rule: CUDA is passed over for the tetrahedron (N = 4) run alone, by the committed
// measurement it names, on every host.
TEST(BackendRegistry, AutoRunsTheTetrahedronAloneOnTheCpuByTheCommittedMeasurement) {
    const backend* cuda = backend_registry().find("cuda");
    ASSERT_NE(cuda, nullptr);
    EXPECT_EQ(cuda->auto_slower_up_to, 4u);
    const std::string measured = cuda->auto_slower_measured;
    const std::string file = measured.substr(0, measured.find(':'));
    EXPECT_TRUE(
        std::filesystem::is_regular_file(std::string(::stokesian::test_support::project_source_dir) + "/" + file))
        << measured;
    engine_config c = make_engine_config(tetrahedron());
    c.backend = "auto";
    testing::internal::CaptureStderr();
    const registry::resolved r = backend_registry().resolve(c, 4, "the run", true);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(r.chosen->name, "cpu");
    EXPECT_EQ(r.backend_choice.rfind("auto: cpu (N = 4 <= 4: cuda measured slower, " + file, 0), 0u)
        << r.backend_choice;
}

// Here (no CUDA device, or no CUDA build) auto runs on the CPU with today's notice; on a GPU host on CUDA.
TEST(BackendRegistry, AutoRunsOnTheCpuWithANoticeWithoutADevice) {
    engine_config c = make_engine_config(tetrahedron());
    c.backend = "auto";
    c.hi_kernel = "tiling";
    testing::internal::CaptureStderr();
    const registry::resolved r = backend_registry().resolve(c, 4, "the run");
    const std::string notice = testing::internal::GetCapturedStderr();
    if (check_availability(*backend_registry().find("cuda")).available) {
        EXPECT_EQ(r.chosen->name, "cuda");
        EXPECT_EQ(notice, "");
        GTEST_SKIP() << "a CUDA device is present: auto chose cuda";
    }
    EXPECT_EQ(r.chosen->name, "cpu");
    EXPECT_EQ(r.config.hi_kernel, "");
    EXPECT_TRUE(notice == "stokesian: no CUDA device found, running the run on the CPU backend\n" ||
                notice == "stokesian: this build has no CUDA backend, running the run on the CPU backend\n")
        << notice;
}

TEST(BackendRegistry, AnUnknownBackendIsOneLineListingTheRegisteredNames) {
    const scenario s = tetrahedron();
    engine_config c = make_engine_config(s);
    c.backend = "tpu";
    try {
        make_engine(c, s.particles);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_NE(m.find("unknown backend 'tpu' (expected cpu, cuda, "), std::string::npos) << m;
        EXPECT_NE(m.find(" or auto)"), std::string::npos) << m;
    }
}

// The fused engine is reached one way: the CUDA backend's kernel "fused" (named, or chosen by auto);
// it stays the CUDA backend's, like any of its kernels.
TEST(BackendRegistry, HiKernelFusedIsAKernelOfTheCudaBackend) {
    engine_config c = make_engine_config(tetrahedron());
    // A backend's name joined to a kernel's is no backend: refused with its one spelling.
    c.backend = "cuda-fused";
    try {
        (void)backend_registry().resolve(c, 4, "the run");
        ADD_FAILURE() << "backend cuda-fused accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "unknown backend 'cuda-fused' (expected " + backend_registry().names() +
                                             "; the backend cuda with hi-kernel fused)");
    }
    c.backend = "cuda";
    c.hi_kernel = "fused";
    if (!check_availability(*backend_registry().find("cuda")).available) {
        EXPECT_THROW(backend_registry().resolve(c, 4, "the run"), input_error);
        return;
    }
    const registry::resolved r = backend_registry().resolve(c, 4, "the run");
    EXPECT_EQ(r.chosen->name, "cuda");
    EXPECT_EQ(r.config.hi_kernel, "fused");
}

// Adding a backend is a registration: make_engine builds it by name, no engine file changes.
TEST(BackendRegistry, ABackendRegisteredFromATestIsBuiltByName) {
    const backend& frozen = frozen_in_global_registry();
    const scenario s = tetrahedron();
    engine_config c = make_engine_config(s);
    c.backend = frozen.name;
    auto e = make_engine(c, s.particles);
    EXPECT_EQ(e->description().backend, "test-frozen");
    e->advance(3);
    frame f;
    e->read_frame(f);
    EXPECT_EQ(f.step, 3u);
    EXPECT_EQ(f.position, s.particles.positions);
    EXPECT_NE(backend_registry().names().find("test-frozen"), std::string::npos);

    // It runs no batches, and drives one device: a context naming two is refused.
    EXPECT_THROW(make_batch_engine(c, {batch_member{s.particles, 0.01}}), std::invalid_argument);
    device_context two;
    two.ordinals = {0, 1};
    EXPECT_THROW(backends::make_engine(c, two, s.particles), std::invalid_argument);
}

// Wherever a backend is named -- run.backend and --backend (one parser: the run table's), a suite
// manifest's backend -- the accepted names are the registry's and auto, no list of their own: a
// registered name is accepted, an unknown name is refused with the registered ones listed.
TEST(BackendRegistry, EveryPlaceThatNamesABackendTakesTheRegisteredNames) {
    const registry& r = backend_registry();
    std::vector<std::string> registered;
    for (const backend& b : r.all()) registered.push_back(b.name);
    std::vector<std::string> choices = registered;
    choices.emplace_back("auto");
    EXPECT_EQ(r.choices(), choices);
    EXPECT_TRUE(r.accepts("cuda"));
    EXPECT_TRUE(r.accepts("auto"));
    EXPECT_FALSE(r.accepts("tpu"));

    const std::string scenario_text =
        "[scenario]\nname = \"pair\"\n[box]\nboundary = \"open\"\n[particles]\npositions = [[-2.0, 0.0, 0.0], "
        "[2.0, 0.0, 0.0]]\nforce = [0.0, 0.0, -1.0]\n[run]\ndt = 0.01\nsteps = 10\nbackend = ";
    EXPECT_EQ(parse_scenario(scenario_text + "\"cuda\"\n", "x.toml").run.backend, "cuda");
    const std::string manifest_text =
        "[[run]]\nname = \"a\"\nscenario = \"x.toml\"\nprecision = \"hi=f64,int=f64\"\ndt = 0.01\ntime = 1.0\nbackend "
        "= ";
    EXPECT_EQ(regression::parse_suite_manifest(manifest_text + "\"cuda\"\n", "m.toml").runs.front().backend, "cuda");
    for (const auto& [what, parse] : std::vector<std::pair<std::string, std::function<void()>>>{
             {"scenario", [&] { (void)parse_scenario(scenario_text + "\"tpu\"\n", "x.toml"); }},
             {"manifest", [&] { (void)regression::parse_suite_manifest(manifest_text + "\"tpu\"\n", "m.toml"); }}}) {
        try {
            parse();
            ADD_FAILURE() << what << " accepted backend tpu";
        } catch (const input_error& e) {
            const std::string m = e.what();
            for (const std::string& name : {std::string("cpu"), std::string("cuda"), std::string("auto")})
                EXPECT_NE(m.find(name), std::string::npos) << what << ": " << m;
        }
    }
}
