// libFuzzer target: io::h5md_file on a file written from the fuzz input, used the way
// `stokesian analyze` and the resume checks use it: every group listed, every dataset's shape and
// values read, every object's string attributes. Broken files must give input_error, nothing else.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_input_file.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/h5md.hpp"

namespace {

// Depth-first over the groups (links may form cycles through hard links: the depth is bounded).
void visit(const stokesian::io::h5md_file& f, const std::string& group, int depth) {
    if (depth > 8) return;
    for (const std::string& name : f.list(group)) {
        const std::string path = (group == "/" ? "" : group) + "/" + name;
        (void)f.string_attributes(path);
        if (f.is_group(path)) {
            visit(f, path, depth + 1);
        } else {
            (void)f.shape(path);
            (void)f.read_doubles(path);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const stokesian::fuzz::input_file file(data, size, ".h5");
    try {
        const stokesian::io::h5md_file f(file.path());
        (void)f.string_attribute("/h5md", "version");
        visit(f, "/", 0);
    } catch (const stokesian::input_error&) {
    }
    return 0;
}
