#pragma once
// Content digests: FNV-1a, 64 bit (Fowler, Noll, Vo: offset basis 14695981039346656037, prime
// 1099511628211), written as 16 lower-case hexadecimal digits. One implementation for every digest
// the project stores: final states, trajectory frames, checkpoints, scenario texts and
// fingerprints, initial positions.
//
// Every file that stores digests names their algorithm next to them: an attribute (or run-record
// field) `digest_algorithm = "fnv1a64"`. Files written before issue #17 have no such tag; their
// digests were made with an offset basis that had lost its last digit (1469598103934665603), which
// is not FNV-1a. Readers take a missing tag for that legacy basis and verify with it, so the
// checkpoints, results and references written before stay readable and comparable.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stokesian {

enum class digest_algorithm {
    fnv1a64,         // FNV-1a 64: what is written now
    legacy_fnv1a64,  // FNV-1a's prime with the truncated offset basis: files without a tag
};

// What new files are written with.
inline constexpr digest_algorithm current_digest_algorithm = digest_algorithm::fnv1a64;

// The name of the tag that says which algorithm made a file's digests.
inline constexpr const char* digest_algorithm_key = "digest_algorithm";

// The tag stored for `algorithm`: "fnv1a64". The legacy algorithm has none (its mark is the
// absence of a tag): "" for it.
std::string digest_tag(digest_algorithm algorithm);

// The algorithm a stored tag names: no tag -> the legacy basis; "fnv1a64" -> FNV-1a 64; any other
// text -> nothing (a damaged file, or one of a later stokesian): the caller reports it.
std::optional<digest_algorithm> digest_algorithm_of(const std::optional<std::string>& tag);

// Digests bytes fed in any number of pieces.
class digest_builder {
public:
    explicit digest_builder(digest_algorithm algorithm = current_digest_algorithm);
    digest_builder& bytes(const void* data, std::size_t size);
    digest_builder& text(std::string_view text) { return bytes(text.data(), text.size()); }
    std::uint64_t value() const { return hash_; }
    std::string hex() const;  // 16 lower-case hexadecimal digits

private:
    std::uint64_t hash_;
};

// The digest of a text's bytes, as 16 hexadecimal digits.
std::string text_digest(std::string_view text, digest_algorithm algorithm = current_digest_algorithm);

}  // namespace stokesian
