#pragma once
// Reading the measurement CSVs the benchmarks write (bench/support/results_table.hpp) in tests:
// fields in double quotes may hold commas (the precision modes do); lines starting with '#' before
// the header are comments (the committed measurement files begin with one).
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace stokesian::test_support {

// One CSV line's fields, quotes removed.
inline std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out{""};
    bool quoted = false;
    for (char ch : line) {
        if (ch == '"') quoted = !quoted;
        else if (ch == ',' && !quoted) out.emplace_back();
        else out.back() += ch;
    }
    return out;
}

// The header after any comment lines: column name -> index.
inline std::map<std::string, std::size_t> csv_columns(std::istream& csv) {
    std::string line;
    while (std::getline(csv, line) && (line.empty() || line[0] == '#')) {}
    std::map<std::string, std::size_t> column;
    for (const std::string& name : csv_fields(line)) column.emplace(name, column.size());
    return column;
}

// The rows after the header, each a map from the columns' names to its fields.
inline std::vector<std::map<std::string, std::string>> csv_records(std::istream& csv) {
    const std::map<std::string, std::size_t> column = csv_columns(csv);
    std::vector<std::map<std::string, std::string>> rows;
    for (std::string line; std::getline(csv, line);) {
        const std::vector<std::string> fields = csv_fields(line);
        std::map<std::string, std::string> row;
        for (const auto& [name, k] : column)
            if (k < fields.size()) row[name] = fields[k];
        rows.push_back(row);
    }
    return rows;
}

}  // namespace stokesian::test_support
