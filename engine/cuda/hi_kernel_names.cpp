#include "stokesian/cuda/hi_kernel_names.hpp"

#include <stdexcept>

namespace stokesian::cuda {

namespace {
struct named {
    hi_kernel kernel;
    const char* name;
};
constexpr named names[] = {{hi_kernel::naive, "naive"},
                           {hi_kernel::tiling, "tiling"},
                           {hi_kernel::small_tiling, "small-tiling"},
                           {hi_kernel::fast_split, "fast-split"},
                           {hi_kernel::far_tiling, "far-tiling"},
                           {hi_kernel::fast_far_split, "fast-far-split"},
                           {hi_kernel::ordered_split, "ordered-split"},
                           {hi_kernel::adding_warps, "adding-warps"},
                           {hi_kernel::fused, "fused"}};
}  // namespace

hi_kernel parse_hi_kernel(const std::string& name) {
    if (name.empty()) return hi_kernel::tiling;
    for (const auto& n : names)
        if (name == n.name) return n.kernel;
    std::string list;
    for (const auto& n : names) list += std::string(list.empty() ? "" : ", ") + n.name;
    throw std::invalid_argument("unknown CUDA hi-kernel '" + name + "' (expected one of " + list + ")");
}

const char* to_string(hi_kernel k) {
    for (const auto& n : names)
        if (n.kernel == k) return n.name;
    return "?";
}

bool sums_in_cpu_order(hi_kernel k) {
    return k == hi_kernel::naive || k == hi_kernel::tiling || k == hi_kernel::small_tiling ||
           k == hi_kernel::far_tiling || k == hi_kernel::ordered_split || k == hi_kernel::adding_warps ||
           k == hi_kernel::fused;
}

bool uses_fast_math(hi_kernel k) { return k == hi_kernel::fast_split || k == hi_kernel::fast_far_split; }

std::string block_size_description(hi_kernel k, unsigned engine_block) {
    switch (k) {
        case hi_kernel::fast_far_split:
            return "one block a multiprocessor up to a bound (cuda/far_split_shape.hpp), else " +
                   std::to_string(engine_block);
        case hi_kernel::adding_warps:
            return "one team of producing and adding warps a multiprocessor (cuda/fused_grid_plan.cuh)";
        default: return std::to_string(engine_block);
    }
}

std::vector<std::string> step_kernel_names() {
    std::vector<std::string> out{to_string(parse_hi_kernel(""))};
    for (const auto& n : names)
        if (n.kernel != parse_hi_kernel("") && n.kernel != hi_kernel::fused) out.push_back(n.name);
    return out;
}

}  // namespace stokesian::cuda
