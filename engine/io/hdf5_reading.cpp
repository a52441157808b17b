// Opening HDF5 files for the readers (stokesian/io/hdf5_handles.hpp: open_for_reading): external
// links refused, a file being written named as such.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/file_lock.hpp"
#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::io::hdf5 {

namespace fs = std::filesystem;

namespace {

// The last refusal below in this thread, until taken. HDF5's error stack cannot carry it to
// object_exists: a call that only asks whether an object exists (H5Oexists_by_name) clears the
// stack of a failed traversal and answers "no".
thread_local std::string last_refusal;

// The traversal of an external link: instead of opening the file the link names, fails, naming the
// link and its target.
hid_t refuse_external_link(const char* link_name, hid_t group, const void* value, size_t size, hid_t, hid_t) {
    std::string where = std::string("/") + link_name;
    if (const ssize_t length = H5Iget_name(group, nullptr, 0); length > 1) {
        std::string group_path(static_cast<std::size_t>(length), '\0');
        H5Iget_name(group, group_path.data(), group_path.size() + 1);
        where = group_path + where;
    }
    std::string target = "another file";
    unsigned flags = 0;
    const char *file = nullptr, *object = nullptr;
    if (H5Lunpack_elink_val(value, size, &flags, &file, &object) >= 0 && file != nullptr && object != nullptr)
        target = "'" + echoed(object) + "' in '" + echoed(file) + "'";
    H5Eclear2(H5E_DEFAULT);  // what the calls above may have left
    last_refusal = "external link '" + echoed(where) + "' to " + target +
                   ": not followed (a file is read for the objects it holds itself)";
    // For the callers that give HDF5's innermost error as the reason (hdf5::last_error).
    H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_LINK, H5E_TRAVERSE, "%s",
             last_refusal.c_str());
    return H5I_INVALID_HID;
}

// HDF5 implements external links as a class of user-defined links (H5L_TYPE_EXTERNAL), which
// H5Lregister may replace: for the whole process, since no reader wants another file's objects.
// Links keep their value (query), so they can still be listed, described and copied.
ssize_t external_link_value(const char*, const void* value, size_t size, void* buffer, size_t buffer_size) {
    if (buffer != nullptr) std::memcpy(buffer, value, std::min(size, buffer_size));
    return static_cast<ssize_t>(size);
}

void refuse_external_links() {
    static const bool done = [] {
        skip_library_shutdown_at_exit();
        H5L_class_t refusing{};
        refusing.version = H5L_LINK_CLASS_T_VERS;
        refusing.id = H5L_TYPE_EXTERNAL;
        refusing.comment = "external link, not followed";
        refusing.trav_func = refuse_external_link;
        refusing.query_func = external_link_value;
        check(H5Lregister(&refusing), "replacing the external link class");
        return true;
    }();
    (void)done;
}

// Whether another process holds a lock on `path` that excludes readers: HDF5 1.10 holds flock(2)
// LOCK_EX on a file it writes for as long as the file is open.
bool written_by_another_process(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);  // and with it a lock this took
    return held;
}

// A run writes OUTPUT.partial under the lock of OUTPUT (file_lock.hpp), whose file names its PID.
std::string in_use_reason(const fs::path& path) {
    fs::path output = path;
    if (output.extension() == ".partial") output.replace_extension();
    const std::string holder = file_lock::recorded_holder(output);
    if (holder.empty())
        return "in use: another process is writing it (it holds HDF5's lock on the file); read it when that "
               "process has finished";
    return "in use: the run of process " + holder + " is writing it (lock '" +
           file_lock::lock_path_for(output).string() + "'); read it when that run has ended";
}

}  // namespace

hid_t open_for_reading(const fs::path& path) {
    refuse_external_links();
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id < 0 && written_by_another_process(path)) {
        last_error();  // clear the stack
        throw input_error(path.string(), "", "", in_use_reason(path));
    }
    return id;
}

void clear_external_link_refusal() noexcept { last_refusal.clear(); }

void throw_if_external_link_refused(hid_t location) {
    if (last_refusal.empty()) return;
    const std::string refusal = std::exchange(last_refusal, {});
    last_error();  // clear the stack
    std::string name = "an HDF5 file";
    if (const ssize_t length = H5Fget_name(location, nullptr, 0); length > 0) {
        name.assign(static_cast<std::size_t>(length), '\0');
        H5Fget_name(location, name.data(), name.size() + 1);
    }
    throw input_error(name, "", "", refusal);
}

}  // namespace stokesian::io::hdf5
