#pragma once
// A guard shared by the readers of user-supplied HDF5 files (H5MD outputs, checkpoints): before a
// dataset is read into memory, its claimed size is compared with the storage the file really
// holds for it, so a corrupted or hostile header claiming 2^40 elements gives one clear error
// instead of an allocation failure or a crash.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "stokesian/io/hdf5_handles.hpp"

namespace stokesian::io::hdf5 {

// Deflate, the strongest filter in common use, compresses by at most 1032:1; a filtered dataset
// claiming more than this many bytes per stored byte cannot be genuine.
inline constexpr double max_compression_ratio = 1032.0;
// Datasets never written (fill values only, no storage) are accepted up to this size.
inline constexpr std::uint64_t max_unstored_bytes = std::uint64_t{1} << 20;

// The number of elements of `dataset`, or a description of why it cannot be read: elements of the
// file type's size each whose total exceeds what the file stores for it (uncompressed: the storage
// itself; filtered: max_compression_ratio times it; nothing stored: max_unstored_bytes). The file
// type, not the type the reader converts to: 4-byte image counts read as 8-byte integers would
// otherwise "need" twice what a genuine file stores (an fcc run of N = 4000 was refused as damaged).
//
// Compact datasets keep their data in the object header; HDF5 1.10 copies as many bytes as the
// dataspace asks for from a buffer of the size the header claims (a damaged header: a crash,
// found by fuzzing). Their storage must be exactly elements times the file type's size.
inline std::optional<std::string> unreadable_size(hid_t dataset_id, std::uint64_t elements) {
    const datatype file_type(H5Dget_type(dataset_id));
    const long double element_bytes = static_cast<long double>(file_type ? H5Tget_size(file_type.get()) : 0);
    const long double needed = static_cast<long double>(elements) * element_bytes;
    const hsize_t stored = H5Dget_storage_size(dataset_id);
    long double allowed = static_cast<long double>(max_unstored_bytes);
    const property_list plist(H5Dget_create_plist(dataset_id));
    int filters = 0;
    if (plist) {
        filters = H5Pget_nfilters(plist.get());
        if (filters < 0) filters = 0;
        if (H5Pget_layout(plist.get()) == H5D_COMPACT) {
            last_error();
            if (static_cast<long double>(stored) != needed)
                return "is stored compactly in " + std::to_string(stored) + " bytes, but its shape and type need " +
                       std::to_string(static_cast<unsigned long long>(needed)) + " (damaged file)";
            return std::nullopt;
        }
    }
    const long double factor = filters > 0 ? static_cast<long double>(max_compression_ratio) : 1.0L;
    if (static_cast<long double>(stored) * factor > allowed) allowed = static_cast<long double>(stored) * factor;
    if (needed <= allowed) return std::nullopt;
    last_error();  // H5Dget_storage_size and H5Pget_nfilters may have left a stack behind
    return "claims " + std::to_string(elements) + " elements but the file stores only " + std::to_string(stored) +
           " bytes for it (damaged file)";
}

}  // namespace stokesian::io::hdf5
