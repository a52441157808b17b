// libFuzzer target: the readers of stokesian's own files on well-formed HDF5 files whose content
// is fuzzed (hdf5_file_program.hpp): the H5MD walk of `stokesian analyze`, the result reader of
// `reference check` and `suite` (regression::read_observed_run, every catalogue observable), the
// study's run summary (study::read_run_summary), and the port-check record reader with a
// comparison of the record against itself (port::read_record, port::compare). Whatever the
// content, they must answer with a value or an input_error: any other exception, a crash, a
// sanitizer report, a hang or a huge allocation is a finding.
#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.hpp"
#include "h5md_walk.hpp"
#include "hdf5_file_program.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/port/port_check.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/study/study.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const stokesian::fuzz::input_file file(nullptr, 0, ".h5");
    {
        FuzzedDataProvider in(data, size);
        const stokesian::fuzz::hdf5_file_program program(in, file.path());
    }
    try {
        const stokesian::io::h5md_file f(file.path());
        stokesian::fuzz::walk_h5md(f);
    } catch (const stokesian::input_error&) {}
    try {
        (void)stokesian::regression::read_observed_run(file.path());
    } catch (const stokesian::input_error&) {}
    try {
        (void)stokesian::study::read_run_summary(file.path());
    } catch (const stokesian::input_error&) {}
    try {
        const stokesian::port::port_record r = stokesian::port::read_record(file.path());
        (void)stokesian::port::compare(r, r);
    } catch (const stokesian::input_error&) {}
    return 0;
}
