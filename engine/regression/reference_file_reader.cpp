// Reads and validates a reference file (reference_store.hpp). The file is input: any problem,
// from a truncated file to a missing attribute, is one input_error line naming the file.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <variant>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/core/safe_name.hpp"
#include "stokesian/io/global_heap_check.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_reading.hpp"
#include "stokesian/regression/reference_store.hpp"

namespace stokesian::regression {

namespace {

namespace h5 = io::hdf5;
using attribute_value = std::variant<std::string, std::vector<double>>;

class reader {
public:
    explicit reader(std::filesystem::path path) : path_(std::move(path)) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw input_error(path_.string(), "", "", "not a valid reference file: " + what);
    }

    template <class T>
    T check(T result, const std::string& what) const {
        if (result < 0) {
            const std::string reason = h5::last_error();
            fail(what + (reason.empty() ? "" : " (" + reason + ")"));
        }
        return result;
    }

    std::vector<std::string> members(hid_t group) const {
        std::vector<std::string> names;
        auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
            static_cast<std::vector<std::string>*>(out)->emplace_back(name);
            return 0;
        };
        check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names), "cannot list a group");
        return names;
    }

    std::map<std::string, attribute_value> attributes(hid_t object, const std::string& where) const {
        std::vector<std::string> names;
        auto collect = [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
            static_cast<std::vector<std::string>*>(out)->emplace_back(name);
            return 0;
        };
        check(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
              "cannot list the attributes of '" + where + "'");
        std::map<std::string, attribute_value> out;
        for (const std::string& name : names) out.emplace(name, attribute(object, name, where));
        return out;
    }

    reference_set read() const {
        std::error_code error;
        if (!std::filesystem::is_regular_file(path_, error))
            throw input_error(path_.string(), "", "", "no such reference file");
        const h5::error_silencer quiet;
        if (H5Fis_hdf5(path_.c_str()) <= 0) {
            h5::last_error();
            fail("not an HDF5 file (truncated or corrupted?)");
        }
        // Before HDF5 parses a string attribute: a damaged global heap would make it loop forever.
        if (const auto problem = io::damaged_global_heap(path_)) fail(*problem + " (damaged file)");
        const h5::file file(check(h5::open_for_reading(path_), "cannot open the file"));
        const auto root = attributes(file.get(), "/");
        if (text(root, "schema", "/") != reference_schema_name)
            fail("root attribute schema is not \"" + std::string(reference_schema_name) + "\"");
        const std::string version = text(root, "schema_version", "/");
        if (version != std::to_string(reference_schema_version))
            fail("schema version " + echoed(version) + " (this build reads version " +
                 std::to_string(reference_schema_version) + "; re-record it: ci/record-references)");
        reference_set set;
        set.scenario = text(root, "scenario", "/");
        if (const std::string why = unsafe_name_reason(set.scenario); !why.empty())
            fail("root attribute scenario = " + quoted_printable(set.scenario) + " is not a safe file name: " + why);
        walk(file.get(), "", set);
        return set;
    }

