// The nvcc -> clang argument adjuster of roofcheck-lint: each case is a compile command as CMake or a
// Makefile writes it for nvcc, and the clang flags a device-side compilation must get from it.
#include "NvccArguments.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <fstream>

using roofcheck::lint::deviceCommandLine;
using roofcheck::lint::DeviceCompileOptions;
using roofcheck::lint::splitOptionsText;
using roofcheck::lint::translateCompileCommand;
using Args = std::vector<std::string>;

namespace {

Args translate(const Args &command, std::string *arch = nullptr) {
  return translateCompileCommand(command, "k.cu", arch);
}

} // namespace

TEST(NvccArguments, GencodeBecomesOneArchitectureAndIsDroppedWithItsValue) {
  std::string arch;
  Args out = translate({"nvcc", "-gencode", "arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=[sm_90,compute_90]",
                        "-I/inc", "-c", "k.cu", "-o", "k.o"},
                       &arch);
  EXPECT_EQ(arch, "sm_80");
  EXPECT_EQ(out, (Args{"-I/inc"}));
}

TEST(NvccArguments, ArchSpellings) {
  std::string arch;
  translate({"nvcc", "-arch=sm_90a", "k.cu"}, &arch);
  EXPECT_EQ(arch, "sm_90a");
  arch.clear();
  translate({"nvcc", "-arch", "compute_75", "k.cu"}, &arch);
  EXPECT_EQ(arch, "sm_75");
  arch.clear();
  translate({"nvcc", "--gpu-architecture=native", "k.cu"}, &arch);
  EXPECT_EQ(arch, ""); // no concrete architecture: the tool's default applies
  arch.clear();
  EXPECT_EQ(translate({"clang++", "--cuda-gpu-arch=sm_70", "--cuda-gpu-arch=sm_80", "k.cu"}, &arch), Args{});
  EXPECT_EQ(arch, "sm_70");
}

TEST(NvccArguments, XcompilerIsSplitAndUnusableHostFlagsDropped) {
  Args out = translate({"nvcc", "-Xcompiler", "-fPIC,-Wall,-march=native,-O3", "-Xcompiler=-fno-strict-aliasing", "k.cu"});
  EXPECT_EQ(out, (Args{"-fPIC", "-Wall", "-fno-strict-aliasing"}));
}

TEST(NvccArguments, RelocatableDeviceCode) {
  EXPECT_EQ(translate({"nvcc", "-rdc=true", "k.cu"}), (Args{"-fgpu-rdc"}));
  EXPECT_EQ(translate({"nvcc", "-rdc", "true", "k.cu"}), (Args{"-fgpu-rdc"}));
  EXPECT_EQ(translate({"nvcc", "-dc", "k.cu"}), (Args{"-fgpu-rdc"}));
  EXPECT_EQ(translate({"nvcc", "-rdc=false", "k.cu"}), Args{});
}

TEST(NvccArguments, IsystemWithEqualsAndLongSpellings) {
  EXPECT_EQ(translate({"nvcc", "-isystem=/opt/inc", "--include-path=/a", "--define-macro", "X=1", "--std=c++17", "k.cu"}),
            (Args{"-isystem", "/opt/inc", "-I", "/a", "-D", "X=1", "-std=c++17"}));
  EXPECT_EQ(translate({"nvcc", "-std", "c++20", "k.cu"}), (Args{"-std=c++20"}));
}

TEST(NvccArguments, FlagsWithSeparateValuesAreDroppedTogether) {
  Args out = translate({"nvcc", "-ccbin", "/usr/bin/g++", "-Xptxas", "-v", "-maxrregcount", "64", "-t", "4", "-x", "cu",
                        "-MD", "-MT", "k.o", "-MF", "k.d", "-Werror", "all-warnings", "-diag-suppress", "177",
                        "-DKEEP", "k.cu"});
  EXPECT_EQ(out, (Args{"-DKEEP"}));
}

