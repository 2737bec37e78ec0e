#include "CubinExterns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

namespace roofcheck::runtime {
namespace {

std::vector<uint8_t> printingCubin() {
  std::ifstream file(ROOFCHECK_PRINTING_CUBIN, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<std::string> sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CubinExternsTest, KernelsThatPrintAreThoseWhoseExternsNameVprintf) {
  std::vector<uint8_t> cubin = printingCubin();
  ASSERT_GT(cubin.size(), 64u);
  EXPECT_EQ(sorted(kernelsCalling(cubin.data(), cubin.size(), "vprintf")),
            (std::vector<std::string>{"_Z12printsItselfi", "_Z17printsThroughCalli"}));
  EXPECT_EQ(kernelsCalling(cubin.data(), cubin.size(), "malloc"), (std::vector<std::string>{"_Z9allocatesPPi"}));
  EXPECT_TRUE(kernelsCalling(cubin.data(), cubin.size(), "free").empty());
}

TEST(CubinExternsTest, ACubinCutShortOrNotElfNamesNoKernel) {
  std::vector<uint8_t> cubin = printingCubin();
  ASSERT_GT(cubin.size(), 64u);
  // Every cut, under AddressSanitizer in CI: nothing read past the end, and at most the whole answer.
  for (size_t size = 0; size < cubin.size(); size += 7)
    EXPECT_LE(kernelsCalling(cubin.data(), size, "vprintf").size(), 2u) << size;
  std::vector<uint8_t> notElf(cubin.size(), 0x5a);
  EXPECT_TRUE(kernelsCalling(notElf.data(), notElf.size(), "vprintf").empty());
  std::vector<uint8_t> bigEndian = cubin;
  bigEndian[5] = 2;
  EXPECT_TRUE(kernelsCalling(bigEndian.data(), bigEndian.size(), "vprintf").empty());
}

} // namespace
} // namespace roofcheck::runtime
