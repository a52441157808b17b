// The particle sources of a scenario besides written positions and the lattice (docs/reference/scenario-file.md,
// [particles.file] and [particles.random]): positions files of each format read back bit for bit,
// the random suspension against its specification and a committed digest, and what the resolved
// configuration records of them. Broken files and settings: tests/inputs/bad/particles_*.toml.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/lattice.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/physics/box.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/scratch_directory.hpp"
#include "support/toml_document.hpp"

using namespace stokesian;
namespace fs = std::filesystem;

namespace {

// Coordinates that are not round in binary (a lossy conversion anywhere would show), on a grid of
// spacing 5 in a box of 20 (no overlap, inside [-10, 10)).
std::vector<vec3<double>> awkward_positions(std::size_t n, double shift) {
    std::vector<vec3<double>> r;
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<double>(i % 3), y = static_cast<double>(i / 3 % 3), z = static_cast<double>(i / 9);
        r.push_back({5.0 * x - 5.0 + 1.0 / 3.0 + shift, 5.0 * y - 5.0 - 1.0 / 7.0, 5.0 * z - 7.0 + 1e-3 / 11.0});
    }
    return r;
}

void expect_same_bits(const std::vector<vec3<double>>& got, const std::vector<vec3<double>>& expected) {
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const double a = k == 0 ? got[i].x : k == 1 ? got[i].y : got[i].z;
            const double b = k == 0 ? expected[i].x : k == 1 ? expected[i].y : expected[i].z;
            EXPECT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << "particle " << i << " " << k;
        }
}

std::string source_scenario(const std::string& box, const std::string& source, const std::string& physics = "") {
    return "[scenario]\nname = \"sources\"\n" + physics + "[box]\n" + box +
           "\n[particles]\nforce = [0.0, 0.0, -1.0]\n" + source + "\n[run]\ndt = 0.01\nsteps = 10\n";
}

const std::string open_boundary = "boundary = \"open\"\n";
const std::string periodic_boundary = "boundary = \"periodic\"\n";

// The .npy layout of NEP 1 as numpy.save writes it: version 1.0, the header padded with spaces to a
// multiple of 64 bytes and ended by a newline.
std::string npy_bytes(const std::string& descr, bool fortran, std::size_t n, const std::string& data) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': (" + std::to_string(n) + ", 3), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ').append("\n");
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes.push_back(static_cast<char>(header.size() & 0xff));
    bytes.push_back(static_cast<char>(header.size() >> 8));
    return bytes + header + data;
}

template <class T>
std::string raw_bytes(T value, bool big_endian) {
    std::string bytes(sizeof value, '\0');
    std::memcpy(bytes.data(), &value, sizeof value);
    if (big_endian == (std::endian::native == std::endian::little)) std::reverse(bytes.begin(), bytes.end());
    return bytes;
}

std::string shortest_text(double x) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, x).ptr;
    return {text, end};
}

class ParticleSources : public test_support::scratch_directory_test {
protected:
    ParticleSources() : scratch_directory_test("stokesian_particle_sources") {}
    scenario load(const std::string& text) {
        const fs::path path = dir_ / "scenario.toml";
        std::ofstream(path) << text;
        return load_scenario(path);
    }
    void write(const std::string& name, const std::string& bytes) {
        std::ofstream(dir_ / name, std::ios::binary) << bytes;
    }
};

}  // namespace

// ---- [particles.file] ---------------------------------------------------------------------------

