// Which machine code of a fat binary ran (core/device_code.hpp): the build's architecture list, the
// rule that names the code from the runtime's answer, and the documented choice of the driver
// (engine/docs/porting.md, "Which machine code ran"). The gpu tests hold the rule against a device.
#include "stokesian/core/device_code.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include "support/build_paths.hpp"

using namespace stokesian;

namespace {

// The fat preset's list (CMakePresets.json, `fat`) and the default build's.
const char* const fat = "80-real;86-real;89-real;90;100-real;120";

embedded_device_code parsed(const char* list) {
    const auto code = parse_cuda_architectures(list);
    EXPECT_TRUE(code.has_value()) << list;
    return code.value_or(embedded_device_code{});
}

// CMAKE_CUDA_ARCHITECTURES of the preset `fat` as CMakePresets.json sets it ("" when not found).
std::string fat_preset_architectures() {
    std::ifstream in(std::string(::stokesian::test_support::project_source_dir) + "/CMakePresets.json");
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str(), key = "\"CMAKE_CUDA_ARCHITECTURES\": \"";
    const std::size_t preset = json.find("\"name\": \"fat\"");
    const std::size_t at = preset == std::string::npos ? preset : json.find(key, preset);
    if (at == std::string::npos) return "";
    const std::size_t begin = at + key.size();
    return json.substr(begin, json.find('"', begin) - begin);
}

}  // namespace

// The table below (and engine/docs/porting.md's) is about the preset as it is.
TEST(DeviceCode, TheFatPresetIsTheListTheseExpectationsAreFor) { EXPECT_EQ(fat_preset_architectures(), fat); }

TEST(DeviceCode, ParsesTheCMakeArchitectureList) {
    EXPECT_EQ(parsed("90").sass, std::vector<int>{90});
    EXPECT_EQ(parsed("90").ptx, std::vector<int>{90});
    EXPECT_EQ(parsed(fat).sass, (std::vector<int>{80, 86, 89, 90, 100, 120}));
    EXPECT_EQ(parsed(fat).ptx, (std::vector<int>{90, 120}));
    EXPECT_TRUE(parsed("90-virtual").sass.empty());
    EXPECT_EQ(parsed("120;90-real;90-virtual").sass, (std::vector<int>{90, 120}));
    // As the build records it (cuda_architectures): commas.
    EXPECT_EQ(parsed("80-real,86-real,89-real,90,100-real,120").sass, parsed(fat).sass);
    // Content the parser cannot know: unknown, never a guess.
    for (const char* unknown : {"", "all", "all-major", "native", "90a", "100f-real", "sm_90", "90;x", "7"})
        EXPECT_FALSE(parse_cuda_architectures(unknown).has_value()) << unknown;
}

TEST(DeviceCode, ReadsCudaForcePtxJitAsTheDriverDocumentsIt) {
    EXPECT_FALSE(ptx_jit_forced(nullptr));
    EXPECT_FALSE(ptx_jit_forced(""));
    EXPECT_FALSE(ptx_jit_forced("0"));
    EXPECT_FALSE(ptx_jit_forced("no"));
    EXPECT_TRUE(ptx_jit_forced("1"));
}

// The rule from the runtime's answer (binaryVersion, ptxVersion) and the device.
TEST(DeviceCode, NamesSassOrPtxJitFromTheRuntimesAnswer) {
    const auto f = parse_cuda_architectures(fat);
    EXPECT_EQ(device_code_name(90, 90, 90, f, false), "SASS (sm_90)");
    EXPECT_EQ(device_code_name(90, 90, 90, f, true), "PTX JIT (compute_90)");
    // A binary below the device's architecture is embedded SASS, forced JIT or not (the JIT
    // compiles for the device itself): an Orin (8.7) runs the sm_86 SASS.
    EXPECT_EQ(device_code_name(86, 86, 87, f, false), "SASS (sm_86)");
    // A card newer than every SASS in the build: the driver JIT-compiled the newest PTX.
    EXPECT_EQ(device_code_name(130, 120, 130, f, false), "PTX JIT (compute_120)");
    EXPECT_EQ(device_code_name(110, 90, 110, f, false), "PTX JIT (compute_90)");
    // A build of PTX only is always JIT-compiled.
    EXPECT_EQ(device_code_name(90, 90, 90, parse_cuda_architectures("90-virtual"), false), "PTX JIT (compute_90)");
    // Unknown content (CMAKE_CUDA_ARCHITECTURES=native): both named, never a guess.
    const std::string both = device_code_name(90, 90, 90, std::nullopt, false);
    EXPECT_NE(both.find("SASS (sm_90) or PTX JIT (compute_90)"), std::string::npos) << both;
}

// The driver's documented choice for the devices the fat build is for, and what comes next.
TEST(DeviceCode, TheFatBuildRunsSassOnEveryTargetedGenerationAndPtxBeyond) {
    const embedded_device_code f = parsed(fat);
    const std::pair<int, const char*> expected[] = {
        {80, "SASS (sm_80)"},   {86, "SASS (sm_86)"},   {87, "SASS (sm_86)"},          {89, "SASS (sm_89)"},
        {90, "SASS (sm_90)"},   {100, "SASS (sm_100)"}, {103, "SASS (sm_100)"},        {110, "PTX JIT (compute_90)"},
        {120, "SASS (sm_120)"}, {121, "SASS (sm_120)"}, {130, "PTX JIT (compute_120)"}};
    for (const auto& [cc, code] : expected) EXPECT_EQ(documented_device_code(cc, f, false), code) << cc;
    EXPECT_FALSE(documented_device_code(75, f, false).has_value());  // Turing: no code at all
    // Forced JIT: the newest PTX not above the device; an 8.x card has none in the fat build.
    EXPECT_EQ(documented_device_code(90, f, true), "PTX JIT (compute_90)");
    EXPECT_EQ(documented_device_code(100, f, true), "PTX JIT (compute_90)");
    EXPECT_EQ(documented_device_code(120, f, true), "PTX JIT (compute_120)");
    EXPECT_FALSE(documented_device_code(89, f, true).has_value());
    // The default build (sm_90 SASS and compute_90 PTX) on an A100 and on a Blackwell card.
    EXPECT_FALSE(documented_device_code(80, parsed("90"), false).has_value());
    EXPECT_EQ(documented_device_code(120, parsed("90"), false), "PTX JIT (compute_90)");
}

// What the runtime reports for the documented choice (SASS sm_X: binaryVersion X; JIT of
// compute_Y: binaryVersion = the device, ptxVersion Y) is named back as that choice.
TEST(DeviceCode, TheRuleNamesTheDocumentedChoiceBack) {
    for (const char* list : {fat, "90", "90-virtual", "80-real;80-virtual", "86-real;90-virtual;120"})
        for (int cc : {80, 86, 87, 89, 90, 100, 103, 110, 120, 121, 130})
            for (bool forced : {false, true}) {
                const embedded_device_code e = parsed(list);
                const auto choice = documented_device_code(cc, e, forced);
                if (!choice) continue;
                const bool jit = choice->starts_with("PTX JIT");
                const int arch = std::stoi(choice->substr(choice->find('_') + 1));
                EXPECT_EQ(device_code_name(jit ? cc : arch, jit ? arch : 0, cc, e, forced), *choice)
                    << list << " on " << cc << (forced ? " with CUDA_FORCE_PTX_JIT=1" : "");
            }
}
