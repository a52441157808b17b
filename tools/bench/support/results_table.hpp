#pragma once
// A small column-oriented results table for the benchmarks: written as CSV (one row per
// measurement) and as HDF5 (one dataset per column under a group, provenance as string attributes
// of the root group), which tools/plot/plot_bench.py reads with h5py.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace stokesian::bench {

using cell = std::variant<double, std::string>;

class results_table {
public:
    enum class kind { number, text };
    struct column {
        std::string name;
        kind type;
    };

    explicit results_table(std::vector<column> columns);

    // Columns missing from `values` get NaN or ""; a name that is not a column, or a value of the
    // wrong kind, throws std::logic_error (a bug in the caller, not bad input).
    void add_row(const std::map<std::string, cell>& values);

    std::size_t rows() const noexcept { return rows_; }
    const std::vector<column>& columns() const noexcept { return columns_; }
    const std::vector<double>& numbers(const std::string& name) const;
    const std::vector<std::string>& texts(const std::string& name) const;

    // Header line, then one line per row; numbers with 9 significant digits ("nan" for NaN),
    // texts quoted when they contain a comma, a quote or a newline.
    std::string csv() const;
    // csv() written atomically (io::write_file_atomically: a failed write is an input_error).
    void write_csv(const std::filesystem::path& path) const;

private:
    std::size_t index_of(const std::string& name) const;

    std::vector<column> columns_;
    std::vector<std::vector<double>> numbers_;     // per column (empty for text columns)
    std::vector<std::vector<std::string>> texts_;  // per column (empty for number columns)
    std::size_t rows_ = 0;
};

// One HDF5 file: each table under /<group>/<column> (float64 or variable-length UTF-8 strings,
// shape [rows]); `attributes` as string attributes of the root group. Replaces an existing file.
// Throws input_error naming the path when it cannot be written.
void write_tables_h5(const std::filesystem::path& path,
                     const std::vector<std::pair<std::string, const results_table*>>& tables,
                     const std::map<std::string, std::string>& attributes);

}  // namespace stokesian::bench