TEST_F(ParticleSources, H5mdOutputsAreReadBackBitForBitWithTheirBox) {
    std::vector<std::vector<vec3<double>>> frames;
    {
        io::h5md_writer writer({.path = dir_ / "run.h5md"}, 27, io::box_description{true, {20.0, 21.0, 22.0}});
        for (std::uint64_t t = 0; t < 3; ++t) {
            frame f;
            f.step = 10 * t;
            f.time = 0.1 * static_cast<double>(t);
            f.position = awkward_positions(27, 0.25 * static_cast<double>(t));
            f.image.assign(27, {0, 0, 0});
            f.velocity.assign(27, {0.0, 0.0, -1.0});
            f.force.assign(27, {0.0, 0.0, -1.0});
            writer.append_frame(f);
            frames.push_back(f.position);
        }
        writer.finish();
    }
    const scenario last = load(source_scenario(periodic_boundary, "[particles.file]\npath = \"run.h5md\"\n"));
    expect_same_bits(last.particles.positions, frames[2]);
    EXPECT_EQ(last.system.box.edges, (vec3<double>{20.0, 21.0, 22.0}));
    ASSERT_TRUE(last.positions_file.has_value());
    EXPECT_EQ(last.positions_file->format, "h5md");
    EXPECT_EQ(last.positions_file->frame, std::optional<std::uint64_t>(2));

    const scenario first =
        load(source_scenario(periodic_boundary, "[particles.file]\npath = \"run.h5md\"\nframe = 0\n"));
    expect_same_bits(first.particles.positions, frames[0]);
    // An open scenario takes the positions as they are and no box.
    const scenario open = load(source_scenario(open_boundary, "[particles.file]\npath = \"run.h5md\"\n"));
    expect_same_bits(open.particles.positions, frames[2]);
    EXPECT_FALSE(open.system.box.periodic);
}

TEST_F(ParticleSources, AnOpenH5mdOutputGivesNoBox) {
    const auto positions = awkward_positions(5, 0.0);
    {
        io::h5md_writer writer({.path = dir_ / "open.h5", .write_image = false}, 5, io::box_description{});
        frame f;
        f.position = positions;
        f.velocity.assign(5, {});
        f.force.assign(5, {});
        writer.append_frame(f);
        writer.finish();
    }
    const std::string source = "[particles.file]\npath = \"open.h5\"\n";
    std::string error;
    try {
        load(source_scenario(periodic_boundary, source));
    } catch (const input_error& e) {
        error = e.what();
    }
    EXPECT_NE(error.find("the positions file gives none"), std::string::npos) << error;
    const scenario s = load(source_scenario(periodic_boundary + "edges = [30.0, 30.0, 30.0]\n", source));
    expect_same_bits(s.particles.positions, positions);
    EXPECT_EQ(s.system.box.edges, (vec3<double>{30.0, 30.0, 30.0}));
}

// good.npy was written by numpy.save (tests/inputs/bad/particle_files/make_particle_files.py).
TEST_F(ParticleSources, NpyFilesOfNumpyAndOfEveryLayoutAreReadBitForBit) {
    const fs::path numpy_file = fs::path(test_support::project_source_dir) / "tests/inputs/bad/particle_files/good.npy";
    const scenario numpy =
        load(source_scenario(open_boundary, "[particles.file]\npath = \"" + numpy_file.string() + "\"\n"));
    expect_same_bits(numpy.particles.positions, {{-3.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {3.0, 0.0, 0.0}});

    const auto positions = awkward_positions(27, 0.0);
    std::string little_c, big_fortran32;
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) little_c += raw_bytes(x, false);
    std::vector<vec3<double>> narrowed;
    for (const auto& r : positions) narrowed.push_back({double(float(r.x)), double(float(r.y)), double(float(r.z))});
    for (int k = 0; k < 3; ++k)
        for (const auto& r : positions) big_fortran32 += raw_bytes(float(k == 0 ? r.x : k == 1 ? r.y : r.z), true);
    write("c.npy", npy_bytes("<f8", false, 27, little_c));
    write("fortran.npy", npy_bytes(">f4", true, 27, big_fortran32));
    const scenario c = load(source_scenario(open_boundary, "[particles.file]\npath = \"c.npy\"\n"));
    expect_same_bits(c.particles.positions, positions);
    EXPECT_FALSE(c.positions_file->frame.has_value());
    const scenario fortran = load(source_scenario(open_boundary, "[particles.file]\npath = \"fortran.npy\"\n"));
    expect_same_bits(fortran.particles.positions, narrowed);
}

