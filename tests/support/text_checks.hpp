#pragma once
// Small helpers that several CLI tests use on text and argument lists.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace stokesian::test_support {

// The number of '\n' in `s`.
inline std::size_t line_count(const std::string& s) { return std::size_t(std::count(s.begin(), s.end(), '\n')); }

// How often `what` occurs in `text`, without overlaps.
inline std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// `head` followed by `tail`.
inline std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

// Whether the Debian python3 can draw a study's plots (ci/setup installs matplotlib, h5py, numpy).
inline bool plotting_available() {
    return std::system("/usr/bin/python3 -c 'import matplotlib, h5py, numpy' >/dev/null 2>&1") == 0;
}

}  // namespace stokesian::test_support
