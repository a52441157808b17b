#pragma once
// Launches of the grid kernel (fused_grid_kernel.cuh): one system over the whole device, the
// tensor and the box kind chosen at run time. Included by the files generated from
// fused_grid_launch.cu.in, one per HI precision of the list, each instantiating the modes of its
// precision (the kernels of the three precisions compile side by side). The tensor and the box
// kind are template parameters, as in the far kernels (hi_far_kernels.cuh).
#include <stdexcept>

#include "cuda_check.hpp"
#include "fused_engine.cuh"
#include "fused_grid_kernel.cuh"
#include "fused_grid_plan.cuh"
#include "hi_launch.cuh"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

namespace stokesian::cuda {

namespace fused_grid_detail {

template <class P, class A, class W, class Tensor, bool Periodic>
void launch_box(const fused_arguments<P, A, W>& a, const fused_grid_buffers<W>& g, const fused_grid_slice<P, A, W>& s,
                std::uint64_t steps, bool initialise) {
    // The device's slice of the targets is cut into tiles; the sources are all n. One device, or one
    // of several (fused_grid_devices.cuh): a kernel each, so that the one-device kernel carries none
    // of the several devices' code. Several take at most two targets a step, with which their bounds
    // were measured (hi_kernel_table.cpp).
    const bool on_devices = s.peers != 0;
    constexpr unsigned most = fused_grid_pairs_pay<A, Periodic> ? fused_grid_most_a_step<W> : 1u;
    constexpr unsigned most_on_devices = most < 2u ? most : 2u;
    // Tiles of one size (the kernel's loops take one; a last round of its own made it spill).
    const fused_grid_plan plan =
        fused_grid_plan_for<W>(s.end - s.begin, on_devices ? most_on_devices : most, fused_grid_tiles::equal);
    fused_arguments<P, A, W> args = a;
    fused_grid_buffers<W> working = g;
    fused_grid_slice<P, A, W> slice = s;
    unsigned tile = plan.shape.tiling.tile, buffers = plan.buffers;
    // A chunk buffer's values: a kernel parameter, which the kernel reads from the constant bank,
    // rather than 3 * tile * row computed in the kernel and held in a register of its producing
    // warps, which have 64 in f32 (1-2 % faster at N >= 2048 in f32 on an H200: forms a3 and a3p of
    // engine/docs/gpu-runs/2026-11-29-h200-fused-grid-adders.txt).
    unsigned buffer = plan.buffer;
    const auto launch = [&](auto kernel) {
        fused_grid_prepare(reinterpret_cast<const void*>(kernel), plan.shared, fused_grid_block<W>,
                           "fused grid kernel");
        void* parameters[] = {&args, &working, &tile, &buffers, &buffer, &steps, &initialise, &slice};
        check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(plan.shape.blocks),
                                          dim3(fused_grid_block<W>), parameters, plan.shared, cudaStreamPerThread),
              "cudaLaunchCooperativeKernel (fused grid kernel)");
    };
    if (on_devices)
        with_targets_a_step<most_on_devices>(plan.shape.targets_a_step, [&](auto k) {
            launch(fused_grid_kernel<P, A, W, Tensor, Periodic, decltype(k)::value, true>);
        });
    else
        with_targets_a_step<most>(plan.shape.targets_a_step, [&](auto k) {
            launch(fused_grid_kernel<P, A, W, Tensor, Periodic, decltype(k)::value, false>);
        });
}

}  // namespace fused_grid_detail

template <class Policy>
void fused_grid_launcher<Policy>::launch(const fused_arguments<P, A, W>& a, const fused_grid_buffers<W>& g,
                                         const fused_grid_slice<P, A, W>& s, std::uint64_t steps, bool initialise) {
    dispatch_tensor(a.params.mobility.tensor, [&](auto tensor) {
        using T = decltype(tensor);
        // The engine refuses a tensor without a far form before any launch (fused_engine.cu).
        if constexpr (far_form<T>::available) {
            if (a.params.box.periodic) fused_grid_detail::launch_box<P, A, W, T, true>(a, g, s, steps, initialise);
            else fused_grid_detail::launch_box<P, A, W, T, false>(a, g, s, steps, initialise);
        } else {
            throw std::logic_error("fused grid kernel launched for a tensor without a far form");
        }
    });
}

}  // namespace stokesian::cuda
