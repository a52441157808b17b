// hdf5_file_program.hpp: a fuzz input run as a program of HDF5 writes. HDF5 refuses some of them
// (a dataset where a group is needed, a link name taken): that write is skipped, the file stays
// well-formed. HDF5's error printing is off for the whole program.
#include "hdf5_file_program.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stokesian/port/port_check.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian::fuzz {

namespace {

constexpr int max_operations = 48;
constexpr hsize_t max_elements = 96;  // per dataset: enough for shape mismatches, small enough to stay fast

// Doubles the readers must survive: the ordinary, the edges of the format, and the non-finite.
constexpr std::array<double, 14> edge_values{0.0,    -0.0,  1.0,     -1.0,   0.5,    1e4,    517.0,
                                             1e-300, 1e300, 1.7e308, 5e-324, 9.3e18, 1.9e19, -1.9e19};

double fuzzed_double(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: return edge_values[in.ConsumeIntegralInRange<std::size_t>(0, edge_values.size() - 1)];
        case 1: return std::numeric_limits<double>::quiet_NaN();
        case 2: return in.ConsumeBool() ? INFINITY : -INFINITY;
        default: return in.ConsumeFloatingPoint<double>();
    }
}

std::string fuzzed_text(FuzzedDataProvider& in) {
    if (in.ConsumeBool()) {
        const auto& texts = attribute_texts();
        return texts[in.ConsumeIntegralInRange<std::size_t>(0, texts.size() - 1)];
    }
    return in.ConsumeRandomLengthString(64);
}

// The values of a dataset or an attribute of `elements` elements of `type`, handed to `write`
// (memory type, buffer): `text` when given, else fuzzed texts (variable length, or fixed length cut
// or padded as the type says), fuzzed doubles for a floating-point type, and the stored bytes
// themselves for the rest (integers, compounds, enumerations, opaque).
template <class Write>
void write_values(FuzzedDataProvider& in, hid_t type, hsize_t elements, const std::string* text, Write write) {
    if (elements == 0) return;
    const H5T_class_t type_class = H5Tget_class(type);
    if (type_class == H5T_STRING) {
        std::vector<std::string> texts(elements);
        for (std::string& t : texts) t = text != nullptr ? *text : fuzzed_text(in);
        if (H5Tis_variable_str(type) > 0) {
            std::vector<const char*> pointers;
            for (const std::string& t : texts) pointers.push_back(t.c_str());
            write(type, pointers.data());
        } else {
            std::string bytes;
            const char pad = H5Tget_strpad(type) == H5T_STR_SPACEPAD ? ' ' : '\0';
            for (std::string& t : texts) {
                t.resize(H5Tget_size(type), pad);
                bytes += t;
            }
            write(type, bytes.data());
        }
    } else if (type_class == H5T_FLOAT) {
        std::vector<double> values(elements);
        for (double& v : values) v = fuzzed_double(in);
        write(H5T_NATIVE_DOUBLE, values.data());
    } else {
        std::vector<unsigned char> bytes(elements * H5Tget_size(type));
        for (auto& b : bytes) b = in.ConsumeIntegral<unsigned char>();
        write(type, bytes.data());
    }
}

// A scalar fixed-length string attribute, as the writer stores /h5md's (H5MD 1.1).
void fixed_text_attribute(hid_t object, const char* name, const std::string& text) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, std::max<std::size_t>(text.size(), 1));
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    std::string bytes = text;
    bytes.resize(std::max<std::size_t>(text.size(), 1), '\0');
    H5Awrite(a, type, bytes.data());
    H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
}

hid_t untimed_dataset() {
    const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(create, 0);
    return create;
}

// One attribute per (object, name): a later write replaces it.
void delete_attribute(hid_t object, const std::string& name) {
    if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
}

// The per-cycle, per-window and per-block series among object_paths(); the others are scalars.
bool is_series(const std::string& path) {
    for (const char* series : {"/analysis/cycle/period", "/analysis/cycle/period_time", "/analysis/cycle/amplitude",
                               "/analysis/cycle/amplitude_time", "/analysis/symmetry/y1_block_max_abs"})
        if (path == series) return true;
    return path.rfind("/analysis/cycle/window/", 0) == 0 || path.rfind("/observables/", 0) == 0;
}

}  // namespace