TEST_F(ParticleSources, XyzFramesAreReadBitForBit) {
    const auto first = awkward_positions(27, 0.0), second = awkward_positions(27, 0.5);
    std::string text;
    for (const auto* frame_positions : {&first, &second}) {
        text += "27\nextended comment: Lattice=\"20 0 0 0 20 0 0 0 20\"\n";
        for (const auto& r : *frame_positions) {
            char line[128];
            // 17 significant digits in one frame, the shortest round trip in the other.
            if (frame_positions == &first)
                std::snprintf(line, sizeof line, "Na %.17g\t%.17g %.17g 1 2 3\r\n", r.x, r.y, r.z);
            else
                std::snprintf(line, sizeof line, "C %s %s %s%s\n", shortest_text(r.x).c_str(),
                              shortest_text(r.y).c_str(), r.z > 0.0 ? "+" : "", shortest_text(r.z).c_str());
            text += line;
        }
    }
    write("two.xyz", text + "\n\n");
    const scenario last = load(source_scenario(open_boundary, "[particles.file]\npath = \"two.xyz\"\n"));
    expect_same_bits(last.particles.positions, second);
    EXPECT_EQ(last.positions_file->frame, std::optional<std::uint64_t>(1));
    const scenario s = load(source_scenario(open_boundary, "[particles.file]\npath = \"two.xyz\"\nframe = 0\n"));
    expect_same_bits(s.particles.positions, first);
}

// The file is not part of a run's output: its positions are listed in the resolved configuration
// however many there are, so that the run is reproducible from the output alone.
TEST_F(ParticleSources, TheResolvedConfigurationListsAFilesPositionsInFull) {
    std::vector<vec3<double>> positions;
    for (std::size_t i = 0; i < 150; ++i)
        positions.push_back({3.0 * static_cast<double>(i) + 1.0 / 3.0, -1.0 / 7.0, 1e-300});
    std::string data;
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) data += raw_bytes(x, false);
    write("line.npy", npy_bytes("<f8", false, positions.size(), data));
    const scenario s = load(source_scenario(open_boundary, "[particles.file]\npath = \"line.npy\"\n"));
    const toml::table resolved = toml::parse(resolved_configuration(s));
    EXPECT_EQ(resolved["particles"]["file"]["path"].value_or(std::string()), "line.npy");
    EXPECT_EQ(resolved["particles"]["file"]["format"].value_or(std::string()), "npy");
    EXPECT_FALSE(resolved["particles"]["file"]["frame"]);
    const toml::array* listed = resolved["particles"]["positions"].as_array();
    ASSERT_NE(listed, nullptr);
    std::vector<vec3<double>> read;
    for (const auto& r : *listed) {
        const toml::array& v = *r.as_array();
        read.push_back({v[0].value_or(0.0), v[1].value_or(0.0), v[2].value_or(0.0)});
    }
    expect_same_bits(read, positions);

    // Written positions beyond 100 stay unlisted, as before (their fingerprint identifies them).
    std::string written = "positions = [";
    for (const auto& r : positions)
        written += "[" + shortest_text(r.x) + ", " + shortest_text(r.y) + ", " + shortest_text(r.z) + "],";
    const scenario plain = load(source_scenario(open_boundary, written + "]\n"));
    const std::string text = resolved_configuration(plain);
    EXPECT_EQ(text.find("positions = ["), std::string::npos);
    EXPECT_EQ(text.find("[particles.file]"), std::string::npos);
    EXPECT_EQ(text.find("[particles.random]"), std::string::npos);
}

// ---- [particles.random] -------------------------------------------------------------------------

