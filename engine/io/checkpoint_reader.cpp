// Reading checkpoint files (layout in stokesian/io/checkpoint.hpp). A checkpoint is user input
// (it may be truncated by a full disk, corrupted, or another program's file), so everything is
// checked before it is used and every problem is one input_error line naming the file, the object
// and what was expected; HDF5's error stack is never printed.
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "stokesian/core/errors.hpp"
#include "stokesian/core/state_words.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_reading.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* format_name = "stokesian checkpoint";
constexpr const char* format_version = "1";

// What a dataset must be: its element type and its rank.
enum class element { f64, u64, i32, u8 };

class checkpoint_reader {
public:
    explicit checkpoint_reader(const fs::path& path) : path_(path) {
        std::error_code error;
        const fs::file_status status = fs::status(path, error);
        if (!fs::exists(status)) fail("", "checkpoint file not found");
        if (!fs::is_regular_file(status)) fail("", "not a regular file");
        if (H5Fis_hdf5(path.c_str()) <= 0) {
            hdf5::last_error();
            fail("", "not a readable HDF5 file (expected a stokesian checkpoint)");
        }
        const hid_t id = hdf5::open_for_reading(path);
        if (id < 0) fail("", "damaged or truncated HDF5 file (" + hdf5::last_error() + ")");
        file_ = hdf5::file(id);
    }

    [[noreturn]] void fail(const std::string& object, const std::string& expected) const {
        throw input_error(path_.string(), object, "", expected);
    }