hdf5_file_program::hdf5_file_program(FuzzedDataProvider& in, const std::filesystem::path& path) : in_(in) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    // No modification times in object headers (the root group's included): the same input gives
    // the same bytes, and the readers' scans of them (io/global_heap_check.cpp) take the same
    // course in every session.
    const hid_t file_properties = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_obj_track_times(file_properties, 0);
    file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, file_properties, H5P_DEFAULT);
    H5Pclose(file_properties);
    if (file_ < 0) throw std::runtime_error("fuzz: cannot create " + path.string());
    group_properties_ = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_obj_track_times(group_properties_, 0);
    // Half the inputs start from a complete result: most readers' logic lies behind its parameters.
    static constexpr std::array<int, 8> skeletons{0, 1, 2, 2, 2, 2, 3, 3};
    skeleton(skeletons[in_.ConsumeIntegralInRange<std::size_t>(0, skeletons.size() - 1)]);
    for (int k = 0; k < max_operations && in_.remaining_bytes() > 0; ++k) operation();
}

hdf5_file_program::~hdf5_file_program() {
    H5Pclose(group_properties_);
    H5Fclose(file_);
}

// 0: an empty file; 1: an H5MD root (version, creator as fixed-length strings); 2: a complete
// stokesian result as this stokesian writes it (the parameters regression::read_observed_run and
// study::read_run_summary need, digest_algorithm and the final-state digest included, and every dataset they
// read); 3: a one-configuration port-check record (port::read_record).
void hdf5_file_program::skeleton(int kind) {
    if (kind == 0) return;
    group("/h5md");
    {
        const hid_t h5md = H5Gopen2(file_, "/h5md", H5P_DEFAULT);
        const std::array<int, 2> version{1, 1};
        const hsize_t two = 2;
        const hid_t space = H5Screate_simple(1, &two, nullptr);
        const hid_t a = H5Acreate2(h5md, "version", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT, version.data());
        H5Aclose(a);
        H5Sclose(space);
        H5Gclose(h5md);
    }
    group("/h5md/creator");
    {
        const hid_t creator = H5Gopen2(file_, "/h5md/creator", H5P_DEFAULT);
        fixed_text_attribute(creator, "name", "stokesian");
        fixed_text_attribute(creator, "version", "fuzz");
        H5Gclose(creator);
    }
    if (kind == 2) {
        // Every result dataset the readers know, well-formed: then one operation damages one of
        // them, instead of two having to build a dataset and its partner first.
        for (const std::string& path : object_paths()) {
            if (path.rfind("/analysis/", 0) != 0 && path.rfind("/observables/", 0) != 0) continue;
            if (path == "/analysis/cycle" || path == "/analysis/cycle/window") continue;
            const bool series = is_series(path);
            const hsize_t n = series ? 3 : 1;
            const double values[3] = {1e4, 2e4, 3e4};
            const hid_t space = H5Screate_simple(1, &n, nullptr);
            const hid_t set = create_dataset(path, H5T_IEEE_F64LE, space, untimed_dataset());
            H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
            H5Dclose(set);
            H5Sclose(space);
        }
        text_attribute("/analysis/cycle/window/end_time", "window_length", "1e4");
        for (const auto& [key, value] :
             std::array<std::pair<const char*, const char*>, 10>{{{"dt", "0.01"},
                                                                  {"steps", "1000"},
                                                                  {"planned_steps", "1000"},
                                                                  {"sample_interval_steps", "10"},
                                                                  {"status", "completed"},
                                                                  {"precision", "hi=f64,int=f64"},
                                                                  {"integrator", "euler"},
                                                                  {"wall_seconds", "1.5"},
                                                                  {"digest_algorithm", "fnv1a64"},
                                                                  {"final_state_digest", "0123456789abcdef"}}})
            text_attribute("/parameters/run", key, value);
        text_attribute("/parameters/scenario", "name", "tetrahedron");
        text_attribute("/parameters/scenario", "case", "");
        text_attribute("/parameters/scenario", "resolved_configuration", "name = \"tetrahedron\"\n[physics]\n");
        text_attribute("/parameters/engine", "backend", "cpu");
    }
    if (kind == 3) {
        text_attribute("/", "schema", port::record_schema);
        text_attribute("/", "schema_version", port::record_schema_version);
        for (const char* g : {"/provenance/build", "/provenance/run", "/provenance/settings"}) group(g);
        const std::string c = "/configurations/tetrahedron";
        text_attribute(c, "description", "fuzz");
        text_attribute(c, "particles", "1");
        text_attribute(c, "tensor", "rotne-prager");  // a registered tensor (port/port_compare.cpp)
        text_attribute(c, "steps", "0");
        const std::string mode = c + "/hi=f64,int=f64";
        text_attribute(mode, "storage", "float64");
        const hsize_t dims[2] = {1, 3};
        const double values[3] = {0.0, 1.0, -2.0};
        for (const std::string& d : {c + "/position", c + "/external_force", c + "/absolute_sum", mode + "/velocity"}) {
            const hid_t space = H5Screate_simple(2, dims, nullptr);
            const hid_t set = create_dataset(d, H5T_IEEE_F64LE, space, untimed_dataset());
            H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
            H5Dclose(set);
            H5Sclose(space);
        }
    }
}

