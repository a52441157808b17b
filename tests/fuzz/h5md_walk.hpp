#pragma once
// Everything `stokesian analyze` and the resume checks do with an H5MD file, for the fuzz targets:
// every group listed, every dataset's shape and values read, every object's string attributes.
#include <string>

#include "stokesian/io/h5md.hpp"

namespace stokesian::fuzz {

// Depth-first over the groups (hard links may form cycles: the depth is bounded).
inline void walk_h5md(const io::h5md_file& f, const std::string& group = "/", int depth = 0) {
    if (depth > 8) return;
    for (const std::string& name : f.list(group)) {
        const std::string path = (group == "/" ? "" : group) + "/" + name;
        (void)f.string_attributes(path);
        if (f.is_group(path)) {
            walk_h5md(f, path, depth + 1);
        } else {
            (void)f.shape(path);
            (void)f.read_doubles(path);
        }
    }
}

}  // namespace stokesian::fuzz
