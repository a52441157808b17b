// libFuzzer target: io::h5md_file on a file of the raw fuzz input, used the way `stokesian
// analyze` and the resume checks use it (h5md_walk.hpp). Broken files must give input_error,
// nothing else. This fuzzes HDF5 1.10's own parser as much as ours: label long only
// (engine/docs/reliability.md, "Fuzzing").
#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.hpp"
#include "h5md_walk.hpp"
#include "stokesian/core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const stokesian::fuzz::input_file file(data, size, ".h5");
    try {
        const stokesian::io::h5md_file f(file.path());
        (void)f.string_attribute("/h5md", "version");
        stokesian::fuzz::walk_h5md(f);
    } catch (const stokesian::input_error&) {}
    return 0;
}
