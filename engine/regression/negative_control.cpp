// Relabels a result for a negative control (negative_control.hpp).
#include "stokesian/regression/negative_control.hpp"

#include "stokesian/core/precision_modes.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/numeric/precision.hpp"

namespace stokesian::regression {

namespace {

namespace h5 = io::hdf5;

std::string read_string(hid_t object, const char* name) {
    const h5::attribute a(h5::check(H5Aopen(object, name, H5P_DEFAULT), std::string("opening attribute ") + name));
    const h5::datatype type = h5::utf8_string_type();
    char* text = nullptr;
    h5::check(H5Aread(a.get(), type.get(), &text), std::string("reading attribute ") + name);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
}

void replace_string(hid_t object, const char* name, const std::string& value) {
    if (H5Aexists(object, name) > 0) h5::check(H5Adelete(object, name), std::string("deleting attribute ") + name);
    const h5::datatype type = h5::utf8_string_type();
    const h5::dataspace space(h5::check(H5Screate(H5S_SCALAR), "creating a dataspace"));
    const h5::attribute a(h5::check(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                    std::string("creating attribute ") + name));
    const char* text = value.c_str();
    h5::check(H5Awrite(a.get(), type.get(), &text), std::string("writing attribute ") + name);
}

}  // namespace

void mark_negative_control(const std::filesystem::path& result, const std::string& description,
                           const std::string& label) {
    const h5::error_silencer quiet;
    const h5::file file(h5::check(H5Fopen(result.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening " + result.string()));
    const h5::group control(
        h5::check(H5Gcreate2(file.get(), "/parameters/negative_control", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                  "creating /parameters/negative_control"));
    replace_string(control.get(), "description", description);
    if (label.empty()) return;
    const precision_mode mode = parse_precision_mode(label);
    const h5::group run(h5::check(H5Gopen2(file.get(), "/parameters/run", H5P_DEFAULT), "opening /parameters/run"));
    replace_string(control.get(), "precision_that_ran", read_string(run.get(), "precision"));
    replace_string(control.get(), "labelled_as", to_string(mode));
    replace_string(run.get(), "precision", to_string(mode));
    replace_string(run.get(), "hi_precision", std::string(to_string(mode.hi)));
    replace_string(run.get(), "integration_precision", std::string(to_string(mode.integration)));
}

}  // namespace stokesian::regression