void hdf5_file_program::parent_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) group(path.substr(0, slash));
}

std::string hdf5_file_program::pick_path() {
    const auto& paths = object_paths();
    std::string path = paths[in_.ConsumeIntegralInRange<std::size_t>(0, paths.size() - 1)];
    if (in_.ConsumeIntegralInRange<int>(0, 7) == 0) {  // now and then a member the readers list, not name
        const auto& names = attribute_names();
        path += "/" + names[in_.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)];
    }
    return path;
}

void hdf5_file_program::remove_link(const std::string& path) {
    if (H5Lexists(file_, path.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file_, path.c_str(), H5P_DEFAULT);
}

// The group and the groups above it, as needed (HDF5's own intermediate groups would carry times).
void hdf5_file_program::group(const std::string& path) {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string prefix = path.substr(0, slash);
        if (!prefix.empty() && H5Lexists(file_, prefix.c_str(), H5P_DEFAULT) <= 0) {
            const hid_t g = H5Gcreate2(file_, prefix.c_str(), H5P_DEFAULT, group_properties_, H5P_DEFAULT);
            if (g < 0) return;  // a dataset on the way, a dangling link: HDF5 refuses
            H5Gclose(g);
        }
        if (slash == std::string::npos) return;
    }
}

// A dataset at `path` (its parent groups created first); `create` is consumed.
hid_t hdf5_file_program::create_dataset(const std::string& path, hid_t type, hid_t space, hid_t create) {
    parent_of(path);
    const hid_t set = H5Dcreate2(file_, path.c_str(), type, space, H5P_DEFAULT, create, H5P_DEFAULT);
    H5Pclose(create);
    return set;
}

// A type the file stores: numbers of every class the readers convert, strings, and types they
// must refuse (compound, enumeration, opaque).
hid_t hdf5_file_program::pick_type() {
    switch (in_.ConsumeIntegralInRange<int>(0, 10)) {
        case 0: return H5Tcopy(H5T_IEEE_F64LE);
        case 1: return H5Tcopy(H5T_IEEE_F64BE);
        case 2: return H5Tcopy(H5T_IEEE_F32LE);
        case 3: return H5Tcopy(H5T_STD_I64LE);
        case 4: return H5Tcopy(H5T_STD_U64LE);
        case 5: return H5Tcopy(H5T_STD_I8LE);
        case 6: {  // fixed length, padded with NULs after a NUL, NULs, or spaces
            const hid_t t = H5Tcopy(H5T_C_S1);
            H5Tset_size(t, in_.ConsumeIntegralInRange<std::size_t>(1, 24));
            constexpr std::array<H5T_str_t, 3> pads{H5T_STR_NULLTERM, H5T_STR_NULLPAD, H5T_STR_SPACEPAD};
            H5Tset_strpad(t, pads[in_.ConsumeIntegralInRange<std::size_t>(0, pads.size() - 1)]);
            return t;
        }
        case 7: {
            const hid_t t = H5Tcopy(H5T_C_S1);
            H5Tset_size(t, H5T_VARIABLE);
            return t;
        }
        case 8: {
            const hid_t t = H5Tcreate(H5T_COMPOUND, 16);
            H5Tinsert(t, "a", 0, H5T_IEEE_F64LE);
            H5Tinsert(t, "b", 8, H5T_STD_I64LE);
            return t;
        }
        case 9: {
            const hid_t t = H5Tenum_create(H5T_STD_I32LE);
            const int zero = 0, one = 1;
            H5Tenum_insert(t, "no", &zero);
            H5Tenum_insert(t, "yes", &one);
            return t;
        }
        default: return H5Tcreate(H5T_OPAQUE, 4);
    }
}

