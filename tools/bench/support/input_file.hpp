#pragma once
// Read access to the numeric datasets of any HDF5 file (plain datasets or H5MD groups), for
// `stokesian bench fcc --input`. io::h5md_file reads H5MD files only (it requires /h5md); inputs
// from other codes are often plain HDF5. Every failure is an input_error of one line naming the file.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stokesian::bench {

class input_file {
public:
    explicit input_file(const std::filesystem::path& path);
    ~input_file();
    input_file(const input_file&) = delete;
    input_file& operator=(const input_file&) = delete;

    bool has_dataset(const std::string& dataset_path) const;
    std::vector<std::size_t> shape(const std::string& dataset_path) const;
    std::vector<double> read_doubles(const std::string& dataset_path) const;  // flattened, row-major
    // A scalar string attribute of the root group (provenance), if there is one.
    std::optional<std::string> root_attribute(const std::string& name) const;
    const std::string& name() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace stokesian::bench
