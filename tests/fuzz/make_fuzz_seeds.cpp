// Writes the seed corpora of the HDF5 fuzzers: the valid files and the whole broken-file corpus
// (tests/inputs/hdf5/bad_hdf5_corpus.hpp), sorted by reader: OUT/h5md and OUT/checkpoint.
//   stokesian_fuzz_seeds OUT
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "inputs/hdf5/bad_hdf5_corpus.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: stokesian_fuzz_seeds OUT\n";
        return 2;
    }
    const fs::path out = argv[1], work = out / "corpus";
    fs::remove_all(out);
    const auto cases = stokesian::test_inputs::write_bad_hdf5_corpus(work);
    fs::create_directories(out / "h5md");
    fs::create_directories(out / "checkpoint");
    std::size_t count = 0;
    // Every regular file of the corpus goes to both readers: a checkpoint is a valid HDF5 file
    // that is not H5MD, and an H5MD file a valid HDF5 file that is not a checkpoint.
    for (const auto& entry : fs::recursive_directory_iterator(work)) {
        if (!entry.is_regular_file()) continue;
        const std::string name = fs::relative(entry.path(), work).string();
        std::string flat = name;
        for (char& c : flat)
            if (c == '/') c = '_';
        fs::copy_file(entry.path(), out / "h5md" / flat);
        fs::copy_file(entry.path(), out / "checkpoint" / flat);
        ++count;
    }
    fs::remove_all(work);
    std::cout << "stokesian_fuzz_seeds: " << count << " files from " << cases.size() << " cases\n";
    return 0;
}
