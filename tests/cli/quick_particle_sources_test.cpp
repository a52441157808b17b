// Runs through the CLI that start from each particle source besides written positions and the
// lattice (docs/reference/scenario-file.md, [particles.file] and [particles.random]): the run's first frame holds
// the source's positions bit for bit, and the output alone reproduces them (the resolved
// configuration lists a file's positions, the random suspension's settings regenerate its own).
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "stokesian/core/scenario.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"
#include "support/toml_document.hpp"

namespace fs = std::filesystem;
using namespace stokesian;
using test_support::run_cli;

namespace {

// The positions of frame `index` of an output (flattened x, y, z per particle).
std::vector<double> frame_positions(const fs::path& output, std::size_t index) {
    return io::h5md_file(output).read_doubles_row("/particles/trajectory/position/value", index);
}

std::vector<double> flattened(const std::vector<vec3<double>>& positions) {
    std::vector<double> flat;
    for (const auto& r : positions) flat.insert(flat.end(), {r.x, r.y, r.z});
    return flat;
}

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& expected, const std::string& what) {
    ASSERT_EQ(got.size(), expected.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(expected[i])) << what << " " << i;
}

std::string resolved_configuration_of(const fs::path& output) {
    return io::h5md_file(output).string_attribute("/parameters/scenario", "resolved_configuration").value_or("");
}

class ParticleSourceRuns : public test_support::scratch_directory_test {
protected:
    ParticleSourceRuns() : scratch_directory_test("stokesian_particle_source_runs") {}
    fs::path scenario(const std::string& name, const std::string& box, const std::string& source) {
        const fs::path path = dir_ / (name + ".toml");
        std::ofstream(path) << "[scenario]\nname = \"" << name << "\"\n[box]\n"
                            << box << "\n[particles]\nforce = [0.0, 0.0, -1.0]\n"
                            << source << "\n[run]\ndt = 0.01\nsteps = 20\nsample_every = 0.1\n";
        return path;
    }
    fs::path run(const fs::path& scenario_file, std::vector<std::string> extra = {}) {
        const fs::path out = dir_ / (scenario_file.stem().string() + ".h5");
        std::vector<std::string> args{"run", scenario_file.string(), "-o", out.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto o = run_cli(args, dir_);
        EXPECT_EQ(o.exit_code, 0) << o.err;
        return out;
    }
};

}  // namespace

// A run continues from another run's last frame, in that run's periodic box.
TEST_F(ParticleSourceRuns, AnH5mdOutputsLastFrameStartsTheNextRun) {
    const fs::path first = run(test_support::tetrahedron_toml, {"--time", "3"});
    const auto shape = io::h5md_file(first).shape("/particles/trajectory/position/value");
    ASSERT_EQ(shape.size(), 3u);
    const std::vector<double> last = frame_positions(first, shape[0] - 1);

    const fs::path next = run(
        scenario("continued", "boundary = \"periodic\"\n", "[particles.file]\npath = \"" + first.string() + "\"\n"));
    expect_same_bits(frame_positions(next, 0), last, "the first frame");
    const std::string resolved = resolved_configuration_of(next);
    EXPECT_NE(resolved.find("[particles.file]\npath = \"" + first.string() + "\"\nformat = \"h5md\"\nframe = " +
                            std::to_string(shape[0] - 1) + "\ngroup = \"trajectory\"\n"),
              std::string::npos)
        << resolved;
    EXPECT_NE(resolved.find("edges = [64.0, 64.0, 64.0]"), std::string::npos) << resolved;
}

// Without a trajectory the output keeps no frame; the resolved configuration still lists the
// file's positions, which the file (removed here) no longer holds.
TEST_F(ParticleSourceRuns, NpyAndXyzFilesStartRunsReproducibleFromTheirOutputAlone) {
    std::vector<vec3<double>> positions;
    for (int i = 0; i < 120; ++i)
        positions.push_back({-20.0 + 3.0 * (i % 12) + 1.0 / 3.0, -15.0 + 3.0 * (i / 12) - 1.0 / 7.0, 0.1 * (i % 5)});
    std::string data;
    for (const auto& r : positions)
        for (double x : {r.x, r.y, r.z}) data.append(reinterpret_cast<const char*>(&x), sizeof x);
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (120, 3), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ').append("\n");
    std::ofstream(dir_ / "cloud.npy", std::ios::binary)
        << std::string("\x93NUMPY\x01\x00", 8) << static_cast<char>(header.size()) << '\0' << header << data;
    std::ofstream xyz(dir_ / "cloud.xyz");
    xyz << "120\nthe same cloud\n";
    xyz.precision(17);
    for (const auto& r : positions) xyz << "Si " << r.x << ' ' << r.y << ' ' << r.z << '\n';
    xyz.close();

    for (const char* file : {"cloud.npy", "cloud.xyz"}) {
        const std::string name = fs::path(file).extension() == ".npy" ? "from_npy" : "from_xyz";
        const fs::path out =
            run(scenario(name, "boundary = \"open\"\n", std::string("[particles.file]\npath = \"") + file + "\"\n"),
                {"--no-trajectory"});
        fs::remove(dir_ / file);
        EXPECT_EQ(io::h5md_file(out).shape("/particles/trajectory/position/value")[0], 0u) << file;  // no frame
        const toml::table resolved = toml::parse(resolved_configuration_of(out));
        std::vector<double> listed;
        if (const toml::array* rows = resolved["particles"]["positions"].as_array())
            for (const auto& row : *rows)
                for (const auto& x : *row.as_array()) listed.push_back(x.value_or(0.0));
        expect_same_bits(listed, flattened(positions), file);
    }
}

// The shipped example runs to its end (its pair repulsion keeps the spheres apart), and starts from
// the same positions every time.
TEST_F(ParticleSourceRuns, TheRandomSuspensionExampleRunsTheSameTwice) {
    const fs::path example = test_support::checkout_file("scenarios/random_suspension.toml");
    const fs::path first = run(example);
    EXPECT_EQ(io::h5md_file(first).string_attribute("/parameters/run", "status").value_or(""), "completed");
    const fs::path again = dir_ / "again.h5";
    ASSERT_EQ(run_cli({"run", example.string(), "--time", "0.5", "-o", again.string()}, dir_).exit_code, 0);
    const std::vector<double> start = frame_positions(first, 0);
    expect_same_bits(frame_positions(again, 0), start, "the first frame of the second run");
    expect_same_bits(start, flattened(load_scenario(example).particles.positions), "the loader's positions");
    EXPECT_EQ(start.size(), 600u);
    const std::string resolved = resolved_configuration_of(first);
    EXPECT_NE(resolved.find("[particles.random]\ncount = 200\nvolume_fraction = "), std::string::npos) << resolved;
    EXPECT_NE(resolved.find("min_gap = 0.1\nseed = 1\n"), std::string::npos) << resolved;
}