    hdf5::object open(const std::string& path, H5I_type_t type) const {
        if (!hdf5::object_exists(file_.get(), path))
            fail(path, std::string("missing (expected a ") + (type == H5I_GROUP ? "group" : "dataset") + ")");
        const hid_t id = H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT);
        if (id < 0) fail(path, "cannot be opened (" + hdf5::last_error() + ")");
        hdf5::object object(id);
        if (H5Iget_type(object.get()) != type)
            fail(path, std::string("expected a ") + (type == H5I_GROUP ? "group" : "dataset"));
        return object;
    }

    bool has_dataset(const std::string& path) const {
        if (!hdf5::object_exists(file_.get(), path)) return false;
        const hdf5::object object(H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT));
        return object && H5Iget_type(object.get()) == H5I_DATASET;
    }

    bool has_group(const std::string& path) const {
        if (!hdf5::object_exists(file_.get(), path)) return false;
        const hdf5::object object(H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT));
        return object && H5Iget_type(object.get()) == H5I_GROUP;
    }

    // Names of the members (links) of a group, in name order.
    std::vector<std::string> members(const std::string& group_path) const {
        const hdf5::object group = open(group_path, H5I_GROUP);
        std::vector<std::string> names;
        auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
            static_cast<std::vector<std::string>*>(out)->emplace_back(name);
            return 0;
        };
        if (H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names) < 0)
            fail(group_path, "cannot list the group (" + hdf5::last_error() + ")");
        return names;
    }

    // A single string attribute; missing or not a string is an error.
    std::string text(const std::string& object_path, const std::string& name) const {
        const hdf5::object object = open_any(object_path);
        const auto value = read_string_attribute(object.get(), object_path, name);
        if (!value) fail(object_path, "attribute '" + name + "' is missing");
        return *value;
    }

    // A single string attribute that may be missing.
    std::optional<std::string> optional_text(const std::string& object_path, const std::string& name) const {
        const hdf5::object object = open_any(object_path);
        return read_string_attribute(object.get(), object_path, name);
    }

    // Every dataset of a group, each a text stored as bytes.
    std::map<std::string, std::string> texts(const std::string& group_path) const {
        std::map<std::string, std::string> values;
        for (const std::string& name : members(group_path)) {
            const std::vector<std::uint8_t> bytes = array<std::uint8_t>(group_path + "/" + name, element::u8, {0});
            values[name] = std::string(bytes.begin(), bytes.end());
        }
        return values;
    }

    // A dataset of the given element type, rank and (where non-zero) extents, flattened.
    template <class T>
    std::vector<T> array(const std::string& path, element kind, std::vector<hsize_t> expected_shape,
                         std::vector<hsize_t>* shape_out = nullptr) const {
        const hdf5::object dataset = open(path, H5I_DATASET);
        const hdf5::datatype type(H5Dget_type(dataset.get()));
        if (!type) fail(path, "unreadable type (" + hdf5::last_error() + ")");
        const H5T_class_t type_class = H5Tget_class(type.get());
        const std::size_t size = H5Tget_size(type.get());
        bool type_ok = false;
        const char* expected = "";
        switch (kind) {
            case element::f64:
                type_ok = type_class == H5T_FLOAT && size == 8;
                expected = "64-bit floats";
                break;
            case element::u64:
                type_ok = type_class == H5T_INTEGER && size == 8 && H5Tget_sign(type.get()) == H5T_SGN_NONE;
                expected = "unsigned 64-bit integers";
                break;
            case element::i32:
                type_ok = type_class == H5T_INTEGER && size == 4 && H5Tget_sign(type.get()) == H5T_SGN_2;
                expected = "signed 32-bit integers";
                break;
            case element::u8:
                type_ok = type_class == H5T_INTEGER && size == 1 && H5Tget_sign(type.get()) == H5T_SGN_NONE;
                expected = "text as bytes (unsigned 8-bit integers)";
                break;
        }
        if (!type_ok) fail(path, std::string("expected ") + expected);
        const hdf5::dataspace space(H5Dget_space(dataset.get()));
        if (!space) fail(path, "unreadable shape (" + hdf5::last_error() + ")");
        const int rank = H5Sget_simple_extent_ndims(space.get());
        if (rank < 0 || rank != static_cast<int>(expected_shape.size()))
            fail(path, "has rank " + std::to_string(rank) + ", expected " + std::to_string(expected_shape.size()));
        std::vector<hsize_t> dims(expected_shape.size());
        if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0)
            fail(path, "unreadable shape (" + hdf5::last_error() + ")");
        std::uint64_t count = 1;
        for (std::size_t k = 0; k < dims.size(); ++k) {
            if (expected_shape[k] != 0 && dims[k] != expected_shape[k])
                fail(path, "has " + std::to_string(dims[k]) + " entries along axis " + std::to_string(k) +
                               ", expected " + std::to_string(expected_shape[k]));
            if (dims[k] != 0 && count > UINT64_MAX / dims[k]) fail(path, "claims an impossible size (damaged file)");
            count *= dims[k];
        }
        if (const auto problem = hdf5::unreadable_size(dataset.get(), count)) fail(path, *problem);
        std::vector<T> values(static_cast<std::size_t>(count));
        const hid_t memory_type = kind == element::f64   ? H5T_NATIVE_DOUBLE
                                  : kind == element::u64 ? H5T_NATIVE_UINT64
                                  : kind == element::u8  ? H5T_NATIVE_UCHAR
                                                         : H5T_NATIVE_INT32;
        if (count > 0 && H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
            fail(path, "cannot be read (" + hdf5::last_error() + ")");
        if (shape_out) *shape_out = dims;
        return values;
    }

    std::uint64_t count(const std::string& path) const { return array<std::uint64_t>(path, element::u64, {}).front(); }
    double real(const std::string& path) const { return array<double>(path, element::f64, {}).front(); }

    // An [n, 3] block; n == 0 means "any n", returned through n.
    template <class T>
    std::vector<vec3<T>> vectors(const std::string& path, element kind, std::size_t& n) const {
        std::vector<hsize_t> shape;
        const std::vector<T> flat = array<T>(path, kind, {n, 3}, &shape);
        n = static_cast<std::size_t>(shape[0]);
        std::vector<vec3<T>> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
        return values;
    }

