#pragma once
// The recipe proof's test-only precision (engine/README.md, "How to add a precision mode"): appended
// to the list by CMake's STOKESIAN_EXTRA_PRECISION_HEADERS, no engine file edited. Stored and summed
// in double with double pair terms, f64's types under another name, so that every mode with it must
// give f64's bits: what it proves is that the list reaches every instantiation, not new arithmetic.
namespace stokesian {

template <>
struct precision_traits<precision::t64> : precision_traits<precision::f64> {
    static constexpr std::string_view name = "t64", storage_name = "float64-t64";
    static constexpr precision working = precision::t64;
};

}  // namespace stokesian
