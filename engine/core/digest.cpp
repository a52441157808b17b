// FNV-1a 64 (digest.hpp).
#include "stokesian/core/digest.hpp"

#include <cstdio>

namespace stokesian {

namespace {

constexpr std::uint64_t fnv_prime = 1099511628211ull;
constexpr std::uint64_t fnv_offset_basis = 14695981039346656037ull;

}  // namespace

std::string digest_tag_problem(const std::optional<std::string>& tag) {
    const std::string expected = std::string("(expected '") + digest_algorithm_tag + "')";
    if (!tag)
        return std::string("has no ") + digest_algorithm_key +
               ": its digests are of no algorithm this stokesian verifies " + expected;
    if (*tag == digest_algorithm_tag) return "";
    return std::string(digest_algorithm_key) + " names no digest algorithm this stokesian knows " + expected;
}

digest_builder::digest_builder() : hash_(fnv_offset_basis) {}

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

std::string text_digest(std::string_view text) { return digest_builder().text(text).hex(); }

}  // namespace stokesian
