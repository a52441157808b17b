// stokesian_bench_small: throughput of the fused small-system path of the CUDA backend on the
// four-sphere tetrahedron (scenarios/tetrahedron.toml), for every precision mode:
//   - one system on the fused engine (--hi-kernel fused): steps per second (latency-bound);
//   - batches of 1, 32, 132, 1024, 8192 systems (make_batch_engine, backend cuda): aggregate
//     system-steps per second.
// Times are measured with CUDA events around advance() after a warm-up; the number of steps is
// calibrated so that each measurement takes about --seconds (at most --max-steps steps).
// --kernels measures several of the fused kernels side by side (fused_kernel_choice,
// stokesian/cuda/fused_backend.hpp): `auto` (default) the engine's own choice, `all` every kernel
// that runs the scenario's N (thread N <= 8, pair-warp N <= 5, block), or a list of them.
// Project target: >= 5 million steps/s for one system on an H100.
//
// Usage: stokesian_bench_small [--csv FILE] [--seconds S] [--max-steps N] [--batches 1,32,...]
//                              [--modes all|paper|hi=..,int=..] [--scenario FILE]
//                              [--kernels auto|all|thread,pair-warp,block]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/batch.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/cuda/cuda_backend.hpp"
#include "stokesian/cuda/fused_backend.hpp"
#include "stokesian/settings/scenario_loader.hpp"

using namespace stokesian;

namespace {

struct options {
    std::string csv;
    std::string scenario = std::string(STOKESIAN_SOURCE_DIR) + "/scenarios/tetrahedron.toml";
    double seconds = 1.0;
    std::uint64_t max_steps = 10'000'000;
    std::vector<std::size_t> batches{1, 32, 132, 1024, 8192};
    std::vector<precision_mode> modes;
    std::vector<cuda::fused_kernel_choice> kernels{cuda::fused_kernel_choice::automatic};
    bool all_kernels = false;
};

struct kernel_name {
    const char* name;
    cuda::fused_kernel_choice choice;
    std::size_t max_particles;
};
constexpr kernel_name kernel_names[] = {
    {"auto", cuda::fused_kernel_choice::automatic, cuda::fused_max_particles},
    {"thread", cuda::fused_kernel_choice::thread, 8},
    {"pair-warp", cuda::fused_kernel_choice::pair_warp, 5},
    {"block", cuda::fused_kernel_choice::block, cuda::fused_block_max_particles},
    {"grid", cuda::fused_kernel_choice::grid, cuda::fused_max_particles},
};

const kernel_name& name_of(cuda::fused_kernel_choice k) {
    for (const auto& n : kernel_names)
        if (n.choice == k) return n;
    throw std::logic_error("unnamed fused kernel choice");
}

[[noreturn]] void usage(const std::string& error) {
    if (!error.empty()) std::cerr << "stokesian_bench_small: " << error << "\n";
    std::cerr
        << "usage: stokesian_bench_small [--csv FILE] [--seconds S] [--max-steps N] [--batches 1,32,132,1024,8192]\n"
        << "                             [--modes all|paper|hi=..,int=..] [--scenario FILE]\n"
        << "                             [--kernels auto|all|thread,pair-warp,block]\n";
    std::exit(error.empty() ? 0 : 2);
}

std::vector<precision_mode> all_modes() { return {precision_modes.begin(), precision_modes.end()}; }

options parse(int argc, char** argv) {
    options o;
    o.modes = all_modes();
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        auto value = [&]() -> std::string {
            if (k + 1 >= argc) usage("missing value after " + a);
            return argv[++k];
        };
        try {
            if (a == "--csv") o.csv = value();
            else if (a == "--scenario") o.scenario = value();
            else if (a == "--seconds") o.seconds = std::stod(value());
            else if (a == "--max-steps") o.max_steps = std::stoull(value());
            else if (a == "--batches") {
                o.batches.clear();
                std::stringstream list(value());
                for (std::string item; std::getline(list, item, ',');) o.batches.push_back(std::stoul(item));
            } else if (a == "--modes") {
                const std::string v = value();
                if (v == "all") o.modes = all_modes();
                else if (v == "paper") o.modes.assign(paper_precision_modes.begin(), paper_precision_modes.end());
                else o.modes = {parse_precision_mode(v)};
            } else if (a == "--kernels") {
                const std::string v = value();
                o.kernels.clear();
                o.all_kernels = v == "all";
                if (o.all_kernels) {
                    for (const auto& n : kernel_names)
                        if (n.choice != cuda::fused_kernel_choice::automatic) o.kernels.push_back(n.choice);
                } else {
                    std::stringstream list(v);
                    for (std::string item; std::getline(list, item, ',');) {
                        bool known = false;
                        for (const auto& n : kernel_names)
                            if (item == n.name) {
                                o.kernels.push_back(n.choice);
                                known = true;
                            }
                        if (!known) throw std::invalid_argument("unknown kernel '" + item + "'");
                    }
                }
            } else if (a == "--help" || a == "-h") usage("");
            else usage("unknown option " + a);
        } catch (const std::invalid_argument& e) {
            usage("bad value for " + a + ": " + e.what());
        } catch (const std::out_of_range&) {
            usage("value out of range for " + a);
        }
    }
    if (!(o.seconds > 0.0) || o.max_steps < 1) usage("--seconds and --max-steps must be positive");
    return o;
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

// Seconds of GPU time for advance(steps), measured with events on the default stream (the engines
// launch there).
template <class Engine>
double timed_advance(Engine& e, std::uint64_t steps) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    check(cudaEventRecord(start), "cudaEventRecord");
    e.advance(steps);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return double(ms) * 1e-3;
}