private:
    attribute_value attribute(hid_t object, const std::string& name, const std::string& where) const {
        const std::string what = "attribute '" + name + "' of '" + where + "'";
        const h5::attribute a(check(H5Aopen(object, name.c_str(), H5P_DEFAULT), "cannot open " + what));
        const h5::datatype type(check(H5Aget_type(a.get()), "cannot read the type of " + what));
        const h5::dataspace space(check(H5Aget_space(a.get()), "cannot read the shape of " + what));
        const hssize_t count = check(H5Sget_simple_extent_npoints(space.get()), "cannot read the shape of " + what);
        if (H5Tget_class(type.get()) == H5T_FLOAT) {
            std::vector<double> values(static_cast<std::size_t>(count));
            if (count > 0) check(H5Aread(a.get(), H5T_NATIVE_DOUBLE, values.data()), "cannot read " + what);
            return values;
        }
        if (H5Tget_class(type.get()) != H5T_STRING || count != 1 || H5Tis_variable_str(type.get()) <= 0)
            fail(what + " is neither a number nor a string");
        const h5::datatype memory = h5::utf8_string_type();
        char* value = nullptr;
        check(H5Aread(a.get(), memory.get(), &value), "cannot read " + what);
        std::string out = value != nullptr ? value : "";
        H5free_memory(value);
        return out;
    }

    std::string text(const std::map<std::string, attribute_value>& a, const std::string& name, const std::string& where,
                     bool required = true) const {
        const auto it = a.find(name);
        if (it == a.end()) {
            if (required) fail("'" + where + "' has no attribute '" + name + "'");
            return {};
        }
        if (!std::holds_alternative<std::string>(it->second))
            fail("attribute '" + name + "' of '" + where + "' is not a string");
        return std::get<std::string>(it->second);
    }

    std::vector<double> numbers(const std::map<std::string, attribute_value>& a, const std::string& name,
                                const std::string& where, bool required) const {
        const auto it = a.find(name);
        if (it == a.end()) {
            if (required) fail("'" + where + "' has no attribute '" + name + "'");
            return {};
        }
        if (!std::holds_alternative<std::vector<double>>(it->second))
            fail("attribute '" + name + "' of '" + where + "' is not a number");
        return std::get<std::vector<double>>(it->second);
    }

    double number(const std::map<std::string, attribute_value>& a, const std::string& name,
                  const std::string& where) const {
        const std::vector<double> v = numbers(a, name, where, true);
        if (v.size() != 1) fail("attribute '" + name + "' of '" + where + "' is not a single number");
        return v.front();
    }

    std::uint64_t count(const std::string& text_value, const std::string& name, const std::string& where) const {
        const auto value = read_count(text_value);
        if (!value) fail("attribute '" + name + "' of '" + where + "' is not an integer");
        return *value;
    }

    // Groups are either inner levels of the key or entries (an entry has planned_steps).
    void walk(hid_t group, const std::string& path, reference_set& set) const {
        for (const std::string& name : members(group)) {
            const std::string child = path + "/" + name;
            const h5::object object(check(H5Oopen(group, name.c_str(), H5P_DEFAULT), "cannot open '" + child + "'"));
            if (H5Iget_type(object.get()) != H5I_GROUP)
                fail("'" + child + "' lies outside an entry (a dataset above the key)");
            const auto a = attributes(object.get(), child);
            if (a.contains("planned_steps")) read_entry(object.get(), child, a, set);
            else walk(object.get(), child, set);
        }
    }

    void read_entry(hid_t group, const std::string& path, const std::map<std::string, attribute_value>& a,
                    reference_set& set) const {
        reference_entry e;
        try {
            e.key = parse_group_path(set.scenario, path);
        } catch (const std::invalid_argument& error) {
            fail(error.what());
        }
        if (const std::string why = unsafe_name_reason(e.key.case_name); !e.key.case_name.empty() && !why.empty())
            fail("entry '" + path + "': case " + quoted_printable(e.key.case_name) +
                 " is not a safe file name: " + why);
        for (const auto& [name, value] : a)
            if (std::holds_alternative<std::string>(value)) e.attributes[name] = std::get<std::string>(value);
        e.planned_steps = count(text(a, "planned_steps", path), "planned_steps", path);
        e.sample_interval_steps = count(text(a, "sample_interval_steps", path), "sample_interval_steps", path);
        e.attributes.erase("planned_steps");
        e.attributes.erase("sample_interval_steps");
        for (const char* required : {"git_commit", "date", "host", "command", "device_name", "recorded_at"})
            text(a, required, path);
        const auto tag = e.attributes.find(digest_algorithm_key);
        if (tag != e.attributes.end() && !digest_tag_problem(tag->second).empty())
            fail("entry '" + path + "' attribute " + digest_algorithm_key + " = '" + echoed(tag->second) +
                 "' names no digest algorithm this stokesian knows");
        for (const std::string& name : members(group)) {
            if (name == boundaries_group) e.boundaries = read_boundaries(group, path);
            else e.observables.emplace(name, read_value(group, path, name));
        }
        if (e.observables.empty()) fail("entry '" + path + "' holds no observables");
        set.entries.emplace(path, std::move(e));
    }

    std::vector<double> doubles(hid_t group, const std::string& where, const char* name, int rank,
                                std::vector<hsize_t>& shape) const {
        const std::string at = where + "/" + name;
        const h5::object object(check(H5Oopen(group, name, H5P_DEFAULT), "cannot open '" + at + "'"));
        if (H5Iget_type(object.get()) != H5I_DATASET) fail("'" + at + "' is not a dataset");
        const h5::dataspace space(check(H5Dget_space(object.get()), "cannot read the shape of '" + at + "'"));
        if (check(H5Sget_simple_extent_ndims(space.get()), "cannot read the shape of '" + at + "'") != rank)
            fail("'" + at + "' is not of rank " + std::to_string(rank));
        shape.assign(std::size_t(rank), 0);
        check(H5Sget_simple_extent_dims(space.get(), shape.data(), nullptr), "cannot read the shape of '" + at + "'");
        const h5::datatype type(check(H5Dget_type(object.get()), "cannot read the type of '" + at + "'"));
        if (H5Tget_class(type.get()) != H5T_FLOAT) fail("'" + at + "' is not a floating-point dataset");
        hsize_t count = 1;
        for (const hsize_t n : shape) count *= n;
        if (const auto problem = h5::unreadable_size(object.get(), count)) fail("'" + at + "' " + *problem);
        std::vector<double> values(static_cast<std::size_t>(count));
        if (count > 0)
            check(H5Dread(object.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "cannot read '" + at + "'");
        return values;
    }

    // An entry's segment boundaries (reference_data/README.md): every state must match its digest.
    boundary_states read_boundaries(hid_t entry, const std::string& path) const {
        const std::string where = path + "/" + boundaries_group;
        const h5::object group(check(H5Oopen(entry, boundaries_group, H5P_DEFAULT), "cannot open '" + where + "'"));
        if (H5Iget_type(group.get()) != H5I_GROUP) fail("'" + where + "' is not a group");
        const auto a = attributes(group.get(), where);
        boundary_states b;
        b.precision = text(a, "precision", where);
        std::stringstream digests(text(a, "digests", where));
        for (std::string d; std::getline(digests, d, ',');) b.digests.push_back(d);
        std::vector<hsize_t> step_shape, word_shape;
        const std::vector<double> steps = doubles(group.get(), where, "step", 1, step_shape);
        const std::vector<double> words = doubles(group.get(), where, "words", 2, word_shape);
        if (word_shape[0] != step_shape[0]) fail("'" + where + "': words and step differ in length");
        for (std::size_t k = 0; k < steps.size(); ++k) {
            if (!(steps[k] >= 0.0 && steps[k] < 0x1p53 && steps[k] == std::floor(steps[k])))
                fail("'" + where + "/step' holds a value that is not a step");
            b.steps.push_back(std::uint64_t(steps[k]));
            const auto first = words.begin() + std::ptrdiff_t(k * word_shape[1]);
            b.words.emplace_back(first, first + std::ptrdiff_t(word_shape[1]));
        }
        if (const std::string fault = boundary_states_fault(b); !fault.empty()) fail("'" + where + "': " + fault);
        return b;
    }

    reference_value read_value(hid_t group, const std::string& entry, const std::string& name) const {
        const std::string where = entry + "/" + name;
        const h5::object object(check(H5Oopen(group, name.c_str(), H5P_DEFAULT), "cannot open '" + where + "'"));
        if (H5Iget_type(object.get()) != H5I_DATASET) fail("'" + where + "' is not a dataset");
        const hid_t d = object.get();
        const h5::dataspace space(check(H5Dget_space(d), "cannot read the shape of '" + where + "'"));
        const int rank = check(H5Sget_simple_extent_ndims(space.get()), "cannot read the shape of '" + where + "'");
        if (rank > 1) fail("'" + where + "' has rank " + std::to_string(rank) + " (expected a scalar or 1-D)");
        const hssize_t n = check(H5Sget_simple_extent_npoints(space.get()), "cannot read the shape of '" + where + "'");
        const h5::datatype type(check(H5Dget_type(d), "cannot read the type of '" + where + "'"));
        if (H5Tget_class(type.get()) != H5T_FLOAT) fail("'" + where + "' is not a floating-point dataset");
        if (const auto problem = h5::unreadable_size(d, static_cast<std::uint64_t>(n)))
            fail("'" + where + "' " + *problem);
        reference_value v;
        v.value.scalar = rank == 0;
        v.value.values.resize(static_cast<std::size_t>(n));
        if (n > 0)
            check(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.value.values.data()),
                  "cannot read '" + where + "'");
        const auto a = attributes(d, where);
        const std::string kind = text(a, "tolerance_kind", where);
        const auto parsed = parse_tolerance_kind(kind);
        if (!parsed) fail("'" + where + "' has tolerance_kind '" + echoed(kind) + "'");
        v.rule.kind = *parsed;
        v.rule.tolerance = number(a, "tolerance", where);
        if (!(v.rule.tolerance >= 0.0)) fail("'" + where + "' has a negative or NaN tolerance");
        v.rule.id = text(a, "rule_id", where);
        v.rule.observable = name;
        v.rule.derivation = text(a, "derivation", where);
        if (v.rule.derivation.empty()) fail("'" + where + "' has no derivation of its tolerance");
        v.rule.measured_spread = text(a, "measured_spread", where, false);
        v.rule.before_loss = text(a, "before_loss", where, false) == "true";
        v.rule.until = number(a, "until", where);
        v.rule.window = numbers(a, "window", where, v.rule.kind == tolerance_kind::expected_failure_window);
        if (v.rule.kind == tolerance_kind::expected_failure_window && v.rule.window.size() != 2)
            fail("'" + where + "': window must hold [earliest, latest]");
        v.rule.against = text(a, "against", where, false);
        v.meaning = text(a, "meaning", where, false);
        v.value.unit = text(a, "unit", where, false);
        v.value.ci95_half_width = number(a, "ci95_half_width", where);
        v.value.window_length = number(a, "window_length", where);
        v.value.coordinate = numbers(a, "window_end_time", where, false);
        if (!v.value.coordinate.empty() && v.value.coordinate.size() != v.value.values.size())
            fail("'" + where + "': window_end_time has " + std::to_string(v.value.coordinate.size()) + " values for " +
                 std::to_string(v.value.values.size()));
        return v;
    }

    std::filesystem::path path_;
};

}  // namespace

reference_set read_reference_file(const std::filesystem::path& path) { return reader(path).read(); }

}  // namespace stokesian::regression