TEST(NvccArguments, NvccOnlySwitchesAreDropped) {
  Args out = translate({"/usr/local/cuda/bin/nvcc", "-lineinfo", "-G", "-O3", "-g", "-forward-unknown-to-host-compiler",
                        "-Wall", "k.cu"});
  EXPECT_EQ(out, (Args{"-Wall"}));
}

TEST(NvccArguments, SwitchesBecomeTheMacrosNvccDefines) {
  Args out = translate({"nvcc", "--expt-relaxed-constexpr", "-extended-lambda", "--use_fast_math", "k.cu"});
  EXPECT_EQ(out, (Args{"-D__CUDACC_RELAXED_CONSTEXPR__", "-D__CUDACC_EXTENDED_LAMBDA__", "-D__USE_FAST_MATH__"}));
  DeviceCompileOptions options;
  options.cudaPath = "/cuda";
  Args line = deviceCommandLine({}, "sm_90a", "k.cu", options);
  EXPECT_NE(std::find(line.begin(), line.end(), "-D__CUDA_ARCH_LIST__=900"), line.end());
}

TEST(NvccArguments, OptionsFileIsExpandedInPlace) {
  const std::string path = testing::TempDir() + "/roofcheck-nvcc-options.txt";
  {
    std::ofstream file(path);
    file << "-I/from/file \"-DNAME=two words\"\n-arch=sm_86 -Xcompiler -fPIC\n";
  }
  std::string arch;
  Args out = translate({"nvcc", "-DBEFORE", "--options-file", path, "-DAFTER", "k.cu"}, &arch);
  EXPECT_EQ(out, (Args{"-DBEFORE", "-I/from/file", "-DNAME=two words", "-fPIC", "-DAFTER"}));
  EXPECT_EQ(arch, "sm_86");
  std::remove(path.c_str());
  EXPECT_THROW(translate({"nvcc", "-optf", "/nonexistent/options.txt", "k.cu"}), roofcheck::Error);
}

TEST(NvccArguments, SplitOptionsTextHonoursQuotes) {
  EXPECT_EQ(splitOptionsText("  -a 'b c'\t\"d\"  e\n"), (Args{"-a", "b c", "d", "e"}));
  EXPECT_EQ(splitOptionsText(""), Args{});
}

TEST(NvccArguments, DeviceCommandLineHasExactlyOneArchitecture) {
  DeviceCompileOptions options;
  options.cudaPath = "/usr/local/cuda";
  Args line = deviceCommandLine({"-DX"}, "sm_80", "k.cu", options);
  EXPECT_EQ(line.front(), "clang++");
  EXPECT_EQ(line.back(), "k.cu");
  int archFlags = 0;
  for (const std::string &arg : line)
    archFlags += arg.rfind("--cuda-gpu-arch=", 0) == 0;
  EXPECT_EQ(archFlags, 1);
  EXPECT_NE(std::find(line.begin(), line.end(), "--cuda-gpu-arch=sm_80"), line.end());
  EXPECT_NE(std::find(line.begin(), line.end(), "--cuda-device-only"), line.end());
  EXPECT_NE(std::find(line.begin(), line.end(), "-Wno-unknown-cuda-version"), line.end());
  EXPECT_NE(std::find(line.begin(), line.end(), "/usr/local/cuda/include/cccl"), line.end());
  // The tool's own --cuda-gpu-arch wins; without any, sm_90.
  options.gpuArch = "sm_100";
  Args chosen = deviceCommandLine({}, "sm_80", "k.cu", options);
  EXPECT_NE(std::find(chosen.begin(), chosen.end(), "--cuda-gpu-arch=sm_100"), chosen.end());
  options.gpuArch.clear();
  Args fallback = deviceCommandLine({}, "", "k.cu", options);
  EXPECT_NE(std::find(fallback.begin(), fallback.end(), "--cuda-gpu-arch=sm_90"), fallback.end());
}