// Scalar, null (no elements at all), a list of 0, 1 or 2 (what a reader of one value must check),
// or simple of rank 1..3 with extents from 0.
hid_t hdf5_file_program::pick_space(hsize_t& elements) {
    const int kind = in_.ConsumeIntegralInRange<int>(0, 6);
    if (kind == 0) {
        elements = 1;
        return H5Screate(H5S_SCALAR);
    }
    if (kind == 1) {
        elements = 0;
        return H5Screate(H5S_NULL);
    }
    if (kind == 2) {
        elements = in_.ConsumeIntegralInRange<hsize_t>(0, 2);
        return H5Screate_simple(1, &elements, nullptr);
    }
    const int rank = in_.ConsumeIntegralInRange<int>(1, 3);
    std::array<hsize_t, 3> dims{};
    elements = 1;
    for (int r = 0; r < rank; ++r) {
        dims[r] = in_.ConsumeIntegralInRange<hsize_t>(0, 6);
        elements *= dims[r];
    }
    if (elements > max_elements) {
        dims[0] = 1;
        elements = 1;
        for (int r = 1; r < rank; ++r) elements *= dims[r];
    }
    return H5Screate_simple(rank, dims.data(), nullptr);
}

void hdf5_file_program::dataset(const std::string& path) {
    remove_link(path);
    const hid_t type = pick_type();
    hsize_t elements = 0;
    const hid_t space = pick_space(elements);
    const hid_t create = untimed_dataset();
    const int rank = H5Sget_simple_extent_ndims(space);
    if (rank > 0 && elements > 0) {
        std::array<hsize_t, 3> dims{};
        H5Sget_simple_extent_dims(space, dims.data(), nullptr);
        if (in_.ConsumeBool()) H5Pset_layout(create, H5D_COMPACT);
        else if (in_.ConsumeBool()) H5Pset_chunk(create, rank, dims.data());
    }
    const hid_t set = create_dataset(path, type, space, create);
    if (set >= 0) {
        write_values(in_, type, elements, nullptr, [&](hid_t memory_type, const void* buffer) {
            H5Dwrite(set, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
        });
        H5Dclose(set);
    }
    H5Sclose(space);
    H5Tclose(type);
}

void hdf5_file_program::text_attribute(const std::string& object, const std::string& name, const std::string& text) {
    group(object);
    attribute(object, name, &text);
}

// An attribute on `object` (opened as whatever it is): a scalar variable-length string of `text`
// when given, otherwise of a fuzzed type and shape.
void hdf5_file_program::attribute(const std::string& object, const std::string& name, const std::string* text) {
    const hid_t target = H5Oopen(file_, object.c_str(), H5P_DEFAULT);
    if (target < 0) return;
    delete_attribute(target, name);
    hid_t type = -1, space = -1;
    hsize_t elements = 1;
    if (text != nullptr) {
        type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, H5T_VARIABLE);
        space = H5Screate(H5S_SCALAR);
    } else {
        type = pick_type();
        space = pick_space(elements);
    }
    const hid_t a = H5Acreate2(target, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        write_values(in_, type, elements, text,
                     [&](hid_t memory_type, const void* buffer) { H5Awrite(a, memory_type, buffer); });
        H5Aclose(a);
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Oclose(target);
}

void hdf5_file_program::operation() {
    switch (in_.ConsumeIntegralInRange<int>(0, 8)) {
        case 0: group(pick_path()); break;
        case 1:
        case 2: dataset(pick_path()); break;
        case 3:
        case 4: {  // a text attribute: mostly one a reader reads, now and then anywhere
            const auto& pairs = read_attributes();
            const auto& names = attribute_names();
            std::pair<std::string, std::string> target;
            if (in_.ConsumeIntegralInRange<int>(0, 3) != 0)
                target = pairs[in_.ConsumeIntegralInRange<std::size_t>(0, pairs.size() - 1)];
            else target = {pick_path(), names[in_.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]};
            const std::string text = fuzzed_text(in_);
            text_attribute(target.first, target.second, text);
            break;
        }
        case 5: {
            const auto& names = attribute_names();
            attribute(pick_path(), names[in_.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)], nullptr);
            break;
        }
        case 6: {  // a soft link: dangling, or a loop back to an ancestor
            const std::string path = pick_path(), target = pick_path();
            remove_link(path);
            parent_of(path);
            H5Lcreate_soft(target.c_str(), file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT);
            break;
        }
        case 7: {  // a second hard link to an object: the same group reached twice, or a cycle
            const std::string path = pick_path(), target = pick_path();
            if (H5Lexists(file_, path.c_str(), H5P_DEFAULT) > 0) break;
            parent_of(path);
            H5Lcreate_hard(file_, target.c_str(), file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT);
            break;
        }
        default: {  // an external link to a file that does not exist
            const std::string path = pick_path();
            remove_link(path);
            parent_of(path);
            H5Lcreate_external("stokesian_fuzz_missing.h5", "/h5md", file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT);
            break;
        }
    }
}

}  // namespace stokesian::fuzz
