// The build's layer check (cmake/CheckLayerIncludes.cmake; engine/README.md, "Layers"), run on small
// fixture trees as the build runs it on the engine: an include against the layers fails with one
// line naming the file, the line and both layers; a tree that keeps to the layers passes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::test_support::read_text;

namespace {

const std::string all_layers = "numeric,physics,core,cpu,cuda,backends,settings,observables,io,run";

struct check_outcome {
    int exit_code = -1;
    std::string output;
};

class LayerCheck : public stokesian::test_support::scratch_directory_test {
protected:
    LayerCheck() : scratch_directory_test("stokesian_layer_check") {}

    void write(const fs::path& relative, const std::string& text) {
        fs::create_directories((dir_ / relative).parent_path());
        std::ofstream(dir_ / relative) << text;
    }

    // Checks the sources of `layer` under engine/<layer> (its public headers in its include/ folder).
    check_outcome check(const std::string& layer, const std::string& may_include) {
        const fs::path output = dir_ / "check_output.txt";
        const std::string command = std::string("'") + STOKESIAN_CMAKE_COMMAND + "' -DLAYER=" + layer +
                                    " -DMAY_INCLUDE=" + may_include + " -DLAYERS=" + all_layers +
                                    " '-DDIRS=" + (dir_ / "engine" / layer).string() + "' '-DROOT=" + dir_.string() +
                                    "' '-DSTAMP=" + (dir_ / "checked").string() + "' -P '" +
                                    ::stokesian::test_support::project_source_dir +
                                    "/cmake/CheckLayerIncludes.cmake' > '" + output.string() + "' 2>&1";
        const int status = std::system(command.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(output)};
    }
};

TEST_F(LayerCheck, AnUpwardIncludeFailsWithOneLineNamingFileLineAndLayers) {
    write("engine/core/model.cpp",
          "// the model\n#include <vector>\n\n#include \"stokesian/run/run.hpp\"\n#include "
          "\"stokesian/core/system.hpp\"\n");
    const check_outcome c = check("core", "numeric,physics");
    EXPECT_NE(c.exit_code, 0) << c.output;
    EXPECT_NE(c.output.find("engine/core/model.cpp:4: layer core may not include layer run"), std::string::npos)
        << c.output;
    EXPECT_FALSE(fs::exists(dir_ / "checked"));
}

TEST_F(LayerCheck, APublicHeaderIncludingALayerAboveFails) {
    write("engine/observables/include/stokesian/observables/sink.hpp",
          "#pragma once\n#include \"stokesian/io/h5md.hpp\"\n");
    const check_outcome c = check("observables", "numeric,physics,core,cpu,cuda,backends,settings");
    EXPECT_NE(c.exit_code, 0) << c.output;
    EXPECT_NE(c.output.find("engine/observables/include/stokesian/observables/sink.hpp:2: layer observables may not "
                            "include layer io"),
              std::string::npos)
        << c.output;
}

TEST_F(LayerCheck, ABackendIncludingTheOtherBackendFails) {
    write("engine/cpu/engine.cpp", "#include \"stokesian/cuda/cuda_backend.hpp\"\n");
    const check_outcome c = check("cpu", "numeric,physics,core");
    EXPECT_NE(c.exit_code, 0) << c.output;
    EXPECT_NE(c.output.find("engine/cpu/engine.cpp:1: layer cpu may not include layer cuda"), std::string::npos)
        << c.output;
}

// A layer's internal headers are its own: naming another layer's folder or climbing out of one's own
// reaches past that layer's public headers, allowed layer or not.
TEST_F(LayerCheck, AnIncludeOfAnotherLayersInternalsFailsEvenWhereTheLayerIsAllowed) {
    write("engine/run/session.cpp", "#include \"io/frame_journal.hpp\"\n#include \"../io/frame_journal.hpp\"\n");
    const check_outcome c = check("run", "numeric,physics,core,backends,settings,observables,io");
    EXPECT_NE(c.exit_code, 0) << c.output;
    EXPECT_NE(c.output.find("engine/run/session.cpp:1: layer run may not include the internals of layer io"),
              std::string::npos)
        << c.output;
    EXPECT_NE(c.output.find("engine/run/session.cpp:2: layer run may not include a file outside its folder"),
              std::string::npos)
        << c.output;
}

TEST_F(LayerCheck, ATreeThatKeepsToTheLayersPasses) {
    write("engine/run/driver.cpp",
          "#include \"driver.hpp\"\n#include \"stokesian/io/frame_journal.hpp\"\n#include "
          "\"stokesian/core/system.hpp\"\n#include <cuda/std/cmath>\n#include \"stokesian/config.hpp\"\n");
    write("engine/run/driver.hpp", "#pragma once\n// #include \"regression/x.hpp\" is no include\n");
    write("engine/run/include/stokesian/run/run.hpp",
          "#pragma once\n#include \"stokesian/observables/observable.hpp\"\n");
    const check_outcome c = check("run", "numeric,physics,core,cpu,cuda,backends,settings,observables,io");
    EXPECT_EQ(c.exit_code, 0) << c.output;
    EXPECT_TRUE(fs::exists(dir_ / "checked"));
}

}  // namespace
