// The GPUs a test was given under CTest resource allocation (tests/support/ctest_gpu_groups.hpp,
// used by ctest_gpu_pin.cpp in the gpu test binaries): read from the variables ctest sets, with
// a fake environment.
#include <gtest/gtest.h>

#include <map>

#include "support/ctest_gpu_groups.hpp"

using stokesian::test_support::ctest_gpu_ids;
using stokesian::test_support::visible_devices;

namespace {

auto from(const std::map<std::string, std::string>& variables) {
    return [variables](const std::string& name) -> const char* {
        const auto it = variables.find(name);
        return it == variables.end() ? nullptr : it->second.c_str();
    };
}

}  // namespace

TEST(CtestGpuGroups, NoAllocationNoGpusOneGroupOneGpuSeveralGroupsEveryDistinctGpu) {
    EXPECT_TRUE(ctest_gpu_ids(from({})).empty());
    EXPECT_EQ(ctest_gpu_ids(from({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                  {"CTEST_RESOURCE_GROUP_0", "gpus"},
                                  {"CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1"}})),
              (std::vector<std::string>{"3"}));
    // "4,gpus:2" on a host of four GPUs with two slots each: every GPU once, in the order given.
    const auto every = ctest_gpu_ids(from({{"CTEST_RESOURCE_GROUP_COUNT", "4"},
                                           {"CTEST_RESOURCE_GROUP_0_GPUS", "id:2,slots:2"},
                                           {"CTEST_RESOURCE_GROUP_1_GPUS", "id:0,slots:2"},
                                           {"CTEST_RESOURCE_GROUP_2_GPUS", "id:3,slots:2"},
                                           {"CTEST_RESOURCE_GROUP_3_GPUS", "id:1,slots:2"}}));
    EXPECT_EQ(visible_devices(every), "2,0,3,1");
    // Several allocations in one group, and one of them twice (two slots of the same GPU).
    EXPECT_EQ(ctest_gpu_ids(from({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                  {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1;id:5,slots:1;id:1,slots:1"}})),
              (std::vector<std::string>{"1", "5"}));
    // A group of another resource type has no _GPUS variable.
    EXPECT_TRUE(
        ctest_gpu_ids(from({{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "threads"}})).empty());
}

// A test that needs two GPUs fails, not skips, only where CTest's allocation gave it fewer than the
// host has (tests/gpu_resources.cmake.in sets STOKESIAN_HOST_GPUS for the resource groups).
TEST(CtestGpuGroups, ATestNeedingTwoGpusFailsOnlyWhereItsAllocationWithheldOne) {
    using stokesian::test_support::gpus_withheld;
    const std::map<std::string, std::string> one_of_two{{"STOKESIAN_HOST_GPUS", "2"},
                                                        {"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                                        {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}};
    const std::string why = gpus_withheld(2, 1, from(one_of_two));
    EXPECT_NE(why.find("gave it 1"), std::string::npos) << why;
    EXPECT_NE(why.find("tests/gpu_resources.cmake.in"), std::string::npos) << why;
    // Given both: nothing withheld.
    EXPECT_EQ(gpus_withheld(2, 2, from(one_of_two)), "");
    // A host of one GPU: the test skips as anywhere else.
    std::map<std::string, std::string> one_gpu_host = one_of_two;
    one_gpu_host["STOKESIAN_HOST_GPUS"] = "1";
    EXPECT_EQ(gpus_withheld(2, 1, from(one_gpu_host)), "");
    // No allocation (ctest without resource groups, or a test binary run by hand), or no host count.
    EXPECT_EQ(gpus_withheld(2, 1, from({{"STOKESIAN_HOST_GPUS", "2"}})), "");
    std::map<std::string, std::string> no_count = one_of_two;
    no_count.erase("STOKESIAN_HOST_GPUS");
    EXPECT_EQ(gpus_withheld(2, 1, from(no_count)), "");
}
