#pragma once
// A check of an HDF5 file's global heap before HDF5 parses it. Variable-length strings (every
// string attribute the H5MD writer writes) live in "global heap collections"; HDF5 1.10's parser
// of a collection (H5HG__cache_heap_deserialize) loops forever when an object in it claims a size
// that does not advance its cursor - a damaged file makes `stokesian analyze` hang (found by
// fuzzing; engine/docs/reliability.md). This check walks every collection exactly as that parser
// does and reports the first one it would not get through.
#include <filesystem>
#include <optional>
#include <string>

namespace stokesian::io {

// A description of the first damaged global heap collection ("global heap collection at byte
// 123456: object 3 claims 0 bytes"), or nothing. Collections are found by their signature "GCOL"
// followed by version 1 and three zero bytes and a size of at least 4096 (HDF5's minimum), which
// raw data cannot fake by chance. Files HDF5 would reject anyway (no superblock) pass unchecked.
std::optional<std::string> damaged_global_heap(const std::filesystem::path& path);

}  // namespace stokesian::io
