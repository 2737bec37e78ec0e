#include "PmCounterDataLayout.h"

#include <gtest/gtest.h>

using roofcheck::runtime::PmCounterDataLayout;

// The sizes CUPTI gave on an H100 for two DRAM metrics (docs/benchmarks.md, "PM sampling's decoder").
TEST(PmCounterDataLayout, HeaderAndSamplesFromLinearSizes) {
  PmCounterDataLayout layout = PmCounterDataLayout::fromSizes(5557, 8718, 10000, 31612396);
  EXPECT_TRUE(layout.known());
  EXPECT_EQ(layout.headerBytes, 2396u);
  EXPECT_EQ(layout.sampleBytes, 3161u);
  EXPECT_EQ(layout.writtenBytes(10000, 31612396), 31612396u);
}

TEST(PmCounterDataLayout, WrittenBytesAreTheHeaderTheSamplesAndOneMore) {
  PmCounterDataLayout layout{5000, 3000};
  size_t image = 5000 + 3000 * 10;
  EXPECT_EQ(layout.writtenBytes(0, image), 5000u + 3000u);
  EXPECT_EQ(layout.writtenBytes(4, image), 5000u + 3000u * 5);
  EXPECT_EQ(layout.writtenBytes(9, image), image);  // the last sample's one more is past the image
  EXPECT_EQ(layout.writtenBytes(10, image), image); // a full image
  EXPECT_EQ(layout.writtenBytes(50, image), image);
}

TEST(PmCounterDataLayout, UnknownWhereSizesAreNotLinear) {
  EXPECT_FALSE(PmCounterDataLayout::fromSizes(8000, 11000, 10000, 8000 + 3000 * 9999 + 1).known());
  EXPECT_FALSE(PmCounterDataLayout::fromSizes(8000, 8000, 10000, 8000).known());    // no size a sample
  EXPECT_FALSE(PmCounterDataLayout::fromSizes(3000, 6000, 10000, 30000000).known()); // no header
  EXPECT_FALSE(PmCounterDataLayout::fromSizes(8000, 11000, 1, 8000).known());       // nothing to compare with
}

TEST(PmCounterDataLayout, UnknownLayoutWritesTheWholeImage) {
  PmCounterDataLayout layout;
  EXPECT_EQ(layout.writtenBytes(0, 123456), 123456u);
  EXPECT_EQ(layout.writtenBytes(7, 123456), 123456u);
}

namespace {

using roofcheck::runtime::PmBlankImage;

// A blank image of a 4-byte header and `samples` 3-byte parts, each part `part`.
std::vector<uint8_t> blankImage(size_t samples, std::vector<uint8_t> part = {7, 8, 9}) {
  std::vector<uint8_t> image{1, 2, 3, 4};
  for (size_t i = 0; i < samples; ++i)
    image.insert(image.end(), part.begin(), part.end());
  return image;
}

// All of an image made blank is the blank image, and matches it.
void expectRestoredWhole(const PmBlankImage &blank, const std::vector<uint8_t> &whole) {
  std::vector<uint8_t> image(whole.size(), 0xee);
  blank.restore(image, whole.size());
  EXPECT_EQ(image, whole);
  EXPECT_TRUE(blank.matches(image));
}

} // namespace

TEST(PmBlankImage, IdenticalSamplePartsKeptOnce) {
  std::vector<uint8_t> whole = blankImage(5);
  PmBlankImage blank(whole, PmCounterDataLayout{4, 3});
  EXPECT_TRUE(blank.compact());
  EXPECT_EQ(blank.size(), whole.size());
  expectRestoredWhole(blank, whole);
}

TEST(PmBlankImage, RestoresOnlyThePartAsked) {
  std::vector<uint8_t> whole = blankImage(5);
  PmBlankImage blank(whole, PmCounterDataLayout{4, 3});
  for (size_t bytes : {size_t(0), size_t(2), size_t(4), size_t(9), size_t(13), whole.size(), whole.size() + 5}) {
    std::vector<uint8_t> image(whole.size(), 0xee);
    blank.restore(image, bytes);
    for (size_t i = 0; i < image.size(); ++i)
      EXPECT_EQ(image[i], i < bytes ? whole[i] : 0xee) << "byte " << i << " of " << bytes;
  }
}

TEST(PmBlankImage, DifferingSamplePartsKeptWhole) {
  std::vector<uint8_t> whole = blankImage(4);
  whole[4 + 3 * 2 + 1] = 0; // the third sample's part differs
  PmBlankImage blank(whole, PmCounterDataLayout{4, 3});
  EXPECT_FALSE(blank.compact());
  expectRestoredWhole(blank, whole);
}

TEST(PmBlankImage, KeptWholeWithoutALayoutThatFits) {
  std::vector<uint8_t> whole = blankImage(4);
  EXPECT_FALSE(PmBlankImage(whole, PmCounterDataLayout{}).compact());
  EXPECT_FALSE(PmBlankImage(whole, PmCounterDataLayout{5, 3}).compact()); // parts would not end with the image
  EXPECT_FALSE(PmBlankImage(blankImage(1), PmCounterDataLayout{4, 3}).compact());
}

TEST(PmBlankImage, AWrittenByteAnywhereIsNotBlank) {
  std::vector<uint8_t> whole = blankImage(5);
  PmBlankImage blank(whole, PmCounterDataLayout{4, 3});
  for (size_t i = 0; i < whole.size(); ++i) {
    std::vector<uint8_t> image = whole;
    image[i] ^= 1;
    EXPECT_FALSE(blank.matches(image)) << "byte " << i;
  }
  EXPECT_FALSE(blank.matches(blankImage(4))); // another size
}
