#pragma once
// Bitwise comparison of two H5MD outputs, for the checkpoint and resume tests: every dataset
// under /particles, /observables and /analysis (shape and bits; NaNs with the same payload are
// equal), and the same set of objects. /parameters is provenance (wall time, command line) and
// differs between an uninterrupted run and a resumed one by design.
#include <cstring>
#include <string>
#include <vector>

#include "stokesian/io/h5md.hpp"

namespace stokesian::test_support {

// Datasets below `group` (recursively), as paths.
inline void collect_datasets(const io::h5md_file& f, const std::string& group, std::vector<std::string>& out) {
    for (const std::string& name : f.list(group)) {
        const std::string path = group + "/" + name;
        if (f.is_group(path)) collect_datasets(f, path, out);
        else out.push_back(path);
    }
}

// "" when the files agree bit for bit outside /parameters; otherwise the first difference.
inline std::string first_difference(const std::string& a_path, const std::string& b_path) {
    const io::h5md_file a(a_path), b(b_path);
    for (const char* group : {"/particles", "/observables", "/analysis"}) {
        const bool in_a = a.exists(group), in_b = b.exists(group);
        if (in_a != in_b) return std::string(group) + " exists in only one file";
        if (!in_a) continue;
        std::vector<std::string> da, db;
        collect_datasets(a, group, da);
        collect_datasets(b, group, db);
        if (da != db) return std::string("different datasets under ") + group;
        for (const std::string& path : da) {
            if (a.shape(path) != b.shape(path)) return path + ": different shapes";
            const std::vector<double> x = a.read_doubles(path), y = b.read_doubles(path);
            if (x.size() != y.size() || (!x.empty() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0))
                return path + ": different values";
        }
    }
    return "";
}

}  // namespace stokesian::test_support
