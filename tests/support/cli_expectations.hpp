#pragma once
// What every refusal of the CLI looks like (docs/reference/exit-codes.md: bad input is one line naming
// what is wrong, exit code 2): one test for all CLI tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/cli_process.hpp"

namespace stokesian::test_support {

// `o` is a refusal: exit code 2, one line on stderr starting "stokesian: ", containing `expected`, no
// HDF5 error stack. `what` names the case in failure messages (stderr shown shortened).
inline void expect_one_line_exit_two(const cli_outcome& o, const std::string& expected, const std::string& what) {
    const std::string err = o.err.substr(0, 2000);
    EXPECT_EQ(o.exit_code, 2) << what << ": " << err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": not one line: " << err;
    EXPECT_EQ(o.err.rfind("stokesian: ", 0), 0u) << what << ": " << err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << what << ": expected '" << expected << "' in: " << err;
    EXPECT_EQ(o.err.find("HDF5-DIAG"), std::string::npos) << what << ": HDF5's error stack leaked: " << err;
}

}  // namespace stokesian::test_support
