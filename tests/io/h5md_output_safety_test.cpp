// H5MD writer: crash safety (.partial and the name it is built under), refusal to overwrite, an
// unusable directory as one input error.
#include "h5md_fixture.hpp"

TEST_F(H5md, ExistingFileWithoutForceIsLeftUntouched) {
    const fs::path path = dir_ / "run.h5";
    write_text(path, "precious results");
    const std::vector<char> before = file_bytes(path);
    try {
        h5md_writer writer({.path = path}, particles, periodic_box);
        FAIL() << "expected input_error";
    } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("output file exists; use --force to replace it"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
    }
    EXPECT_EQ(file_bytes(path), before);
    EXPECT_FALSE(fs::exists(dir_ / "run.h5.partial"));
}

TEST_F(H5md, ForceReplacesAnExistingFile) {
    const fs::path path = dir_ / "run.h5";
    write_text(path, "old results");
    write_sample_file(path, true);
    const h5md_file file(path);
    EXPECT_EQ(file.shape("/particles/trajectory/position/value"), (std::vector<std::size_t>{frames, particles, 3}));
    EXPECT_FALSE(fs::exists(dir_ / "run.h5.partial"));
}

TEST_F(H5md, UnfinishedWriterLeavesOnlyThePartialFile) {
    const fs::path path = dir_ / "run.h5";
    write_text(fs::path(path) += ".partial", "stale remains of an earlier crash");
    {
        h5md_writer writer({.path = path}, particles, periodic_box);
        EXPECT_EQ(writer.partial_path(), fs::path(path) += ".partial");
        EXPECT_EQ(writer.final_path(), path);
        writer.replace_partial();  // as a run does once its identity is written
        writer.append_frame(make_frame(0));
        writer.append_frame(make_frame(1));
    }
    EXPECT_FALSE(fs::exists(path));
    ASSERT_TRUE(fs::exists(fs::path(path) += ".partial"));
    // Closed cleanly: the frames written so far are readable.
    const h5md_file partial(fs::path(path) += ".partial");
    EXPECT_EQ(partial.shape("/particles/trajectory/position/value"), (std::vector<std::size_t>{2, particles, 3}));
}

// A kill between the file's creation and the flush of what names the run must not leave a readable
// <path>.partial without /parameters (LongKillResume checks that after every kill).
TEST_F(H5md, AFileIsBuiltUnderAnotherNameUntilItIsMadeThePartialOutput) {
    const fs::path path = dir_ / "run.h5";
    const fs::path partial = fs::path(path) += ".partial", building = fs::path(path) += ".partial.rebuild";
    write_text(building, "what a killed start left");
    const std::vector<char> stale = file_bytes(building);
    {
        h5md_writer writer({.path = path}, particles, periodic_box);
        EXPECT_FALSE(fs::exists(partial));
        EXPECT_NE(file_bytes(building), stale);  // replaced by the new file
        writer.write_parameters("scenario", {{"source_text", "x"}});
        writer.replace_partial();
        EXPECT_FALSE(fs::exists(building));
    }
    const h5md_file named(partial);
    EXPECT_EQ(named.string_attribute("/parameters/scenario", "source_text"), "x");
    { const h5md_writer killed_early({.path = dir_ / "early.h5", .force = true}, particles, periodic_box); }
    EXPECT_FALSE(fs::exists(dir_ / "early.h5.partial"));
}

TEST_F(H5md, MissingOrUnusableDirectoryIsAnInputError) {
    EXPECT_THROW(h5md_writer({.path = dir_ / "missing" / "run.h5"}, particles, periodic_box), input_error);
    write_text(dir_ / "plain_file", "not a directory");
    EXPECT_THROW(h5md_writer({.path = dir_ / "plain_file" / "run.h5"}, particles, periodic_box), input_error);
    EXPECT_THROW(h5md_writer({.path = dir_}, particles, periodic_box), input_error);  // a directory

    // Permissions do not bind root, so this part only means something for other users.
    if (::geteuid() != 0) {
        const fs::path locked = dir_ / "locked";
        fs::create_directory(locked);
        fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_THROW(h5md_writer({.path = locked / "run.h5"}, particles, periodic_box), input_error);
        fs::permissions(locked, fs::perms::owner_all);
    }
    // Nothing was created.
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir_))
        EXPECT_EQ(entry.path().filename().string().find("run.h5"), std::string::npos) << entry.path();
}
