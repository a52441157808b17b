#pragma once
// RAII ownership of HDF5 identifiers and the few helpers the H5MD writer and reader share.
// HDF5's C API reports failure with a negative return value and prints an error stack to stderr;
// we switch the printing off (error_silencer) and turn failures into exceptions with one line
// (check), so a user never sees an HDF5 stack trace.
#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stokesian/io/hdf5_failure.hpp"

namespace stokesian::io::hdf5 {

// Owns one identifier and closes it with `Close` (H5Fclose, H5Dclose, ...).
template <herr_t (*Close)(hid_t)>
class handle {
public:
    handle() = default;
    explicit handle(hid_t id) : id_(id) {}
    ~handle() { reset(); }
    handle(handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
    handle& operator=(handle&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, H5I_INVALID_HID);
        }
        return *this;
    }
    handle(const handle&) = delete;
    handle& operator=(const handle&) = delete;

    hid_t get() const noexcept { return id_; }
    explicit operator bool() const noexcept { return id_ >= 0; }

    // Closes now; returns false when HDF5 reports a failure (callers that must know, e.g. the
    // final H5Fclose before the rename, check it; destructors cannot and ignore it).
    bool reset() noexcept {
        bool ok = true;
        if (id_ >= 0) ok = Close(id_) >= 0;
        id_ = H5I_INVALID_HID;
        return ok;
    }

private:
    hid_t id_ = H5I_INVALID_HID;
};

using file = handle<H5Fclose>;
using group = handle<H5Gclose>;
using dataset = handle<H5Dclose>;
using dataspace = handle<H5Sclose>;
using datatype = handle<H5Tclose>;
using property_list = handle<H5Pclose>;
using attribute = handle<H5Aclose>;
using object = handle<H5Oclose>;

// The innermost description of HDF5's current error stack ("unable to open file", "truncated
// file: eof = ...", a file driver's multi-line report, ...). Clears the stack.
inline std::string last_error_description() {
    std::string message;
    auto innermost = [](unsigned n, const H5E_error2_t* error, void* out) -> herr_t {
        if (n == 0 && error->desc != nullptr) *static_cast<std::string*>(out) = error->desc;
        return 0;
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &message);
    H5Eclear2(H5E_DEFAULT);
    return message;
}

// The most specific reason, fit for one line (hdf5_failure.hpp). Clears the stack.
inline std::string last_error() { return one_line_reason(last_error_description()); }

// Throws when `result` is negative: std::runtime_error("HDF5: <what>: <reason>"), or
// no_space_error for a full device (hdf5_failure.hpp).
template <class T>
T check(T result, std::string_view what) {
    if (result < 0) throw_failure(what, last_error_description());
    return result;
}

// HDF5 registers an atexit handler that shuts the library down. After reading some damaged files
// (metadata that never becomes free) that shutdown loops and prints a multi-line "infinite loop
// closing library" report on stderr, breaking the one-line error. Every file this program opens is
// closed by the handles above before it exits, so the shutdown has nothing left to do: it is
// switched off once, before the library initialises (a no-op if something initialised it first).
inline void skip_library_shutdown_at_exit() noexcept {
    static const bool done = [] {
        H5dont_atexit();
        return true;
    }();
    (void)done;
}

// Switches HDF5's automatic error printing off for the current thread (the error stack is
// per-thread in thread-safe builds) and restores whatever was set before when it goes.
class error_silencer {
public:
    error_silencer() {
        skip_library_shutdown_at_exit();
        H5Eget_auto2(H5E_DEFAULT, &previous_function_, &previous_data_);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~error_silencer() { H5Eset_auto2(H5E_DEFAULT, previous_function_, previous_data_); }
    error_silencer(const error_silencer&) = delete;
    error_silencer& operator=(const error_silencer&) = delete;

private:
    H5E_auto2_t previous_function_ = nullptr;
    void* previous_data_ = nullptr;
};

// "/a/b//c/" -> {"a", "b", "c"}.
inline std::vector<std::string> path_components(std::string_view path) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin < path.size()) {
        std::size_t end = path.find('/', begin);
        if (end == std::string_view::npos) end = path.size();
        if (end > begin) parts.emplace_back(path.substr(begin, end - begin));
        begin = end + 1;
    }
    return parts;
}

// Opens an existing file read-only for a reader (H5MD results, checkpoints, reference files, bench
// inputs): every file the project reads is opened here (engine/io/hdf5_reading.cpp).
//  - External links are never followed, from this file or any other the process opens: HDF5 would
//    open the file a link names (a FIFO there blocks the reader for ever; another file's objects
//    would pass for this one's). Their traversal fails instead, naming the link and its target.
//  - A file another process is writing (it holds HDF5's lock on the file) is an input_error saying
//    so, naming the run where its lock file (file_lock.hpp) does: it is not damaged, and a file
//    written without SWMR is not safe to read while it changes.
// Returns the file's identifier, or a negative one with HDF5's error stack saying why.
hid_t open_for_reading(const std::filesystem::path& path);

// Refused external links are recorded per thread: clear the record, make HDF5 calls on `location`
// (an object of a file open_for_reading opened), then throw_if_external_link_refused throws
// input_error naming the file, the link and its target if one of them met such a link (and clears
// the record); it returns otherwise, HDF5's error stack left as it was.
void clear_external_link_refusal() noexcept;
void throw_if_external_link_refused(hid_t location);

// Whether `path` (relative to `location`) names an existing object. H5Lexists only accepts a
// path whose parents exist, so we walk it one component at a time; H5Oexists_by_name then
// rejects dangling soft links. An external link on the way is an input_error (see above).
inline bool object_exists(hid_t location, std::string_view path) {
    std::string prefix = path.starts_with('/') ? "/" : "";
    const std::vector<std::string> parts = path_components(path);
    if (parts.empty()) return true;  // the location itself
    for (const std::string& part : parts) {
        prefix += part;
        if (H5Lexists(location, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        clear_external_link_refusal();
        if (H5Oexists_by_name(location, prefix.c_str(), H5P_DEFAULT) <= 0) {
            throw_if_external_link_refused(location);
            return false;
        }
        prefix += '/';
    }
    return true;
}

// Variable-length UTF-8 string type: h5py reads it as `str`, and its payload lives in the global
// heap, so long values (scenario text, configuration) never hit the 64 KiB attribute limit.
inline datatype utf8_string_type() {
    datatype type(check(H5Tcopy(H5T_C_S1), "copying the string type"));
    check(H5Tset_size(type.get(), H5T_VARIABLE), "making a variable-length string type");
    check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "setting the string character set");
    return type;
}

}  // namespace stokesian::io::hdf5
