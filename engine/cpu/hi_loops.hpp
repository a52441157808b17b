#pragma once
// The CPU backend's two HI loops (cpu_engine.hpp describes them) over a range of targets: the
// velocities of the particles in `targets`, each against all N = position.size() sources, written
// to velocity[i] (velocity has N elements; those outside the range are left alone). A target's sum
// is the same whatever the range, so a system cut into ranges gives the whole-range velocities bit
// for bit. Tensor: the evaluator (physics/tensor_registry.hpp); before_target(): a hook run before
// each target's sum (all-pairs) or each row of the double loop (symmetric), e.g. an interrupt check.
#include <algorithm>
#include <span>

#include "stokesian/physics/accumulate.hpp"
#include "stokesian/physics/interactions.hpp"
#include "stokesian/physics/target_range.hpp"

namespace stokesian::cpu {

// v_i = sum_{j=0}^{N-1} mu_ij F_j in index order, self term at j = i: the CUDA kernels' order.
template <class Tensor, class W, class A, class Hook>
void mobility_all_pairs(target_range targets, std::span<const vec3<W>> position, std::span<const vec3<W>> force,
                        std::span<vec3<A>> velocity, const interaction_parameters<W>& p, Hook&& before_target) {
    const std::size_t n = position.size();
    for (std::size_t i = targets.begin; i < targets.end; ++i) {
        before_target();
        vec3<A> acc = zero_vector<A>();
        const vec3<W> r_i = position[i];
        for (std::size_t j = 0; j < n; ++j)
            accumulate(acc, hydrodynamic_contribution<Tensor>(i == j, r_i, position[j], force[j], p));
        velocity[i] = acc;
    }
}

// The paper's serial reference: each pair tensor evaluated once and used for mu_ij and mu_ji = mu_ij
// (the tensor is even in r_ij). Target i sums its self term, then the pairs in the order the
// double loop (i' < j') meets them; a range visits the rows i' < targets.end and only the pairs
// with a target in it, in the same order.
template <class Tensor, class W, class A, class Hook>
void mobility_symmetric(target_range targets, std::span<const vec3<W>> position, std::span<const vec3<W>> force,
                        std::span<vec3<A>> velocity, const interaction_parameters<W>& p, Hook&& before_row) {
    const std::size_t n = position.size();
    const W mu0 = p.mobility.self_mobility;
    for (std::size_t i = targets.begin; i < targets.end; ++i) {
        velocity[i] = zero_vector<A>();
        accumulate(velocity[i], self_contribution<Tensor>(force[i], p.mobility));
    }
    for (std::size_t i = 0; i < targets.end; ++i) {
        before_row();
        const bool i_is_target = i >= targets.begin;
        const std::size_t j_end = i_is_target ? n : targets.end;
        for (std::size_t j = std::max(i + 1, targets.begin); j < j_end; ++j) {
            const vec3<W> r_ij = minimum_image(position[i] - position[j], p.box);
            if constexpr (block_tensor_evaluator<Tensor>) {
                // The block is symmetric and even in r_ij: mu_ji = mu_ij.
                const symmetric_block<W> b = Tensor::template block<W>(r_ij, p.mobility);
                if (i_is_target) accumulate(velocity[i], apply_block(b, force[j], mu0));
                if (j < targets.end) accumulate(velocity[j], apply_block(b, force[i], mu0));
            } else {
                const pair_tensor<W> t = pair_mobility_tensor<Tensor>(r_ij, p.mobility);
                const tie_split<W> r = split_ties(r_ij, p.box);
                if (i_is_target) accumulate(velocity[i], apply_pair_tensor(t, r, force[j], mu0));
                if (j < targets.end) accumulate(velocity[j], apply_pair_tensor(t, r, force[i], mu0));
            }
        }
    }
}

}  // namespace stokesian::cpu
