// Files written before issue #17 are still read, verified and continued. Such files carry no
// digest_algorithm tag and digests made with the legacy offset basis (core/digest.hpp); their H5MD
// outputs have variable-length /h5md strings and image/{step,time} datasets of their own instead
// of hard links to position's. The tests turn a new checkpoint and result into exactly that (the
// old digests and the old layout written explicitly), then resume and read them with today's code.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/h5md_elements.hpp"
#include "stokesian/core/digest.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/scenario.hpp"
#include "stokesian/io/checkpoint.hpp"
#include "stokesian/io/h5md.hpp"
#include "stokesian/io/hdf5_handles.hpp"
#include "stokesian/io/hdf5_writing.hpp"
#include "stokesian/regression/observed_run.hpp"
#include "stokesian/run/run.hpp"
#include "stokesian/settings/scenario_loader.hpp"
#include "support/build_paths.hpp"
#include "support/h5md_comparison.hpp"
#include "support/scratch_directory.hpp"
#include "support/stoppable_run.hpp"

using namespace stokesian;
namespace fs = std::filesystem;
namespace hdf5 = stokesian::io::hdf5;

namespace {

// The tetrahedron (periodic: image is written) over 120 tau_s at dt = 0.1, a frame every 10 steps.
scenario tetrahedron_for_120_tau() {
    scenario s =
        load_scenario(std::string(::stokesian::test_support::project_source_dir) + "/scenarios/tetrahedron.toml");
    s.run.dt = 0.1;
    s.run.time = 120.0;
    s.run.sample_every = 1.0;
    return s;
}

hdf5::file open_for_writing(const fs::path& path) {
    return hdf5::file(hdf5::check(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "opening " + path.string()));
}

// Replaces the hard link image/<name> -> position/<name> by a dataset of its own with the same
// values, as the writer of f14912e made it.
void unlink_image_dataset(hid_t file, const char* name, hid_t file_type, hid_t memory_type, std::size_t element_bytes) {
    const hdf5::dataset shared(
        hdf5::check(H5Dopen2(file, (std::string("/particles/trajectory/image/") + name).c_str(), H5P_DEFAULT),
                    "opening image dataset"));
    const hdf5::dataspace space(hdf5::check(H5Dget_space(shared.get()), "reading a shape"));
    hsize_t frames = 0;
    hdf5::check(H5Sget_simple_extent_dims(space.get(), &frames, nullptr), "reading a shape");
    std::vector<unsigned char> values(frames * element_bytes);
    if (frames > 0)
        hdf5::check(H5Dread(shared.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "reading");
    const hdf5::group image(hdf5::check(H5Gopen2(file, "/particles/trajectory/image", H5P_DEFAULT), "opening image"));
    hdf5::check(H5Ldelete(image.get(), name, H5P_DEFAULT), "unlinking");
    const std::array<hsize_t, 1> chunk{io::scalar_chunk_samples};
    const hdf5::dataset own = io::create_extensible_dataset(image.get(), name, file_type, {}, chunk);
    hdf5::check(H5Dset_extent(own.get(), &frames), "sizing");
    if (frames > 0)
        hdf5::check(H5Dwrite(own.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "writing");
}

// The interrupted run's checkpoint as f14912e wrote it: every digest under the legacy basis, no tag.
void make_legacy_checkpoint(const fs::path& output) {
    const fs::path checkpoint_path = io::checkpoint_path_for(output);
    io::run_checkpoint c = io::read_checkpoint(checkpoint_path);
    ASSERT_EQ(c.digests, digest_algorithm::fnv1a64);
    c.digests = digest_algorithm::legacy_fnv1a64;
    c.run["scenario_text_fnv1a64"] = text_digest(c.run.at("scenario_text"), digest_algorithm::legacy_fnv1a64);
    {
        const io::h5md_file f(fs::exists(output) ? output : fs::path(output) += ".partial");
        const std::size_t last = c.frames_written - 1;
        const std::vector<double> positions = f.read_doubles("/particles/trajectory/position/value");
        const std::size_t per_frame = positions.size() / f.shape("/particles/trajectory/position/value")[0];
        c.last_frame_digest = io::trajectory_digest(
            f.read_integers("/particles/trajectory/position/step").at(last),
            f.read_doubles("/particles/trajectory/position/time").at(last),
            std::vector<double>(positions.begin() + last * per_frame, positions.begin() + (last + 1) * per_frame),
            digest_algorithm::legacy_fnv1a64);
    }
    io::write_checkpoint(checkpoint_path, c);
}

// A result in f14912e's layout: image's own step and time, variable-length H5MD strings.
void make_legacy_layout(const fs::path& output) {
    const hdf5::file file = open_for_writing(output);
    unlink_image_dataset(file.get(), "step", H5T_STD_I64LE, H5T_NATIVE_INT64, sizeof(std::int64_t));
    unlink_image_dataset(file.get(), "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, sizeof(double));
    const hdf5::group author(hdf5::check(H5Gopen2(file.get(), "/h5md/author", H5P_DEFAULT), "opening"));
    io::write_string_attribute(author.get(), "name", "someone");  // variable-length, as before
    const hdf5::group box(hdf5::check(H5Gopen2(file.get(), "/particles/trajectory/box", H5P_DEFAULT), "opening"));
    io::write_string_array_attribute(box.get(), "boundary", {"periodic", "periodic", "periodic"});
}

class LegacyFiles : public stokesian::test_support::scratch_directory_test {
protected:
    LegacyFiles() : scratch_directory_test("stokesian_legacy") {}

    run_result run(const scenario& s, const fs::path& out, std::optional<std::uint64_t> stop = {},
                   bool resume = false) {
        return test_support::stoppable_run(s, out, stop, resume);
    }
};

}  // namespace

// A checkpoint of before the fix continues bit for bit: its legacy digests are verified (the
// scenario text, the journal's last frame), and the next checkpoint, written between two samples,
// names the kept frame under today's digest.
TEST_F(LegacyFiles, AnInterruptedRunOfBeforeTheFixResumesBitForBit) {
    const scenario s = tetrahedron_for_120_tau();
    const fs::path straight = dir_ / "straight.h5", pieces = dir_ / "pieces.h5";
    const run_result expected = run(s, straight);
    ASSERT_EQ(expected.status, "completed");

    ASSERT_TRUE(run(s, pieces, 505).resumable);  // between samples
    make_legacy_checkpoint(pieces);
    const run_result second = run(s, pieces, 508, true);  // no sample between 505 and 508
    ASSERT_TRUE(second.resumable) << second.status;
    EXPECT_EQ(io::read_checkpoint(io::checkpoint_path_for(pieces)).digests, digest_algorithm::fnv1a64);
    const run_result last = run(s, pieces, std::nullopt, true);
    ASSERT_EQ(last.status, "completed");
    EXPECT_EQ(last.final_state_digest, expected.final_state_digest);
    EXPECT_EQ(test_support::first_difference(straight.string(), pieces.string()), "");
}

// A tampered legacy checkpoint is still caught: the legacy digests are checked, not skipped.
TEST_F(LegacyFiles, ALegacyCheckpointOfAnotherFrameIsRefused) {
    const scenario s = tetrahedron_for_120_tau();
    const fs::path out = dir_ / "run.h5";
    ASSERT_TRUE(run(s, out, 500).resumable);
    make_legacy_checkpoint(out);
    io::run_checkpoint c = io::read_checkpoint(io::checkpoint_path_for(out));
    c.last_frame_digest = text_digest("another frame", digest_algorithm::legacy_fnv1a64);
    io::write_checkpoint(io::checkpoint_path_for(out), c);
    try {
        run(s, out, std::nullopt, true);
        ADD_FAILURE() << "a checkpoint naming another frame was accepted";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("differs from the one the checkpoint recorded"), std::string::npos)
            << e.what();
    }
}

// A result of before the fix (no tag, the final state's legacy digest, the old layout) reads as
// such: its digests are the legacy ones, and it holds no FNV-1a 64 digest of its final state.
TEST_F(LegacyFiles, AResultOfBeforeTheFixReadsWithItsLegacyDigests) {
    const fs::path out = dir_ / "result.h5";
    const run_result r = run(tetrahedron_for_120_tau(), out);
    ASSERT_EQ(r.status, "completed");
    const regression::observed_run now = regression::read_observed_run(out);
    EXPECT_EQ(now.digests, digest_algorithm::fnv1a64);
    EXPECT_EQ(now.final_state_digest, r.final_state_digest);
    EXPECT_EQ(now.by_algorithm.at(digest_algorithm::legacy_fnv1a64).final_state, r.legacy_final_state_digest);
    EXPECT_EQ(now.provenance.at("digest_algorithm"), "fnv1a64");
    {
        const hdf5::file file = open_for_writing(out);
        const hdf5::group run_group(hdf5::check(H5Gopen2(file.get(), "/parameters/run", H5P_DEFAULT), "opening"));
        hdf5::check(H5Adelete(run_group.get(), "digest_algorithm"), "deleting");
        hdf5::check(H5Adelete(run_group.get(), "final_state_digest_legacy"), "deleting");
        io::write_string_attribute(run_group.get(), "final_state_digest", r.legacy_final_state_digest);
    }
    make_legacy_layout(out);
    const regression::observed_run old = regression::read_observed_run(out);
    EXPECT_EQ(old.digests, digest_algorithm::legacy_fnv1a64);
    EXPECT_EQ(old.final_state_digest, r.legacy_final_state_digest);
    EXPECT_EQ(old.by_algorithm.at(digest_algorithm::legacy_fnv1a64).final_state, r.legacy_final_state_digest);
    EXPECT_EQ(old.by_algorithm.at(digest_algorithm::fnv1a64).final_state, "");
    EXPECT_EQ(old.scenario_fingerprint, old.by_algorithm.at(digest_algorithm::legacy_fnv1a64).scenario_fingerprint);
    EXPECT_EQ(old.by_algorithm.at(digest_algorithm::fnv1a64).scenario_fingerprint, now.scenario_fingerprint);
    EXPECT_EQ(old.provenance.count("digest_algorithm"), 0u);  // an entry recorded from it is a legacy one
    const io::h5md_file f(out);
    EXPECT_EQ(f.read_integers("/particles/trajectory/image/step"),
              f.read_integers("/particles/trajectory/position/step"));
    EXPECT_EQ(f.string_attribute("/h5md/author", "name"), "someone");
}
