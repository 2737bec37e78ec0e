#include "ChildEnvironment.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofcheck::runtime;

namespace {
std::string valueOf(const std::vector<std::string> &env, const std::string &key) {
  for (const auto &kv : env)
    if (kv.rfind(key + "=", 0) == 0)
      return kv.substr(key.size() + 1);
  return "<unset>";
}
} // namespace

TEST(ChildEnvironment, InjectsShimOptionsAndNvtx) {
  RunOptions o;
  o.session = "s1";
  ChildEnvironment c = buildChildEnvironment({"PATH=/bin", "HOME=/root"}, o, "/x/libroofcheck-inject.so", "/cuda/libcupti.so");
  EXPECT_TRUE(c.injected);
  EXPECT_FALSE(c.warning);
  EXPECT_EQ(valueOf(c.variables, "CUDA_INJECTION64_PATH"), "/x/libroofcheck-inject.so");
  EXPECT_EQ(valueOf(c.variables, "NVTX_INJECTION64_PATH"), "/cuda/libcupti.so");
  EXPECT_EQ(runOptionsFromJson(valueOf(c.variables, "ROOFCHECK_OPTIONS")).session, "s1");
  EXPECT_EQ(valueOf(c.variables, "PATH"), "/bin");
}

TEST(ChildEnvironment, KeepsTheUsersNvtxInjectionAndReplacesStaleOptions) {
  ChildEnvironment c = buildChildEnvironment({"NVTX_INJECTION64_PATH=/mine.so", "ROOFCHECK_OPTIONS=old"}, RunOptions{},
                                             "/x/inject.so", "/cuda/libcupti.so");
  EXPECT_EQ(valueOf(c.variables, "NVTX_INJECTION64_PATH"), "/mine.so");
  EXPECT_NE(valueOf(c.variables, "ROOFCHECK_OPTIONS"), "old");
  EXPECT_EQ(std::count_if(c.variables.begin(), c.variables.end(),
                          [](const std::string &kv) { return kv.rfind("ROOFCHECK_OPTIONS=", 0) == 0; }),
            1);
}

TEST(ChildEnvironment, AnotherInjectionWinsWithOneWarning) {
  ChildEnvironment c =
      buildChildEnvironment({"CUDA_INJECTION64_PATH=/ncu/libInjection.so"}, RunOptions{}, "/x/inject.so", "");
  EXPECT_FALSE(c.injected);
  ASSERT_TRUE(c.warning);
  EXPECT_NE(c.warning->find("/ncu/libInjection.so"), std::string::npos);
  EXPECT_EQ(valueOf(c.variables, "CUDA_INJECTION64_PATH"), "/ncu/libInjection.so");
  EXPECT_EQ(valueOf(c.variables, "ROOFCHECK_OPTIONS"), "<unset>");
}

TEST(ChildEnvironment, OurOwnInjectionAlreadySetIsFine) {
  ChildEnvironment c = buildChildEnvironment({"CUDA_INJECTION64_PATH=/x/inject.so"}, RunOptions{}, "/x/inject.so", "");
  EXPECT_TRUE(c.injected);
  EXPECT_EQ(valueOf(c.variables, "NVTX_INJECTION64_PATH"), "<unset>");
}

TEST(ChildEnvironment, APreloadedProfilerWinsWithOneWarning) {
  ChildEnvironment c = buildChildEnvironment(
      {"LD_PRELOAD=/opt/nvidia/nsight-compute/target/linux-desktop-glibc_2_11_3-x64/libInterceptorInjectionTarget.so"},
      RunOptions{}, "/x/inject.so", "/cuda/libcupti.so");
  EXPECT_FALSE(c.injected);
  ASSERT_TRUE(c.warning);
  EXPECT_NE(c.warning->find("a profiler is already attached"), std::string::npos);
  EXPECT_EQ(valueOf(c.variables, "CUDA_INJECTION64_PATH"), "<unset>");
  // An unrelated preload (a memory allocator) does not stop the shim.
  EXPECT_TRUE(buildChildEnvironment({"LD_PRELOAD=/usr/lib/libjemalloc.so.2"}, RunOptions{}, "/x/inject.so", "").injected);
}

// What ncu 2025.3 sets in the processes it starts (seen on the H200).
TEST(ChildEnvironment, UnderNcuTheShimStaysOut) {
  ChildEnvironment c = buildChildEnvironment(
      {"NV_NSIGHT_INJECTION_TRANSPORT_TYPE=uds", "NV_NSIGHT_INJECTION_PORT_BASE=49152"}, RunOptions{}, "/x/inject.so",
      "/cuda/libcupti.so");
  EXPECT_FALSE(c.injected);
  ASSERT_TRUE(c.warning);
  EXPECT_NE(c.warning->find("NV_NSIGHT_INJECTION_TRANSPORT_TYPE is set"), std::string::npos);
  EXPECT_EQ(valueOf(c.variables, "CUDA_INJECTION64_PATH"), "<unset>");
}

TEST(ChildEnvironment, ALibraryFolderGoesLastOnTheProgramsLibraryPath) {
  std::vector<std::string> env = {"PATH=/bin"};
  appendLibraryFolder(env, "/cuda/extras/CUPTI/lib64");
  EXPECT_EQ(valueOf(env, "LD_LIBRARY_PATH"), "/cuda/extras/CUPTI/lib64");
  env = {"LD_LIBRARY_PATH=/opt/mine", "PATH=/bin"};
  appendLibraryFolder(env, "/cuda/extras/CUPTI/lib64");
  EXPECT_EQ(valueOf(env, "LD_LIBRARY_PATH"), "/opt/mine:/cuda/extras/CUPTI/lib64");
  EXPECT_EQ(std::count_if(env.begin(), env.end(), [](const std::string &kv) { return kv.rfind("LD_LIBRARY_PATH=", 0) == 0; }),
            1);
}