namespace {

const std::string random_suspension_source =
    "[particles.random]\ncount = 64\nvolume_fraction = 0.2\nmin_gap = 0.1\nseed = 2026\n";

// The specification of docs/reference/scenario-file.md, "[particles.random]", written plainly (every pair, no
// cells): std::mt19937_64(seed); a candidate draws x, y, z in this order, each (u - 0.5) L_k with u
// = (output >> 11) 2^-53; it is kept when dot(d, d) >= (2a + gap)^2 for every sphere placed before,
// d = minimum_image(candidate - r_j) (the plain difference in an open box).
std::vector<vec3<double>> specified_placement(std::size_t n, vec3<double> edges, bool periodic, double radius,
                                              double gap, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    auto u = [&] { return static_cast<double>(generator() >> 11) * 0x1p-53; };
    const double contact = 2.0 * radius + gap;
    std::vector<vec3<double>> placed;
    while (placed.size() < n) {
        const double x = (u() - 0.5) * edges.x;
        const double y = (u() - 0.5) * edges.y;
        const double z = (u() - 0.5) * edges.z;
        const vec3<double> r{x, y, z};
        bool free = true;
        for (const auto& other : placed) {
            const vec3<double> d = minimum_image(r - other, box_geometry<double>{periodic, edges});
            if (dot(d, d) < contact * contact) free = false;
        }
        if (free) placed.push_back(r);
    }
    return placed;
}

std::string positions_digest(const std::vector<vec3<double>>& positions) {
    digest_builder hash;
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) hash.bytes(&x, sizeof x);
    return hash.hex();
}

}  // namespace

// The generator the specification names: the standard fixes std::mt19937_64's sequence
// ([rand.predef]: the 10000th output from the default seed is 9981545732273789042).
TEST(RandomSuspension, TheGeneratorIsTheStandardsMersenneTwister) {
    std::mt19937_64 generator;
    generator.discard(9999);
    EXPECT_EQ(generator(), 9981545732273789042ull);
}

TEST(RandomSuspension, FollowsItsSpecification) {
    const scenario periodic = parse_scenario(source_scenario(periodic_boundary, random_suspension_source), "x.toml");
    const double edge = cube_root_15_bits(64.0 * (4.0 / 3.0 * std::numbers::pi) / 0.2);
    EXPECT_EQ(periodic.system.box.edges, (vec3<double>{edge, edge, edge}));
    expect_same_bits(periodic.particles.positions,
                     specified_placement(64, periodic.system.box.edges, true, 1.0, 0.1, 2026));

    // Open, and another radius: the cube the centres fill has edge (N (4/3) pi a^3 / phi)^(1/3).
    const scenario open =
        parse_scenario(source_scenario(open_boundary, random_suspension_source, "[physics]\nradius = 0.5\n"), "x.toml");
    const double a = 0.5;
    const double open_edge = cube_root_15_bits(64.0 * (4.0 / 3.0 * std::numbers::pi * a * a * a) / 0.2);
    expect_same_bits(open.particles.positions,
                     specified_placement(64, {open_edge, open_edge, open_edge}, false, a, 0.1, 2026));
    EXPECT_FALSE(open.system.box.periodic);
}

// Computed once by this implementation (which FollowsItsSpecification checks against the plain one):
// a change of these bits is a change of the format, and scenarios using [particles.random] would
// start from other positions.
TEST(RandomSuspension, ItsPositionsHaveTheCommittedDigest) {
    const scenario s = parse_scenario(source_scenario(periodic_boundary, random_suspension_source), "x.toml");
    EXPECT_EQ(positions_digest(s.particles.positions), "35c3456969b21cbb");
    const std::string resolved = resolved_configuration(s);
    EXPECT_NE(resolved.find("positions_fnv1a64 = \"" + positions_digest(s.particles.positions) + "\""),
              std::string::npos);
}

TEST(RandomSuspension, TheSameSeedGivesTheSameBitsAndAnotherSeedOthers) {
    const std::string text = source_scenario(periodic_boundary, random_suspension_source);
    const scenario a = parse_scenario(text, "x.toml"), b = parse_scenario(text, "x.toml");
    expect_same_bits(a.particles.positions, b.particles.positions);
    std::string reseeded = text;
    reseeded.replace(reseeded.find("seed = 2026"), 11, "seed = 2027");
    EXPECT_NE(positions_digest(parse_scenario(reseeded, "x.toml").particles.positions),
              positions_digest(a.particles.positions));
}

