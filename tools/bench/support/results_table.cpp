#include "results_table.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "bench_hdf5.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian::bench {

namespace hdf5 = io::hdf5;

results_table::results_table(std::vector<column> columns)
    : columns_(std::move(columns)), numbers_(columns_.size()), texts_(columns_.size()) {}

std::size_t results_table::index_of(const std::string& name) const {
    for (std::size_t k = 0; k < columns_.size(); ++k)
        if (columns_[k].name == name) return k;
    throw std::logic_error("results table has no column '" + name + "'");
}

void results_table::add_row(const std::map<std::string, cell>& values) {
    for (const auto& [name, value] : values) {
        const std::size_t k = index_of(name);
        const bool is_number = std::holds_alternative<double>(value);
        if (is_number != (columns_[k].type == kind::number))
            throw std::logic_error("results table: wrong kind of value for column '" + name + "'");
    }
    for (std::size_t k = 0; k < columns_.size(); ++k) {
        const auto found = values.find(columns_[k].name);
        if (columns_[k].type == kind::number)
            numbers_[k].push_back(found == values.end() ? std::numeric_limits<double>::quiet_NaN()
                                                        : std::get<double>(found->second));
        else texts_[k].push_back(found == values.end() ? std::string() : std::get<std::string>(found->second));
    }
    ++rows_;
}

const std::vector<double>& results_table::numbers(const std::string& name) const {
    const std::size_t k = index_of(name);
    if (columns_[k].type != kind::number) throw std::logic_error("column '" + name + "' holds texts");
    return numbers_[k];
}

const std::vector<std::string>& results_table::texts(const std::string& name) const {
    const std::size_t k = index_of(name);
    if (columns_[k].type != kind::text) throw std::logic_error("column '" + name + "' holds numbers");
    return texts_[k];
}

namespace {

std::string csv_text(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string quoted = "\"";
    for (char c : s) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string csv_number(double x) {
    if (std::isnan(x)) return "nan";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", x);
    return buf;
}

}  // namespace

std::string results_table::csv() const {
    std::ostringstream out;
    for (std::size_t k = 0; k < columns_.size(); ++k) out << (k ? "," : "") << csv_text(columns_[k].name);
    out << '\n';
    for (std::size_t r = 0; r < rows_; ++r) {
        for (std::size_t k = 0; k < columns_.size(); ++k)
            out << (k ? "," : "")
                << (columns_[k].type == kind::number ? csv_number(numbers_[k][r]) : csv_text(texts_[k][r]));
        out << '\n';
    }
    return out.str();
}

void results_table::write_csv(const std::filesystem::path& path) const { io::write_file_atomically(path, csv()); }

void write_tables_h5(const std::filesystem::path& path,
                     const std::vector<std::pair<std::string, const results_table*>>& tables,
                     const std::map<std::string, std::string>& attributes) {
    const hdf5::error_silencer quiet;
    try {
        hdf5::file file(
            hdf5::check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "creating the file"));
        for (const auto& [name, value] : attributes) h5::write_string_attribute(file.get(), name, value);
        for (const auto& [group_name, table] : tables) {
            const hdf5::group group(
                hdf5::check(H5Gcreate2(file.get(), group_name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                            "creating group " + group_name));
            for (const auto& c : table->columns()) {
                if (c.type == results_table::kind::number)
                    h5::write_doubles(group.get(), c.name, {table->rows()}, table->numbers(c.name));
                else h5::write_strings(group.get(), c.name, table->texts(c.name));
            }
        }
        if (!file.reset()) throw std::runtime_error("closing the file failed");
    } catch (const std::runtime_error& e) {
        throw input_error(path.string(), "", "", e.what());
    }
}

}  // namespace stokesian::bench
