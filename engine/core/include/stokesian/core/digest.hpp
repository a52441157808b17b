#pragma once
// Content digests: FNV-1a, 64 bit (Fowler, Noll, Vo: offset basis 14695981039346656037, prime
// 1099511628211), written as 16 lower-case hexadecimal digits. One implementation for every digest
// the project stores: final states, trajectory frames, checkpoints, scenario texts and
// fingerprints, initial positions.
//
// Every file that stores digests names their algorithm next to them: an attribute (or run-record
// field) `digest_algorithm = "fnv1a64"`. A file without it, or naming another, is refused with one
// line (digest_tag_problem): its digests cannot be verified.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stokesian {

// The name of the tag that says which algorithm made a file's digests, and its one value.
inline constexpr const char* digest_algorithm_key = "digest_algorithm";
inline constexpr const char* digest_algorithm_tag = "fnv1a64";

// Why a stored tag (nullopt: none) cannot be read, in words for a one-line message; "" for
// digest_algorithm_tag.
std::string digest_tag_problem(const std::optional<std::string>& tag);

// Digests bytes fed in any number of pieces.
class digest_builder {
public:
    digest_builder();
    digest_builder& bytes(const void* data, std::size_t size);
    digest_builder& text(std::string_view text) { return bytes(text.data(), text.size()); }
    std::uint64_t value() const { return hash_; }
    std::string hex() const;  // 16 lower-case hexadecimal digits

private:
    std::uint64_t hash_;
};

// The digest of a text's bytes, as 16 hexadecimal digits.
std::string text_digest(std::string_view text);

}  // namespace stokesian
