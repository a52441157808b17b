// Writes a reference file (reference_store.hpp): a fresh HDF5 file under a temporary name,
// flushed, synced and renamed over the old one, so readers see the old file or the new one.
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <system_error>
#include <tuple>

#include "stokesian/io/creation_probe.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/regression/reference_store.hpp"

namespace stokesian::regression {

namespace {

namespace h5 = io::hdf5;

void write_string_attribute(hid_t object, const std::string& name, const std::string& value) {
    const h5::datatype type = h5::utf8_string_type();
    const h5::dataspace space(h5::check(H5Screate(H5S_SCALAR), "creating a scalar dataspace"));
    const h5::attribute attribute(
        h5::check(H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                  "creating attribute '" + name + "'"));
    const char* text = value.c_str();
    h5::check(H5Awrite(attribute.get(), type.get(), &text), "writing attribute '" + name + "'");
}

void write_number_attribute(hid_t object, const std::string& name, const std::vector<double>& values, bool scalar) {
    const hsize_t count = values.size();
    const h5::dataspace space(
        h5::check(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), "creating a dataspace"));
    const h5::attribute attribute(
        h5::check(H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                  "creating attribute '" + name + "'"));
    h5::check(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, values.data()), "writing attribute '" + name + "'");
}

void write_value(hid_t entry, const std::string& name, const reference_value& v) {
    const hsize_t count = v.value.values.size();
    const bool scalar = v.value.scalar && count == 1;
    const h5::dataspace space(
        h5::check(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), "creating a dataspace"));
    const h5::dataset dataset(
        h5::check(H5Dcreate2(entry, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                  "creating dataset '" + name + "'"));
    if (count > 0)
        h5::check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.value.values.data()),
                  "writing dataset '" + name + "'");
    const hid_t d = dataset.get();
    write_string_attribute(d, "tolerance_kind", to_string(v.rule.kind));
    write_number_attribute(d, "tolerance", {v.rule.tolerance}, true);
    write_string_attribute(d, "rule_id", v.rule.id);
    write_string_attribute(d, "derivation", v.rule.derivation);
    write_string_attribute(d, "measured_spread", v.rule.measured_spread);
    write_string_attribute(d, "before_loss", v.rule.before_loss ? "true" : "false");
    write_number_attribute(d, "until", {v.rule.until}, true);
    if (!v.rule.window.empty()) write_number_attribute(d, "window", v.rule.window, false);
    write_string_attribute(d, "against", v.rule.against);
    write_string_attribute(d, "meaning", v.meaning);
    write_string_attribute(d, "unit", v.value.unit);
    write_number_attribute(d, "ci95_half_width", {v.value.ci95_half_width}, true);
    write_number_attribute(d, "window_length", {v.value.window_length}, true);
    if (!v.value.coordinate.empty()) write_number_attribute(d, "window_end_time", v.value.coordinate, false);
}

// The boundary states as the schema stores them (reference_data/README.md): datasets step [K] and
// words [K, W] (float64, every bit kept), attributes precision and digests (one per boundary).
void write_boundaries(hid_t entry, const boundary_states& b) {
    const h5::group group(h5::check(H5Gcreate2(entry, boundaries_group, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                    std::string("creating group ") + boundaries_group));
    std::vector<double> steps, words;
    for (std::size_t k = 0; k < b.steps.size(); ++k) {
        steps.push_back(double(b.steps[k]));
        words.insert(words.end(), b.words[k].begin(), b.words[k].end());
    }
    const std::array<hsize_t, 2> shape{b.steps.size(), b.words.front().size()};
    for (const auto& [name, values, rank] : {std::tuple{"step", &steps, 1}, std::tuple{"words", &words, 2}}) {
        const h5::dataspace space(h5::check(H5Screate_simple(rank, shape.data(), nullptr), "creating a dataspace"));
        const h5::dataset dataset(
            h5::check(H5Dcreate2(group.get(), name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      std::string("creating dataset ") + name));
        h5::check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values->data()),
                  std::string("writing dataset ") + name);
    }
    write_string_attribute(group.get(), "precision", b.precision);
    std::string digests;
    for (const std::string& d : b.digests) digests += (digests.empty() ? "" : ",") + d;
    write_string_attribute(group.get(), "digests", digests);
}

void write_entry(hid_t file, const reference_entry& e) {
    const h5::property_list create_parents(h5::check(H5Pcreate(H5P_LINK_CREATE), "creating a property list"));
    h5::check(H5Pset_create_intermediate_group(create_parents.get(), 1), "setting intermediate group creation");
    const std::string path = e.key.group_path();
    const h5::group group(h5::check(H5Gcreate2(file, path.c_str(), create_parents.get(), H5P_DEFAULT, H5P_DEFAULT),
                                    "creating group '" + path + "'"));
    for (const auto& [name, value] : e.attributes) write_string_attribute(group.get(), name, value);
    write_string_attribute(group.get(), "planned_steps", std::to_string(e.planned_steps));
    write_string_attribute(group.get(), "sample_interval_steps", std::to_string(e.sample_interval_steps));
    for (const auto& [name, value] : e.observables) write_value(group.get(), name, value);
    if (!e.boundaries.empty()) write_boundaries(group.get(), e.boundaries);
}

// Makes the temporary file durable before the rename publishes it.
void sync_file(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "opening " + path.string() + " to sync it");
    const int status = ::fsync(fd);
    ::close(fd);
    if (status != 0) throw std::system_error(errno, std::generic_category(), "syncing " + path.string());
}

}  // namespace

void write_reference_file(const std::filesystem::path& path, const reference_set& set) {
    const h5::error_silencer quiet;
    const std::filesystem::path temporary = path.string() + ".tmp-" + std::to_string(::getpid());
    io::require_creatable(temporary);  // a read-only directory: one line, not HDF5's stack
    try {
        {
            h5::file file(h5::check(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                                    "creating " + temporary.string()));
            const hid_t root = file.get();
            write_string_attribute(root, "schema", reference_schema_name);
            write_string_attribute(root, "schema_version", std::to_string(reference_schema_version));
            write_string_attribute(root, "scenario", set.scenario);
            write_string_attribute(root, "description",
                                   "stokesian regression references: one group per [case/]precision/dt/integrator/"
                                   "backend class; schema and tolerances in reference_data/README.md");
            for (const auto& [path_name, entry] : set.entries) write_entry(root, entry);
            h5::check(H5Fflush(root, H5F_SCOPE_GLOBAL), "flushing " + temporary.string());
            if (!file.reset()) throw std::runtime_error("HDF5: closing " + temporary.string() + " failed");
        }
        sync_file(temporary);
        std::filesystem::rename(temporary, path);
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw;
    }
}

}  // namespace stokesian::regression
