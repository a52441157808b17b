// The digests the project stores are FNV-1a 64: the published test vectors through every interface
// that stores one, and the one tag that names them (a file without it is refused:
// checkpoint_file_test.cpp, damaged_result_test.cpp, regression_store_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

// FNV-1a 64 as its authors define it (offset basis 14695981039346656037, prime 1099511628211),
// written out here independently of the engine's, over the bytes of several pieces in a row.
struct reference_fnv1a64 {
    std::uint64_t hash = 14695981039346656037ull;
    void feed(const void* data, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
    }
    std::string hex() const {
        char text[24];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
        return text;
    }
};

std::string reference_digest(std::string_view text) {
    reference_fnv1a64 h;
    h.feed(text.data(), text.size());
    return h.hex();
}

// Published FNV-1a 64 test vectors (the FNV authors' test suite).
struct vector_case {
    const char* text;
    const char* digest;
};
constexpr vector_case published[] = {
    {"", "cbf29ce484222325"}, {"a", "af63dc4c8601ec8c"}, {"foobar", "85944171f73967e8"}};

}  // namespace

TEST(Digest, TheReferenceImplementationMatchesThePublishedVectors) {
    for (const vector_case& v : published) EXPECT_EQ(reference_digest(v.text), v.digest) << '"' << v.text << '"';
}

TEST(Digest, TextDigestsAreFnv1a64) {
    for (const vector_case& v : published) EXPECT_EQ(text_digest(v.text), v.digest) << '"' << v.text << '"';
}

// The scenario text's digest that checkpoints record (run_record) and the scenario fingerprint that
// references record (a text that is no TOML is hashed as it is).
TEST(Digest, ScenarioTextDigestAndFingerprintAreFnv1a64) {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    for (const vector_case& v : published) {
        s.source_text = v.text;
        EXPECT_EQ(run_record(s).at("scenario_text_fnv1a64"), v.digest) << '"' << v.text << '"';
    }
    EXPECT_EQ(regression::scenario_fingerprint("a"), "af63dc4c8601ec8c");
}

// Frame digests (resume's check of the partial output) and final-state digests (the results' and
// references' bit-for-bit verdict): FNV-1a 64 over the bytes in the documented order.
TEST(Digest, FrameAndStateDigestsAreFnv1a64OfTheirBytes) {
    const std::int64_t step = 1234;
    const double time = 12.34;
    const std::vector<double> positions{1.0, -0.0, 3.5, 1e-300, -7.25, 0.1};
    reference_fnv1a64 frame_reference;
    frame_reference.feed(&step, sizeof step);
    frame_reference.feed(&time, sizeof time);
    frame_reference.feed(positions.data(), positions.size() * sizeof(double));
    EXPECT_EQ(io::trajectory_digest(step, time, positions), frame_reference.hex());

    frame f;
    f.position = {{1.0, 2.0, 3.0}, {-4.0, 0.5, 1e-10}};
    f.image = {{0, -1, 2}, {3, 0, 0}};
    f.velocity = {{0.25, -0.0, 7.0}, {1.0 / 3.0, 0.0, -1.0}};
    reference_fnv1a64 state_reference;
    state_reference.feed(f.position.data(), f.position.size() * sizeof(f.position[0]));
    state_reference.feed(f.image.data(), f.image.size() * sizeof(f.image[0]));
    state_reference.feed(f.velocity.data(), f.velocity.size() * sizeof(f.velocity[0]));
    EXPECT_EQ(state_digest(f), state_reference.hex());
}

// Digests built in pieces equal the digest of the whole.
TEST(Digest, PiecesDigestAsTheWhole) {
    EXPECT_EQ(digest_builder().text("foo").text("bar").hex(), text_digest("foobar"));
}

// One tag names the one algorithm; no tag (a file of the retired basis) or another is a problem in
// words, for the one-line refusal of the file that carries it.
TEST(Digest, OnlyTheOneTagIsReadable) {
    EXPECT_STREQ(digest_algorithm_tag, "fnv1a64");
    EXPECT_EQ(digest_tag_problem(std::string("fnv1a64")), "");
    EXPECT_EQ(digest_tag_problem(std::nullopt),
              "has no digest_algorithm: its digests are of no algorithm this stokesian verifies (expected 'fnv1a64')");
    for (const char* other : {"xxh3", ""}) {
        const std::string problem = digest_tag_problem(std::string(other));
        EXPECT_NE(problem.find("names no digest algorithm this stokesian knows (expected 'fnv1a64')"),
                  std::string::npos)
            << other;
        EXPECT_EQ(problem.find('\n'), std::string::npos);
    }
}
