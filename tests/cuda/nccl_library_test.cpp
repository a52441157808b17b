// NCCL loaded at run time (cuda/nccl_library.hpp): where the library is installed (this machine and
// CI have libnccl.so.2) its entry points resolve and it says it is NCCL 2; a library that is not
// there is one line of bad input naming the file; the environment default switches NVLink
// multicast off only where the user has not set it. Built with NCCL's header only
// (STOKESIAN_HAVE_NCCL); otherwise the build runs one device per engine and there is nothing to load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "stokesian/core/errors.hpp"

#if defined(STOKESIAN_HAVE_NCCL)
#include <dlfcn.h>

#include "cuda/nccl_library.hpp"

using namespace stokesian;

TEST(NcclLibrary, LoadsTheInstalledLibraryAndResolvesEveryEntryPoint) {
    if (void* probe = dlopen("libnccl.so.2", RTLD_LAZY | RTLD_LOCAL)) dlclose(probe);
    else GTEST_SKIP() << "libnccl.so.2 is not installed here: nothing to load";
    const cuda::nccl_api api = cuda::load_nccl_library("libnccl.so.2");
    EXPECT_GE(api.version, 2000);
    EXPECT_EQ(api.version_text().rfind("2.", 0), 0u) << api.version_text();
    for (const void* f :
         {(const void*)api.get_version, (const void*)api.error_string, (const void*)api.comm_init_all,
          (const void*)api.comm_destroy, (const void*)api.comm_abort, (const void*)api.comm_get_async_error,
          (const void*)api.group_start, (const void*)api.group_end, (const void*)api.broadcast})
        EXPECT_NE(f, nullptr);
    const char* text = api.error_string(ncclInvalidArgument);
    ASSERT_NE(text, nullptr);
    EXPECT_GT(std::string(text).size(), 0u);
}

TEST(NcclLibrary, AMissingLibraryIsOneLineOfBadInput) {
    try {
        cuda::load_nccl_library("libnccl-absent-for-this-test.so.2");
        FAIL() << "loading a library that does not exist succeeded";
    } catch (const input_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("needs the NCCL library (libnccl-absent-for-this-test.so.2)"), std::string::npos) << m;
        EXPECT_NE(m.find("run on one device"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

TEST(NcclLibrary, NvlinkMulticastIsOffUnlessTheUserSaysOtherwise) {
    const char* before = std::getenv("NCCL_NVLS_ENABLE");
    const std::string saved = before ? before : "";
    unsetenv("NCCL_NVLS_ENABLE");
    cuda::set_nccl_environment_defaults();
    ASSERT_NE(std::getenv("NCCL_NVLS_ENABLE"), nullptr);
    EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
    setenv("NCCL_NVLS_ENABLE", "1", 1);
    cuda::set_nccl_environment_defaults();
    EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "1");  // never overridden
    if (before) setenv("NCCL_NVLS_ENABLE", saved.c_str(), 1);
    else unsetenv("NCCL_NVLS_ENABLE");
}

#else

TEST(NcclLibrary, ThisBuildHasNoNccl) { GTEST_SKIP() << "built without nccl.h: CUDA engines run on one device"; }

#endif
