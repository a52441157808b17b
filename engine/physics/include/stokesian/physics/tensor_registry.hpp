#pragma once
// The one list of hydrodynamic tensors. A tensor is an evaluator type (physics/tensors/): a name
// (the scenario's spelling), a port-check term allowance, and
//     template <class W, bool Fast> static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>&);
// Kernels and CPU loops take the evaluator as a template parameter; the run-time key
// (system_parameters::tensor) is mapped to the type once, by dispatch_tensor() below (engine/README.md,
// "How to add a tensor").
#include <array>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/config.hpp"
#include "stokesian/numeric/vec3.hpp"
#include "stokesian/physics/pair_tensor.hpp"
#include "stokesian/physics/tensors/oseen.hpp"
#include "stokesian/physics/tensors/rotne_prager_yamakawa.hpp"
#include "stokesian/physics/tensors/rpy_ewald.hpp"
// A build's added tensors (CMake STOKESIAN_EXTRA_TENSOR_HEADERS; none by default): their headers and
// STOKESIAN_EXTRA_TENSOR_KEYS / _ENTRIES, appended to the list below.
#include "stokesian/physics/tensor_extensions.hpp"

namespace stokesian {

// What kernels and loops ask of a tensor type. Any such type works with the templated entry points
// (pair_mobility_tensor<Tensor>, the CPU loops, the CUDA launch helpers) as it is; registering it
// below only gives it a run-time key, reachable from scenarios.
template <class T>
concept tensor_evaluator = requires(float r2f, double r2d, const mobility_parameters<float>& pf,
                                    const mobility_parameters<double>& pd) {
    { T::name } -> std::convertible_to<const char*>;
    { T::term_allowance } -> std::convertible_to<double>;
    { T::template evaluate<float, false>(r2f, pf) } -> std::same_as<pair_tensor<float>>;
    { T::template evaluate<double, false>(r2d, pd) } -> std::same_as<pair_tensor<double>>;
};

// What kernels and loops ask of a block evaluator (physics/interactions.hpp applies it).
template <class T>
concept block_tensor_evaluator = requires(vec3<float> rf, vec3<double> rd, const mobility_parameters<float>& pf,
                                          const mobility_parameters<double>& pd) {
    { T::name } -> std::convertible_to<const char*>;
    { T::term_allowance } -> std::convertible_to<double>;
    { T::template block<float, false>(rf, pf) } -> std::same_as<symmetric_block<float>>;
    { T::template block<double, false>(rd, pd) } -> std::same_as<symmetric_block<double>>;
    { T::template self_block<float>(pf) } -> std::same_as<symmetric_block<float>>;
    { T::template self_block<double>(pd) } -> std::same_as<symmetric_block<double>>;
};

template <class T>
concept any_tensor_evaluator = tensor_evaluator<T> || block_tensor_evaluator<T>;

template <hydrodynamic_tensor Key, any_tensor_evaluator Evaluator>
struct tensor_entry {
    static constexpr hydrodynamic_tensor key = Key;
    using evaluator = Evaluator;
};
template <class... Entries>
struct tensor_list {};

// ---- the registered tensors: one key and one entry each ------------------------------------
enum class hydrodynamic_tensor : std::uint8_t {
    rotne_prager,  // Eq. (rotneMobility) for r >= 2a, Rotne-Prager-Yamakawa overlap form below
    oseen,         // Eq. (oseenTensor): point-particle limit, O(1/r) only
    rpy_ewald,     // Beenakker (1986): the Ewald-summed RPY mobility of a periodic box (a block evaluator)
    STOKESIAN_EXTRA_TENSOR_KEYS
};
using registered_tensors =
    tensor_list<tensor_entry<hydrodynamic_tensor::rotne_prager, rotne_prager_yamakawa_tensor>,
                tensor_entry<hydrodynamic_tensor::oseen, oseen_tensor>,
                tensor_entry<hydrodynamic_tensor::rpy_ewald, rpy_ewald_tensor> STOKESIAN_EXTRA_TENSOR_ENTRIES>;
// ---------------------------------------------------------------------------------------------

namespace detail {
template <class Entry, class... Rest, class F>
STOKESIAN_HD_INLINE decltype(auto) dispatch_tensor_from(hydrodynamic_tensor key, F& f) {
    if constexpr (sizeof...(Rest) == 0) return f(typename Entry::evaluator{});
    else return key == Entry::key ? f(typename Entry::evaluator{}) : dispatch_tensor_from<Rest...>(key, f);
}
template <class... Entries, class F>
STOKESIAN_HD_INLINE decltype(auto) dispatch_tensor_in(tensor_list<Entries...>, hydrodynamic_tensor key, F& f) {
    return dispatch_tensor_from<Entries...>(key, f);
}
template <class... Entries>
constexpr auto names_of(tensor_list<Entries...>) {
    return std::array<std::string_view, sizeof...(Entries)>{std::string_view(Entries::evaluator::name)...};
}
template <class... Entries, class F>
void for_each_tensor_in(tensor_list<Entries...>, F& f) {
    (f(Entries::key, typename Entries::evaluator{}), ...);
}
}  // namespace detail

// Calls f(Evaluator{}) for the evaluator registered under key (host and device).
template <class F>
STOKESIAN_HD_INLINE decltype(auto) dispatch_tensor(hydrodynamic_tensor key, F&& f) {
    return detail::dispatch_tensor_in(registered_tensors{}, key, f);
}

// Calls f(key, Evaluator{}) for every registered tensor, in list order (host).
template <class F>
void for_each_tensor(F&& f) {
    detail::for_each_tensor_in(registered_tensors{}, f);
}

// The pair-form tensor the parameters name, chosen at run time for every pair: an evaluator for
// host-side callers of pair_mobility_tensor that hold a run-time key (tests) and for the fused
// kernels. A block evaluator has no pair coefficients: its key gives NaN (the fused engine refuses
// it; hydrodynamic_contribution's default, any_tensor, dispatches it as a block).
struct selected_tensor {
    template <class W, bool Fast = false>
    STOKESIAN_HD_INLINE static pair_tensor<W> evaluate(W r2, const mobility_parameters<W>& p) {
        return dispatch_tensor(p.tensor, [&](auto t) {
            using T = decltype(t);
            if constexpr (tensor_evaluator<T>) return T::template evaluate<W, Fast>(r2, p);
            else return pair_tensor<W>{W(0) / W(0), W(0) / W(0)};
        });
    }
};

// Whether the tensor registered under key is a block evaluator (host).
inline bool is_block_tensor(hydrodynamic_tensor t) {
    bool block = false;
    for_each_tensor([&](hydrodynamic_tensor key, auto e) {
        if (key == t) block = block_tensor_evaluator<decltype(e)>;
    });
    return block;
}

// ---- names and port-check allowances, from the list (host) ---------------------------------
// The scenario spellings, in list order (the settings table's choices).
inline constexpr auto registered_tensor_names = detail::names_of(registered_tensors{});

inline std::string_view to_string(hydrodynamic_tensor t) {
    std::string_view name;
    for_each_tensor([&](hydrodynamic_tensor key, auto e) {
        if (key == t) name = decltype(e)::name;
    });
    return name;
}

inline std::vector<std::string> tensor_names() {
    std::vector<std::string> names;
    for_each_tensor([&](hydrodynamic_tensor, auto e) { names.emplace_back(decltype(e)::name); });
    return names;
}

inline std::optional<hydrodynamic_tensor> parse_tensor(std::string_view name) {
    std::optional<hydrodynamic_tensor> found;
    for_each_tensor([&](hydrodynamic_tensor key, auto e) {
        if (name == decltype(e)::name) found = key;
    });
    return found;
}

inline double tensor_term_allowance(hydrodynamic_tensor t) {
    double k = 0.0;
    for_each_tensor([&](hydrodynamic_tensor key, auto e) {
        if (key == t) k = decltype(e)::term_allowance;
    });
    return k;
}

}  // namespace stokesian
