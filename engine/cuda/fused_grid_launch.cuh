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
#include "hi_launch.cuh"
#include "stokesian/physics/tensor_registry.hpp"
#include "stokesian/physics/tensors/far_form.hpp"

namespace stokesian::cuda {

namespace fused_grid_detail {

template <class P, class A, class W, class Tensor, bool Periodic>
void launch_box(const fused_arguments<P, A, W>& a, const fused_grid_buffers<W>& g, const fused_grid_slice<P, A, W>& s,
                std::uint64_t steps, bool initialise) {
    const unsigned sms = device_sm_count();
    const std::size_t shared_per_block = device_shared_memory_per_block();
    const unsigned tile_max = fused_grid_tile_fitting(shared_per_block, fused_grid_targets_bytes<W>, fused_grid_row<W>,
                                                      sizeof(W), fused_grid_tile_max<W>);
    if (tile_max < 1) throw std::runtime_error("the fused grid kernel does not fit a multiprocessor of this device");
    // One block a multiprocessor: a block's warps hold nearly all of its registers (f32: 31 warps of
    // 64, f64: 16 of ~120), so a second one never fits; the occupancy query below checks the first.
    // The device's slice of the targets is cut into tiles; the sources are all n.
    // One device, or one of several (fused_grid_devices.cuh): a kernel each, so that the one-device
    // kernel carries none of the several devices' code. Several take at most two targets a step,
    // with which their bounds were measured (hi_kernel_table.cpp).
    const bool on_devices = s.peers != 0;
    const fused_grid_producing producing{fused_grid_groups<W>, on_devices ? 2u : fused_grid_most_a_step<W>};
    const fused_grid_shape shape = fused_grid_shape_for(s.end - s.begin, sms, sms, tile_max, producing);
    auto kernel = on_devices ? fused_grid_kernel<P, A, W, Tensor, Periodic, 1, true>
                             : fused_grid_kernel<P, A, W, Tensor, Periodic, 1, false>;
    if constexpr (fused_grid_pairs_pay<A, Periodic>) {
        if (shape.targets_a_step == 2)
            kernel = on_devices ? fused_grid_kernel<P, A, W, Tensor, Periodic, 2, true>
                                : fused_grid_kernel<P, A, W, Tensor, Periodic, 2, false>;
        if constexpr (fused_grid_most_a_step<W> >= 3)
            if (shape.targets_a_step == 3) kernel = fused_grid_kernel<P, A, W, Tensor, Periodic, 3, false>;
    }
    unsigned tile = shape.tile;
    const std::size_t buffer_bytes = fused_grid_buffer_bytes(tile, fused_grid_row<W>, sizeof(W));
    unsigned buffers = fused_grid_buffers_fitting(shared_per_block, fused_grid_targets_bytes<W>, buffer_bytes);
    const std::size_t shared = fused_grid_targets_bytes<W> + buffers * buffer_bytes;
    if (shared > 48 * 1024)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)),
              "cudaFuncSetAttribute (fused grid kernel shared memory)");
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(fused_grid_block<W>), shared),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor (fused grid kernel)");
    if (per_sm < 1) throw std::runtime_error("the fused grid kernel does not fit a multiprocessor of this device");
    fused_arguments<P, A, W> args = a;
    fused_grid_buffers<W> working = g;
    fused_grid_slice<P, A, W> slice = s;
    // A chunk buffer's values: a kernel parameter, which the kernel reads from the constant bank,
    // rather than 3 * tile * row computed in the kernel and held in a register of its producing
    // warps, which have 64 in f32 (1-2 % faster at N >= 2048 in f32 on an H200: forms a3 and a3p of
    // engine/docs/gpu-runs/2026-11-29-h200-fused-grid-adders.txt).
    unsigned buffer = static_cast<unsigned>(buffer_bytes / sizeof(W));
    void* parameters[] = {&args, &working, &tile, &buffers, &buffer, &steps, &initialise, &slice};
    check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(shape.blocks),
                                      dim3(fused_grid_block<W>), parameters, shared, cudaStreamPerThread),
          "cudaLaunchCooperativeKernel (fused grid kernel)");
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
