// libFuzzer target: the checkpoint reader on a file written from the fuzz input, and, for a
// checkpoint it accepts, rebuilding the run's scenario from it (what `run --resume OUTPUT` does).
// Broken files must give input_error, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/run/run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const stokesian::fuzz::input_file file(data, size, ".checkpoint");
    try {
        const stokesian::io::run_checkpoint c = stokesian::io::read_checkpoint(file.path());
        (void)stokesian::scenario_from_checkpoint(c, file.path());
    } catch (const stokesian::input_error&) {}
    return 0;
}
