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
