// Positions from a NumPy .npy file: an (N, 3) array of float64 or float32, either byte order, C or
// Fortran order. The format (numpy.lib.format, NEP 1): the magic "\x93NUMPY", a major and a minor
// version byte, the header's length (2 bytes little-endian in version 1, 4 in versions 2 and 3),
// the header, a Python dict literal {'descr': '<f8', 'fortran_order': False, 'shape': (N, 3), }
// padded with spaces and a newline, then the raw data.
#include <cstring>
#include <optional>

#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"

namespace stokesian::settings {

namespace {

[[noreturn]] void fault(const std::string& what) { throw positions_fault(what); }

struct npy_header {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::uint64_t>> shape;
};

// A reader of the header's dict literal: quoted keys, values a quoted string, True/False or a tuple
// of integers, as numpy writes them.
class header_reader {
public:
    explicit header_reader(std::string_view text) : text_(text) {}

    npy_header read() {
        npy_header header;
        expect('{');
        while (!take('}')) {
            const std::string key = quoted();
            expect(':');
            if (key == "descr") header.descr = quoted();
            else if (key == "fortran_order") header.fortran_order = boolean();
            else if (key == "shape") header.shape = tuple();
            else fault("unknown key '" + echoed(key) + "' in the .npy header '" + shown() + "'");
            if (!take(',')) {
                expect('}');
                break;
            }
        }
        skip_blanks();
        if (at_ != text_.size()) unreadable();
        return header;
    }

private:
    [[noreturn]] void unreadable() const { fault("unreadable .npy header '" + shown() + "'"); }
    std::string shown() const {
        std::string header(text_);
        while (!header.empty() && (header.back() == ' ' || header.back() == '\n')) header.pop_back();
        return echoed(header);
    }
    void skip_blanks() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t')) ++at_;
    }
    bool take(char c) {
        skip_blanks();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!take(c)) unreadable();
    }
    std::string quoted() {
        skip_blanks();
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) unreadable();
        const char quote = text_[at_++];
        const std::size_t end = text_.find(quote, at_);
        if (end == std::string_view::npos) unreadable();
        std::string value(text_.substr(at_, end - at_));
        at_ = end + 1;
        return value;
    }
    bool boolean() {
        skip_blanks();
        const std::string_view rest = text_.substr(at_);
        if (rest.starts_with("True")) {
            at_ += 4;
            return true;
        }
        if (rest.starts_with("False")) {
            at_ += 5;
            return false;
        }
        unreadable();
    }
    std::vector<std::uint64_t> tuple() {
        expect('(');
        std::vector<std::uint64_t> values;
        while (!take(')')) {
            skip_blanks();
            const std::size_t begin = at_;
            std::uint64_t value = 0;
            while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
                if (value > (std::uint64_t(1) << 50)) fault("a .npy shape too large in the header '" + shown() + "'");
                value = value * 10 + std::uint64_t(text_[at_++] - '0');
            }
            if (at_ == begin) unreadable();
            values.push_back(value);
            if (!take(',')) {
                expect(')');
                break;
            }
        }
        return values;
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    std::string text = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

std::uint64_t unsigned_bytes(std::string_view bytes, std::size_t at, std::size_t width, bool little_endian) {
    std::uint64_t value = 0;
    for (std::size_t k = 0; k < width; ++k) {
        const std::size_t byte = little_endian ? at + width - 1 - k : at + k;
        value = (value << 8) | static_cast<unsigned char>(bytes[byte]);
    }
    return value;
}

}  // namespace

std::vector<vec3<double>> npy_positions(std::string_view bytes) {
    constexpr std::string_view magic("\x93NUMPY", 6);
    if (bytes.size() < 10 || bytes.substr(0, 6) != magic) fault("not a NumPy .npy file (no \\x93NUMPY at its start)");
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if (major < 1 || major > 3)
        fault(".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
              ": expected 1.0, 2.0 or 3.0");
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + length_bytes) fault("the .npy header is cut short");
    const std::uint64_t header_length = unsigned_bytes(bytes, 8, length_bytes, true);
    const std::size_t header_start = 8 + length_bytes;
    if (header_length > bytes.size() - header_start) fault("the .npy header is cut short");
    const npy_header header = header_reader(bytes.substr(header_start, header_length)).read();
    if (!header.descr || !header.fortran_order || !header.shape)
        fault("the .npy header lacks one of 'descr', 'fortran_order' and 'shape'");

    const std::string& descr = *header.descr;
    if (descr != "<f8" && descr != ">f8" && descr != "<f4" && descr != ">f4")
        fault("an array of dtype '" + echoed(descr) + "': expected float64 or float32 ('<f8', '>f8', '<f4', '>f4')");
    const std::vector<std::uint64_t>& shape = *header.shape;
    if (shape.size() != 2 || shape[1] != 3) fault("an array of shape " + shape_text(shape) + ": expected (N, 3)");
    const std::uint64_t n = shape[0];
    if (n == 0) fault("no particles (shape (0, 3))");
    if (n > most_file_particles)
        fault(std::to_string(n) + " particles, more than the " + std::to_string(most_file_particles) +
              " a positions file may hold");

    const std::size_t width = descr[2] == '8' ? 8 : 4;
    const bool little_endian = descr[0] == '<';
    const std::string_view data = bytes.substr(header_start + header_length);
    const std::uint64_t needed = n * 3 * width;
    if (data.size() != needed)
        fault("holds " + std::to_string(data.size()) + " bytes of data; shape " + shape_text(shape) + " of '" + descr +
              "' needs " + std::to_string(needed));

    std::vector<vec3<double>> positions(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        double c[3];
        for (std::uint64_t k = 0; k < 3; ++k) {
            // Element (i, k) in C order at i * 3 + k; in Fortran (column-major) order at k * N + i.
            const std::uint64_t element = *header.fortran_order ? k * n + i : i * 3 + k;
            const std::uint64_t bits = unsigned_bytes(data, element * width, width, little_endian);
            if (width == 8) {
                std::memcpy(&c[k], &bits, sizeof(double));
            } else {
                const auto narrow = static_cast<std::uint32_t>(bits);
                float f = 0.0f;
                std::memcpy(&f, &narrow, sizeof f);
                c[k] = static_cast<double>(f);
            }
        }
        positions[i] = {c[0], c[1], c[2]};
    }
    return positions;
}

}  // namespace stokesian::settings
