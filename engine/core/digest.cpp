// FNV-1a 64 and the legacy basis of the files written before issue #17 (digest.hpp).
#include "stokesian/core/digest.hpp"

#include <cstdio>

namespace stokesian {

namespace {

constexpr std::uint64_t fnv_prime = 1099511628211ull;
constexpr std::uint64_t fnv_offset_basis = 14695981039346656037ull;
// The basis the digests of earlier files were made with: fnv_offset_basis with its last digit
// lost. Kept only to verify those files.
constexpr std::uint64_t legacy_offset_basis = 1469598103934665603ull;

constexpr const char* fnv1a64_tag = "fnv1a64";

}  // namespace

std::string digest_tag(digest_algorithm algorithm) { return algorithm == digest_algorithm::fnv1a64 ? fnv1a64_tag : ""; }

std::optional<digest_algorithm> digest_algorithm_of(const std::optional<std::string>& tag) {
    if (!tag) return digest_algorithm::legacy_fnv1a64;
    if (*tag == fnv1a64_tag) return digest_algorithm::fnv1a64;
    return std::nullopt;
}

digest_builder::digest_builder(digest_algorithm algorithm)
    : hash_(algorithm == digest_algorithm::fnv1a64 ? fnv_offset_basis : legacy_offset_basis) {}

digest_builder& digest_builder::bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        hash_ ^= p[i];
        hash_ *= fnv_prime;
    }
    return *this;
}

std::string digest_builder::hex() const {
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
    return text;
}

std::string text_digest(std::string_view text, digest_algorithm algorithm) {
    return digest_builder(algorithm).text(text).hex();
}

}  // namespace stokesian