private:
    hdf5::object open_any(const std::string& path) const {
        if (!hdf5::object_exists(file_.get(), path)) fail(path, "missing");
        const hid_t id = H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT);
        if (id < 0) fail(path, "cannot be opened (" + hdf5::last_error() + ")");
        return hdf5::object(id);
    }

    // The attribute as a single string (variable or fixed length); absent: nullopt; present but
    // not a single string: an error.
    std::optional<std::string> read_string_attribute(hid_t object, const std::string& object_path,
                                                     const std::string& name) const {
        const htri_t exists = H5Aexists(object, name.c_str());
        if (exists < 0) fail(object_path, "cannot look up attribute '" + name + "' (" + hdf5::last_error() + ")");
        if (exists == 0) return std::nullopt;
        const hdf5::attribute attribute(H5Aopen(object, name.c_str(), H5P_DEFAULT));
        if (!attribute) fail(object_path, "cannot open attribute '" + name + "' (" + hdf5::last_error() + ")");
        const hdf5::datatype type(H5Aget_type(attribute.get()));
        const hdf5::dataspace space(H5Aget_space(attribute.get()));
        if (!type || !space || H5Tget_class(type.get()) != H5T_STRING ||
            H5Sget_simple_extent_npoints(space.get()) != 1) {
            hdf5::last_error();
            fail(object_path, "attribute '" + name + "' is not a single string");
        }
        // Checkpoints hold no variable-length strings: reading one would enter HDF5's global
        // heap, whose parser can loop forever on a damaged file (checkpoint.hpp).
        if (H5Tis_variable_str(type.get()) != 0)
            fail(object_path, "attribute '" + name + "' is a variable-length string (not written by stokesian)");
        const std::size_t size = H5Tget_size(type.get());
        if (size == 0 || size > (std::size_t{1} << 20))
            fail(object_path, "attribute '" + name + "' has an impossible size");
        std::string value(size, '\0');
        if (H5Aread(attribute.get(), type.get(), value.data()) < 0)
            fail(object_path, "cannot read attribute '" + name + "' (" + hdf5::last_error() + ")");
        value.resize(std::min(value.find('\0'), value.size()));
        return value;
    }

    fs::path path_;
    hdf5::file file_;
};

// The words of one stored component in precision p: those of a value of its storage type
// (core/state_words.hpp), always finite (checkpoints hold sane states).
bool words_fit(precision p, double hi, double lo) {
    if (!std::isfinite(hi) || !std::isfinite(lo)) return false;
    return visit_precision(
        p, [&]<class P>(P) { return stokesian::words_fit<typename precision_traits<P::value>::storage>(hi, lo); });
}

void check_words(const checkpoint_reader& r, const std::string& path, precision p, const std::vector<vec3<double>>& hi,
                 const std::vector<vec3<double>>& lo) {
    for (std::size_t i = 0; i < hi.size(); ++i)
        if (!words_fit(p, hi[i].x, lo[i].x) || !words_fit(p, hi[i].y, lo[i].y) || !words_fit(p, hi[i].z, lo[i].z))
            r.fail(path, "particle " + std::to_string(i) + " holds a value that is not a finite " +
                             std::string(to_string(p)) + " number (damaged file)");
}

engine_state read_engine_state(const checkpoint_reader& r) {
    const std::string base = "/checkpoint/engine/";
    engine_state s;
    const std::string mode = r.text("/checkpoint/engine", "precision");
    try {
        s.precision = parse_precision_mode(mode);
    } catch (const std::invalid_argument& e) {
        r.fail("/checkpoint/engine", "attribute 'precision' = '" + echoed(mode) + "': " + e.what());
    }
    s.step = r.count(base + "step");
    std::size_t n = 0;
    s.position_hi = r.vectors<double>(base + "position_hi", element::f64, n);
    if (n == 0) r.fail(base + "position_hi", "holds no particles");
    s.position_lo = r.vectors<double>(base + "position_lo", element::f64, n);
    s.image = r.vectors<std::int32_t>(base + "image", element::i32, n);
    s.velocity_hi = r.vectors<double>(base + "velocity_hi", element::f64, n);
    s.velocity_lo = r.vectors<double>(base + "velocity_lo", element::f64, n);
    s.force = r.vectors<double>(base + "force", element::f64, n);
    check_words(r, base + "position_hi", s.precision.integration, s.position_hi, s.position_lo);
    check_words(r, base + "velocity_hi", s.precision.hi, s.velocity_hi, s.velocity_lo);
    if (r.has_dataset(base + "history_hi")) {
        s.history_hi = r.vectors<double>(base + "history_hi", element::f64, n);
        s.history_lo = r.vectors<double>(base + "history_lo", element::f64, n);
        check_words(r, base + "history_hi", s.precision.hi, s.history_hi, s.history_lo);
    }
    // Forces are stored in the working type of the HI sum.
    const std::vector<vec3<double>> zeros(n, vec3<double>{0.0, 0.0, 0.0});
    check_words(r, base + "force", working_precision(s.precision.hi), s.force, zeros);
    return s;
}

