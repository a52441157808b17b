#pragma once
// Shared by the tests of where the CLI writes (quick_output_safety_test.cpp,
// quick_output_identity_test.cpp; engine/docs/reliability.md, "Outputs, locks and names"): the
// one-line refusal every violation of the output rule is, a file's bytes, a short result and a
// reference directory recorded from it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/build_paths.hpp"
#include "support/cli_expectations.hpp"
#include "support/cli_process.hpp"

namespace output_rule {

using stokesian::test_support::expect_one_line_exit_two;

namespace fs = std::filesystem;
using stokesian::test_support::cli_outcome;
using stokesian::test_support::run_cli;

using ::stokesian::test_support::tetrahedron_toml;

inline std::string bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A short completed tetrahedron result at `out`.
inline fs::path short_result(const fs::path& out, const fs::path& capture_dir) {
    const cli_outcome o = run_cli({"run", tetrahedron_toml, "--time", "1", "-o", out.string()}, capture_dir);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return out;
}

// A reference directory holding an entry for `result` (recorded from it), so that `reference check`
// gets past its inputs (a missing reference file is exit 2 by itself) to the reports under test.
inline fs::path references_recorded_from(const fs::path& result, const fs::path& dir, const fs::path& capture_dir) {
    const fs::path references = dir / "references";
    const std::string checks =
        std::string(::stokesian::test_support::project_source_dir) + "/reference_data/checks.toml";
    const cli_outcome o =
        run_cli({"reference", "record", result.string(), "--reference-dir", references.string(), "--checks", checks},
                capture_dir);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return references;
}

// Waits up to 20 s for a file another process writes (a live run's checkpoint or lock).
inline bool wait_for(const fs::path& path) {
    return stokesian::test_support::wait_for_file(path, std::chrono::seconds(20));
}

}  // namespace output_rule
