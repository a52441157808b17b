// Positions from an XYZ file: frames one after another, each a line with the particle count N, a
// comment line, and N lines "name x y z" (further columns, as extended XYZ writes them, are
// ignored). Numbers are read by std::from_chars: the shortest round-trip text of a double, or 17
// significant digits, reads back to the same bits on every platform.
#include <charconv>
#include <cmath>

#include "particle_sources.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/errors.hpp"
#include "toml_value_text.hpp"

namespace stokesian::settings {

namespace {

[[noreturn]] void fault(const std::string& what) { throw positions_fault(what); }

class line_reader {
public:
    explicit line_reader(std::string_view text) : text_(text) {}
    bool done() const { return at_ >= text_.size(); }
    std::size_t number() const { return line_; }  // of the line last read, from 1
    std::string_view next() {
        const std::size_t end = std::min(text_.find('\n', at_), text_.size());
        std::string_view line = text_.substr(at_, end - at_);
        if (line.ends_with('\r')) line.remove_suffix(1);
        at_ = end + 1;
        ++line_;
        return line;
    }
    // Nothing but blank lines is left.
    bool only_blanks_left() const { return text_.find_first_not_of(" \t\r\n", at_) == std::string_view::npos; }

private:
    std::string_view text_;
    std::size_t at_ = 0, line_ = 0;
};

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while ((at = line.find_first_not_of(" \t", at)) != std::string_view::npos) {
        const std::size_t end = std::min(line.find_first_of(" \t", at), line.size());
        out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

std::string line_text(std::size_t line) { return "line " + std::to_string(line) + ": "; }

double coordinate(std::string_view word, std::size_t line) {
    std::string_view digits = word;
    if (digits.starts_with('+')) digits.remove_prefix(1);
    double x = 0.0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
    if (error != std::errc() || end != digits.data() + digits.size() || digits.empty())
        fault(line_text(line) + "'" + echoed(word) + "' is not a number");
    return x;
}

}  // namespace

std::vector<vec3<double>> xyz_positions(std::string_view text, std::optional<std::uint64_t>& frame) {
    line_reader lines(text);
    std::vector<vec3<double>> chosen;
    std::uint64_t frames = 0;
    while (!lines.only_blanks_left()) {
        const std::string_view count_line = lines.next();
        const auto count_words = words(count_line);
        std::uint64_t count = 0;
        const bool is_count =
            count_words.size() == 1 &&
            std::from_chars(count_words[0].data(), count_words[0].data() + count_words[0].size(), count).ptr ==
                count_words[0].data() + count_words[0].size();
        if (!is_count)
            fault(line_text(lines.number()) + "expected the particle count of frame " + std::to_string(frames) +
                  ", found '" + echoed(count_line) + "'");
        if (count == 0)
            fault(line_text(lines.number()) + "frame " + std::to_string(frames) + " has no particles (N = 0)");
        if (count > most_file_particles)
            fault(line_text(lines.number()) + std::to_string(count) + " particles, more than the " +
                  std::to_string(most_file_particles) + " a positions file may hold");
        if (lines.done()) fault("the file ends before the comment line of frame " + std::to_string(frames));
        lines.next();
        const bool keep = !frame || *frame == frames;
        std::vector<vec3<double>> positions;
        if (keep) positions.reserve(count);
        for (std::uint64_t i = 0; i < count; ++i) {
            if (lines.done())
                fault("the file ends after " + std::to_string(i) + " of the " + std::to_string(count) +
                      " particles of frame " + std::to_string(frames));
            const std::string_view line = lines.next();
            const auto w = words(line);
            if (w.size() < 4) fault(line_text(lines.number()) + "expected 'name x y z', found '" + echoed(line) + "'");
            const vec3<double> r{coordinate(w[1], lines.number()), coordinate(w[2], lines.number()),
                                 coordinate(w[3], lines.number())};
            if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z))
                fault(line_text(lines.number()) + "particle " + std::to_string(i) + " of frame " +
                      std::to_string(frames) + " has a non-finite coordinate " + vector_text(r));
            if (keep) positions.push_back(r);
        }
        if (keep) chosen = std::move(positions);
        ++frames;
    }
    if (frames == 0) fault("no frame (an XYZ file starts with the particle count)");
    if (frame && *frame >= frames)
        fault("no frame " + std::to_string(*frame) + ": the file holds " + std::to_string(frames) + " frame" +
              (frames == 1 ? "" : "s"));
    if (!frame) frame = frames - 1;
    return chosen;
}

}  // namespace stokesian::settings