saved_state read_observable_state(const checkpoint_reader& r, const std::string& group) {
    saved_state s;
    for (const std::string& name : r.members(group + "/reals"))
        s.reals[name] = r.array<double>(group + "/reals/" + name, element::f64, {0});
    for (const std::string& name : r.members(group + "/counts"))
        s.counts[name] = r.array<std::uint64_t>(group + "/counts/" + name, element::u64, {0});
    s.texts = r.texts(group + "/texts");
    return s;
}

bool is_digest(const std::string& text) {
    return text.empty() || (text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos);
}

}  // namespace

run_checkpoint read_checkpoint(const fs::path& path) {
    const hdf5::error_silencer quiet;
    const checkpoint_reader r(path);
    run_checkpoint c;
    if (!r.has_group("/checkpoint")) r.fail("", "not a stokesian checkpoint (no /checkpoint group)");
    if (r.text("/checkpoint", "format") != format_name)
        r.fail("/checkpoint",
               "attribute 'format' is not '" + std::string(format_name) + "' (not a stokesian checkpoint)");
    const std::string version = r.text("/checkpoint", "version");
    if (version != format_version)
        r.fail("/checkpoint", "version " + echoed(version) + ", this stokesian reads version " + format_version);
    if (const std::string problem = digest_tag_problem(r.optional_text("/checkpoint", digest_algorithm_key));
        !problem.empty())
        r.fail("/checkpoint", problem);
    c.run = r.texts("/checkpoint/run");

    const std::string progress = "/checkpoint/progress/";
    const std::uint64_t step = r.count(progress + "step");
    c.frames_written = r.count(progress + "frames_written");
    c.last_good_step = r.count(progress + "last_good_step");
    c.wall_seconds = r.real(progress + "wall_seconds");
    if (!(std::isfinite(c.wall_seconds) && c.wall_seconds >= 0.0))
        r.fail(progress + "wall_seconds", "expected a finite number >= 0");
    c.last_frame_digest = r.text("/checkpoint/progress", "last_frame_digest");
    if (!is_digest(c.last_frame_digest))
        r.fail("/checkpoint/progress", "attribute 'last_frame_digest' is not 16 hexadecimal digits");
    if (c.last_good_step > step)
        r.fail(progress + "last_good_step", "lies after the checkpoint's step " + std::to_string(step));
    if (c.frames_written > step + 1)
        r.fail(progress + "frames_written", "more frames than steps + 1 (" + std::to_string(step + 1) + ")");

    c.engine = read_engine_state(r);
    if (c.engine.step != step)
        r.fail("/checkpoint/engine/step", "differs from /checkpoint/progress/step = " + std::to_string(step));

    const std::vector<std::string> groups = r.members("/checkpoint/observables");
    for (std::size_t k = 0; k < groups.size(); ++k) {
        char expected[32];
        std::snprintf(expected, sizeof expected, "%03zu", k);
        const std::string group = "/checkpoint/observables/" + groups[k];
        if (groups[k] != expected) r.fail(group, "expected the observables numbered 000, 001, ... without gaps");
        c.observables.emplace_back(r.text(group, "kind"), read_observable_state(r, group));
    }
    if (r.text("/checkpoint", "content_fnv1a64") != checkpoint_digest(c))
        r.fail("/checkpoint", "content digest mismatch: the file was changed or damaged after it was written");
    return c;
}

}  // namespace stokesian::io