struct measurement {
    std::uint64_t steps = 0;
    double seconds = 0.0;
};

// Warm-up, calibration, then one timed run of about `target` seconds.
template <class Engine>
measurement measure(Engine& e, double target, std::uint64_t max_steps) {
    const std::uint64_t probe = std::min<std::uint64_t>(10'000, max_steps);
    timed_advance(e, probe);  // warm-up (module load, clocks)
    const double t = std::max(timed_advance(e, probe), 1e-6);
    const double wanted = target * double(probe) / t;
    const std::uint64_t steps = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(wanted), probe, max_steps);
    return {steps, timed_advance(e, steps)};
}

std::vector<batch_member> members_of(const initial_state& base, double dt, std::size_t count) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-0.1, 0.1);
    std::vector<batch_member> m(count);
    for (std::size_t k = 0; k < count; ++k) {
        m[k].state = base;
        m[k].dt = dt;
        if (k > 0)
            for (auto& r : m[k].state.positions) r = r + vec3<double>{u(rng), u(rng), u(rng)};
    }
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    const options o = parse(argc, argv);
    if (!cuda::device_available()) {
        std::cerr << "stokesian_bench_small: no CUDA device\n";
        return 1;
    }
    try {
        const scenario s = load_scenario(o.scenario);
        const auto device = cuda::device_description();
        std::cout << "device: " << device.at("device_name") << " (sm " << device.at("compute_capability") << ", "
                  << device.at("multiprocessors") << " SMs), fp flags: " << device.at("cuda_fp_flags") << "\n"
                  << "scenario: " << s.name << ", N = " << s.particles.size() << ", dt = " << s.run.dt << "\n\n";
        std::ofstream csv;
        if (!o.csv.empty()) {
            csv.open(o.csv);
            if (!csv) throw std::runtime_error("cannot write " + o.csv);
            csv << "precision,path,fused_kernel,systems,particles,steps,seconds,steps_per_second_per_system,"
                   "aggregate_system_steps_per_second,kernel,device\n";
        }
        std::printf("%-16s %-7s %-9s %7s %12s %9s %16s %18s\n", "precision", "path", "kernel", "systems", "steps",
                    "seconds", "steps/s/system", "aggregate steps/s");
        for (const precision_mode mode : o.modes) {
            engine_config c = make_engine_config(s);
            c.precision = mode;
            c.backend = "cuda";
            c.hi_kernel = "fused";
            for (const cuda::fused_kernel_choice k : o.kernels) {
                const kernel_name& name = name_of(k);
                if (s.particles.size() > name.max_particles) {
                    if (!o.all_kernels)
                        throw std::invalid_argument(std::string("kernel ") + name.name +
                                                    " does not run N = " + std::to_string(s.particles.size()));
                    continue;  // --kernels all: the kernels that run this N
                }
                auto report = [&](const char* path, std::size_t systems, const measurement& m,
                                  const std::string& kernel) {
                    const double per_system = double(m.steps) / m.seconds;
                    const double aggregate = per_system * double(systems);
                    std::printf("%-16s %-7s %-9s %7zu %12llu %9.4f %16.4g %18.4g\n", to_string(mode).c_str(), path,
                                name.name, systems, static_cast<unsigned long long>(m.steps), m.seconds, per_system,
                                aggregate);
                    std::fflush(stdout);
                    if (csv.is_open())
                        csv << '"' << to_string(mode) << "\"," << path << ',' << name.name << ',' << systems << ','
                            << s.particles.size() << ',' << m.steps << ',' << m.seconds << ',' << per_system << ','
                            << aggregate << ",\"" << kernel << "\",\"" << device.at("device_name") << "\"\n";
                };
                {
                    auto e = cuda::make_fused_engine(c, s.particles, k);
                    report("single", 1, measure(*e, o.seconds, o.max_steps),
                           e->description().details.at("fused_kernel"));
                }
                for (std::size_t systems : o.batches) {
                    if (systems == 0) continue;
                    auto b =
                        cuda::make_cuda_batch_engine(c, device_context{}, members_of(s.particles, c.dt, systems), k);
                    report("batch", systems, measure(*b, o.seconds, o.max_steps),
                           b->description().details.at("fused_kernel"));
                }
            }
        }
    } catch (const std::exception& e) {
        std::cerr << "stokesian_bench_small: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
