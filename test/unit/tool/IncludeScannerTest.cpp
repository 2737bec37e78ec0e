#include "IncludeScanner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace roofcheck::lint;
namespace fs = std::filesystem;

namespace {

class IncludeScannerTest : public ::testing::Test {
protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("roofcheck-include-scanner-" + std::to_string(::getpid()));
    fs::remove_all(root);
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string &relative, const std::string &text) {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << text;
  }
  std::string at(const std::string &relative) const { return (root / relative).lexically_normal().string(); }
  fs::path root;
};

} // namespace

TEST_F(IncludeScannerTest, DirectoriesOfAnNvccOrClangCommandInOrder) {
  std::vector<std::string> command = {"nvcc", "-I", "inc", "-Iother", "-isystem/opt/lib", "--include-path=x",
                                      "-iquote", "q", "-include", "forced.h", "-c", "a.cu"};
  EXPECT_EQ(includeDirectories(command, "/work"),
            (std::vector<std::string>{"/work/inc", "/work/other", "/opt/lib", "/work/x", "/work/q"}));
}

TEST_F(IncludeScannerTest, IncludeDirectoriesMadeAbsoluteInPlace) {
  std::vector<std::string> command = {"nvcc", "-I", "inc", "-I../other", "-isystem", "/opt/lib",
                                      "--include-path=x", "-c", "a.cu"};
  EXPECT_EQ(withAbsoluteIncludeDirectories(command, "/work/src"),
            (std::vector<std::string>{"nvcc", "-I", "/work/src/inc", "-I/work/other", "-isystem", "/opt/lib",
                                      "--include-path=/work/src/x", "-c", "a.cu"}));
}

TEST_F(IncludeScannerTest, FollowsQuotedAndAngledIncludesThroughHeaders) {
  write("src/a.cu", "#include \"local.cuh\"\n"
                    "  #  include <lib/deep.h>\n"
                    "#include <cuda_runtime.h>\n" // in no given directory: a system header, left out
                    "#include KERNELS_HEADER\n"   // named by a macro: not followed
                    "#if 0\n#include \"disabled.h\"\n#endif\n");
  write("src/local.cuh", "#include \"../inc/shared.h\"\n");
  write("src/disabled.h", "");
  write("inc/shared.h", "// no includes\n");
  write("inc/lib/deep.h", "#include \"more.h\"\n");
  write("inc/lib/more.h", "#include <lib/deep.h>\n"); // a cycle ends
  std::set<std::string> unreadable;
  std::set<std::string> found = includedFiles(at("src/a.cu"), {at("inc")}, unreadable);
  // Every #include counts, an #if 0 branch's too: a superset of what the compiler reads.
  EXPECT_EQ(found, (std::set<std::string>{at("src/local.cuh"), at("inc/shared.h"), at("inc/lib/deep.h"),
                                          at("inc/lib/more.h"), at("src/disabled.h")}));
  EXPECT_TRUE(unreadable.empty());
}

TEST_F(IncludeScannerTest, AQuotedNameNextToTheIncluderComesFirst) {
  write("src/a.cu", "#include \"common.h\"\n");
  write("src/common.h", "");
  write("inc/common.h", "");
  std::set<std::string> unreadable;
  EXPECT_EQ(includedFiles(at("src/a.cu"), {at("inc")}, unreadable), (std::set<std::string>{at("src/common.h")}));
  write("src/b.cu", "#include <common.h>\n");
  EXPECT_EQ(includedFiles(at("src/b.cu"), {at("inc")}, unreadable), (std::set<std::string>{at("inc/common.h")}));
}

// A header whose text cannot be read (here one whose reads fail with EIO, which root meets too) is named
// with the reason, so that a caller can say its includes were not followed; the rest is still found.
TEST_F(IncludeScannerTest, AnUnreadableFileIsNamed) {
  write("src/a.cu", "#include \"broken.h\"\n#include \"fine.h\"\n");
  write("src/fine.h", "");
  fs::create_symlink("/proc/self/mem", root / "src/broken.h");
  std::set<std::string> unreadable;
  EXPECT_EQ(includedFiles(at("src/a.cu"), {}, unreadable),
            (std::set<std::string>{at("src/broken.h"), at("src/fine.h")}));
  EXPECT_EQ(unreadable, (std::set<std::string>{at("src/broken.h") + ": a read failed"}));
  unreadable.clear();
  includedFiles(at("src/missing.cu"), {}, unreadable);
  EXPECT_EQ(unreadable, (std::set<std::string>{at("src/missing.cu") + ": No such file or directory"}));
}