TEST(RandomSuspension, KeepsTheGapInThePeriodicBox) {
    const scenario s = parse_scenario(
        source_scenario(periodic_boundary, "[particles.random]\ncount = 300\nvolume_fraction = 0.25\nmin_gap = 0.2\n"),
        "x.toml");
    ASSERT_EQ(s.particles.size(), 300u);
    const box_geometry<double> box{true, s.system.box.edges};
    double closest = 1e300;
    for (std::size_t i = 0; i < s.particles.size(); ++i) {
        const vec3<double> r = s.particles.positions[i];
        EXPECT_TRUE(r.x >= -0.5 * box.edges.x && r.x < 0.5 * box.edges.x) << i;
        for (std::size_t j = 0; j < i; ++j) {
            const vec3<double> d = minimum_image(r - s.particles.positions[j], box);
            closest = std::min(closest, std::sqrt(dot(d, d)));
        }
    }
    EXPECT_GE(closest, 2.2);
    EXPECT_LT(closest, 2.3);  // the gap is reached, not a much larger one
}

TEST(RandomSuspension, TwoOfCountVolumeFractionAndEdgesGiveTheThird) {
    const std::string edges = periodic_boundary + "edges = [20.0, 30.0, 40.0]\n";
    const double sphere = 4.0 / 3.0 * std::numbers::pi;
    const scenario from_fraction =
        parse_scenario(source_scenario(edges, "[particles.random]\nvolume_fraction = 0.1\n"), "x.toml");
    EXPECT_EQ(from_fraction.particles.size(), static_cast<std::size_t>(std::nearbyint(0.1 * 24000.0 / sphere)));
    const scenario from_count = parse_scenario(source_scenario(edges, "[particles.random]\ncount = 500\n"), "x.toml");
    EXPECT_EQ(from_count.particles.size(), 500u);
    EXPECT_EQ(from_count.system.box.edges, (vec3<double>{20.0, 30.0, 40.0}));
    ASSERT_TRUE(from_count.random_suspension.has_value());
    EXPECT_EQ(from_count.random_suspension->volume_fraction, 500.0 * sphere / 24000.0);

    const toml::table resolved = toml::parse(resolved_configuration(from_count));
    EXPECT_EQ(resolved["particles"]["random"]["count"].value_or(0), 500);
    EXPECT_EQ(resolved["particles"]["random"]["volume_fraction"].value_or(0.0), 500.0 * sphere / 24000.0);
    EXPECT_EQ(resolved["particles"]["random"]["min_gap"].value_or(-1.0), 0.0);
    EXPECT_EQ(resolved["particles"]["random"]["seed"].value_or(0), 1);
    EXPECT_EQ(resolved["box"]["edges"][1].value_or(0.0), 30.0);
}

// Near saturation the attempts grow without bound: a placement may make 1000 N + 10^6, which 1000
// spheres at phi = 0.35 stay within (as docs/reference/scenario-file.md says) and at 0.36 do not: one line with
// the numbers instead of a load that never ends.
TEST(RandomSuspension, ACrowdedBoxEndsWithTheAttemptsMade) {
    const std::string thousand = "[particles.random]\ncount = 1000\nvolume_fraction = ";
    EXPECT_EQ(parse_scenario(source_scenario(periodic_boundary, thousand + "0.35\n"), "x.toml").particles.size(),
              1000u);
    std::string error;
    try {
        parse_scenario(source_scenario(periodic_boundary, thousand + "0.36\n"), "x.toml");
    } catch (const input_error& e) {
        error = e.what();
    }
    EXPECT_NE(error.find("random sequential addition placed 995 of 1000 spheres in the 2000000 attempts it may make"),
              std::string::npos)
        << error;
}
