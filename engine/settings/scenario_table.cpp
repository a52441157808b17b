// The [scenario], [particles], [particles.lattice], [particles.file], [particles.random] and [output]
// tables, and which sub-tables each logical table accepts.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "field_reader.hpp"
#include "scenario_tables.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/safe_name.hpp"

namespace stokesian::settings {

namespace {

// The name becomes the default output's file name (stokesian/core/safe_name.hpp).
void check_name(const field_reader& r, scenario& s) {
    const auto e = r.table().find("name");
    if (s.name.empty()) r.check().fail(*e, "expected a non-empty string");
    if (const std::string why = unsafe_name_reason(s.name); !why.empty())
        r.check().fail(e->key, quoted_printable(s.name), "not a safe file name: " + why);
}

const field<scenario> scenario_table[] = {
    {.key = "name",
     .member = &scenario::name,
     .rule = {.what = "a non-empty string"},
     .doc = {"string", "required", "non-empty; a safe file name (it names the default output)"},
     .missing = "a non-empty string",
     .after = check_name},
    {.key = "description", .member = &scenario::description, .doc = {"string", "`\"\"`", ""}},
};

// Read by initial_state.cpp (the positions come from one of four sources, the forces from one of
// two keys).
const field<initial_state> particles[] = {
    {.key = "positions", .doc = {"array of vectors", "", "at least one; in a"}},
    {.key = "force", .doc = {"vector", "", "the same constant external force on every particle, in F"}},
    {.key = "forces", .doc = {"array of vectors", "", "one per particle, in the order of the positions"}},
    {.key = "allow_overlap", .doc = {"boolean", "`false`", "accept spheres closer than 2a at t = 0"}},
};

constexpr std::string_view lattice_kinds[] = {"fcc"};

const field<lattice_settings> lattice[] = {
    {.key = "kind",
     .member = &lattice_settings::kind,
     .rule = {.choices = lattice_kinds},
     .doc = {"string", "required", "`\"fcc\"` (the only kind for now)"},
     .missing = "\"fcc\""},
    {.key = "cells",
     .member = &lattice_settings::cells,
     .rule = {.min = 1, .max = max_fcc_cells},
     .doc = {"integer", "required", "1..100 unit cells per edge; N = 4 cells^3"},
     .missing = "an integer >= 1 (N = 4 cells^3)"},
    {.key = "density",
     .member = &lattice_settings::density,
     .rule = {.sign = sign_rule::positive},
     .doc = {"number", "required", "> 0; n = N / L^3 in a^-3, so L = (N/n)^(1/3)"},
     .missing = "a number > 0 (particles per a^3)"},
    {.key = "perturbation",
     .member = &lattice_settings::perturbation,
     .rule = {.sign = sign_rule::non_negative},
     .doc = {"number", "0",
             ">= 0; each coordinate displaced by a uniform random amount in [-p, p) a, then wrapped into the box"}},
    {.key = "seed",
     .member = &lattice_settings::seed,
     .rule = {.min = 0},
     .doc = {"integer", "1", ">= 0; seed of the perturbation"}},
};

constexpr std::string_view file_formats[] = {"h5md", "npy", "xyz"};

void check_file_path(const field_reader& r, positions_file_settings& file) {
    if (file.path.empty()) r.check().fail(*r.table().find("path"), "expected the path of a positions file");
}

// Without `format`, the file name's extension (any case) names it.
void resolve_file_format(const field_reader& r, positions_file_settings& file) {
    if (!file.format.empty()) return;
    std::string extension = std::filesystem::path(file.path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".h5md" || extension == ".h5" || extension == ".hdf5") file.format = "h5md";
    else if (extension == ".npy") file.format = "npy";
    else if (extension == ".xyz") file.format = "xyz";
    else
        r.check().fail(*r.table().find("path"), "expected a file name ending in .h5md, .h5, .hdf5, .npy or .xyz, or " +
                                                    r.table().key("format") + " = \"h5md\", \"npy\" or \"xyz\"");
}

void frame_only_with_frames(const field_reader& r, positions_file_settings& file) {
    if (file.format == "npy")
        if (const auto e = r.table().find("frame"))
            r.check().fail(*e, "a .npy file holds one configuration: frame is for H5MD and XYZ files");
}

void check_file_group(const field_reader& r, positions_file_settings& file) {
    const auto e = r.table().find("group");
    if (!e) return;
    if (file.format != "h5md") r.check().fail(*e, "group is for H5MD files only");
    if (file.group.empty() || file.group.find('/') != std::string::npos)
        r.check().fail(*e, "expected the name of a group of /particles (no '/')");
}

const field<positions_file_settings> positions_file[] = {
    {.key = "path",
     .member = &positions_file_settings::path,
     .rule = {.what = "the path of a positions file"},
     .doc = {"string", "required",
             "the positions file, relative to the scenario file's folder (or absolute); positions in a"},
     .missing = "the path of an H5MD, .npy or XYZ file",
     .after = check_file_path},
    {.key = "format",
     .member = &positions_file_settings::format,
     .rule = {.choices = file_formats},
     .doc = {"string", "from the file name",
             "`\"h5md\"` (`.h5md`, `.h5`, `.hdf5`: `particles/<group>/position`), `\"npy\"` (`.npy`: an (N, 3) "
             "array of float64 or float32) or `\"xyz\"` (`.xyz`: a count line, a comment line, `name x y z` lines)"},
     .after = resolve_file_format},
    {.key = "frame",
     .member = &positions_file_settings::frame,
     .rule = {.min = 0},
     .doc = {"integer", "the last", ">= 0; the frame of an H5MD trajectory or of an XYZ file of several frames"},
     .after = frame_only_with_frames,
     .written = [](const positions_file_settings& f) { return f.format != "npy"; }},
    {.key = "group",
     .member = &positions_file_settings::group,
     .rule = {.what = "the name of a group of /particles"},
     .doc = {"string", "`\"trajectory\"`", "H5MD: the particles group; its `box` gives a periodic box's edges"},
     .after = check_file_group,
     .written = [](const positions_file_settings& f) { return f.format == "h5md"; }},
};

const field<random_suspension_settings> random_suspension[] = {
    {.key = "count",
     .member = &random_suspension_settings::count,
     .rule = {.min = 1, .max = std::int64_t(most_generated_particles)},
     .doc = {"integer", "", "1 ... 4000000; N"}},
    {.key = "volume_fraction",
     .member = &random_suspension_settings::volume_fraction,
     .rule = {.unit_interval = true, .note = "(N (4/3) pi a^3 / V)"},
     .doc = {"number", "", "0 < phi < 1; phi = N (4/3) pi a^3 / V"}},
    {.key = "min_gap",
     .member = &random_suspension_settings::min_gap,
     .rule = {.sign = sign_rule::non_negative},
     .doc = {"number", "0", ">= 0; the least surface gap r - 2a between two spheres, in a"}},
    {.key = "seed",
     .member = &random_suspension_settings::seed,
     .rule = {.min = 0},
     .doc = {"integer", "1", ">= 0; seed of the generator (`std::mt19937_64`)"}},
};

// Fits the H5MD author attribute (io/provenance.hpp, max_author_bytes); TOML strings are UTF-8.
constexpr std::size_t most_author_bytes = 256;

void check_author(const field_reader& r, output_settings& output) {
    const auto e = r.table().find("author");
    if (!e) return;
    if (output.author.empty()) r.check().fail(*e, "expected a non-empty name");
    if (output.author.size() > most_author_bytes)
        r.check().fail(*e, "expected a name of at most " + std::to_string(most_author_bytes) + " bytes");
    for (const char c : output.author)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            r.check().fail(*e, "expected one line of text without control characters");
}

const field<output_settings> output[] = {
    {.key = "author",
     .member = &output_settings::author,
     .doc = {"string", "none",
             "the H5MD author name (`/h5md/author`), one line of at most 256 bytes; `--author` and "
             "`$STOKESIAN_AUTHOR` take precedence, the account name is used when none is set"},
     .after = check_author,
     // An author the scenario did not set is no name (an empty one is refused above).
     .written = [](const output_settings& o) { return !o.author.empty(); }},
    STOKESIAN_EXTRA_OUTPUT_FIELDS  // the keys a build appends (core/output_key_extensions.hpp)
};

constexpr std::string_view top_level_tables[] = {"scenario", "physics",     "box",    "particles",
                                                 "run",      "observables", "output", "cases"};
constexpr std::string_view case_tables[] = {"physics", "box", "particles", "run", "observables", "output"};
constexpr std::string_view physics_tables[] = {"lubrication", "pair_force", "ewald"};
constexpr std::string_view particles_tables[] = {"lattice", "file", "random"};
constexpr std::string_view observables_tables[] = {"cycle", "positive_definiteness"};

}  // namespace

std::span<const field<scenario>> scenario_fields() { return scenario_table; }
std::span<const field<initial_state>> particles_fields() { return particles; }
std::span<const field<lattice_settings>> lattice_fields() { return lattice; }
std::span<const field<positions_file_settings>> positions_file_fields() { return positions_file; }
std::span<const field<random_suspension_settings>> random_suspension_fields() { return random_suspension; }
std::span<const field<output_settings>> output_fields() { return output; }

std::span<const std::string_view> sub_tables(std::string_view table) {
    if (table.empty()) return top_level_tables;
    if (table == "case") return case_tables;
    if (table == "physics") return physics_tables;
    if (table == "particles") return particles_tables;
    if (table == "observables") return observables_tables;
    return {};
}

}  // namespace stokesian::settings
