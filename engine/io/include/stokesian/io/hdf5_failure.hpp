#pragma once
// What a failed HDF5 call tells a user. HDF5's file drivers describe a failure of the operating
// system in one long text with a line break: "file write failed: time = Thu Nov 26 ...\n,
// filename = 'x.h5.partial', file descriptor = 3, errno = 28, error message = 'No space left on
// device', buf = 0x..., ...". A full device, a spent quota or the process's file size limit is
// the environment's fault (exit code 2, "no space left on device: x.h5.partial"), anything else
// stays a runtime failure; both are one line.
#include <optional>
#include <string>
#include <string_view>

namespace stokesian::io::hdf5 {

struct os_failure {
    std::string file;      // as HDF5 names it ("" when it does not)
    int error_number = 0;  // errno
};

// The errno and file of a driver's description, when it has them.
std::optional<os_failure> os_failure_in(std::string_view description);

// The description on one line: a driver's failure as "file write failed: 'FILE': No space left on
// device", anything else with its line breaks turned into spaces.
std::string one_line_reason(std::string_view description);

// Throws for a failed HDF5 call `what` whose error stack said `description`:
// no_space_error("no space left on device: FILE (HDF5: WHAT)") for ENOSPC, EDQUOT and EFBIG,
// otherwise std::runtime_error("HDF5: WHAT: REASON").
[[noreturn]] void throw_failure(std::string_view what, std::string_view description);

// Throws no_space_error("file too large: FILE (WHAT)") when `error_number` says the device, the
// quota or the file size limit is spent; returns otherwise. For writes outside HDF5 (frame journal).
void throw_if_out_of_space(int error_number, const std::string& file, std::string_view what);

}  // namespace stokesian::io::hdf5
