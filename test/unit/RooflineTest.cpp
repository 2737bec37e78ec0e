#include "roofcheck/Error.h"
#include "roofcheck/Roofline.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofcheck;

namespace {
// A made-up device: 60 TFLOP/s fp32 and 4 TB/s DRAM, so the ridge is at 15 FLOP/byte.
Roofline device() { return Roofline({"fp32", 60e12}, {"dram", 4e12}); }
} // namespace

TEST(Roofline, RidgeIsPeakOverBandwidth) { EXPECT_DOUBLE_EQ(device().ridge(), 15.0); }

TEST(Roofline, AttainableIsTheLowerRoof) {
  EXPECT_DOUBLE_EQ(device().attainable(1.0 / 12), 4e12 / 12);
  EXPECT_DOUBLE_EQ(device().attainable(15), 60e12);
  EXPECT_DOUBLE_EQ(device().attainable(1000), 60e12);
  EXPECT_DOUBLE_EQ(device().attainable(0), 0);
}

TEST(Roofline, ClassifiesBelowAtAndAboveTheRidge) {
  Classification below = device().classify(14.99);
  EXPECT_EQ(below.bound, Bound::Memory);
  EXPECT_EQ(below.limitingRoof, "dram");
  EXPECT_DOUBLE_EQ(below.attainable, 4e12 * 14.99);

  Classification at = device().classify(15);
  EXPECT_EQ(at.bound, Bound::Compute);
  EXPECT_EQ(at.limitingRoof, "fp32");
  EXPECT_DOUBLE_EQ(at.attainable, 60e12);

  Classification above = device().classify(682.67);
  EXPECT_EQ(above.bound, Bound::Compute);
  EXPECT_DOUBLE_EQ(above.ridge, 15.0);
}

TEST(Roofline, FractionOfRoof) {
  // A vector add (1/12 FLOP/byte) reaching 3 TB/s reaches 0.75 of the DRAM roof.
  double intensity = 1.0 / 12;
  EXPECT_DOUBLE_EQ(device().fractionOfRoof(intensity, 3e12 * intensity), 0.75);
  EXPECT_DOUBLE_EQ(device().fractionOfRoof(100, 30e12), 0.5);
  EXPECT_THROW(device().fractionOfRoof(0, 1), Error);
}

TEST(Roofline, RejectsMeaninglessCeilingsAndIntensities) {
  EXPECT_THROW(Roofline({"fp32", 0}, {"dram", 1}), Error);
  EXPECT_THROW(Roofline({"fp32", 1}, {"dram", -4}), Error);
  EXPECT_THROW(Roofline({"fp32", std::nan("")}, {"dram", 1}), Error);
  EXPECT_THROW(device().attainable(-1), Error);
  EXPECT_THROW(device().attainable(std::nan("")), Error);
}

TEST(Roofline, BucketNames) {
  EXPECT_EQ(parseFlopBucket("bf16"), FlopBucket::BF16);
  EXPECT_STREQ(toString(FlopBucket::Tensor), "tensor");
  EXPECT_EQ(parseFlopBucket("fp8"), std::nullopt);
}

TEST(Roofline, DominantBucketHasTheMostFlops) {
  EXPECT_EQ(dominantBucket({1.0, 5.0, std::nullopt, 2.0, 0.0}), FlopBucket::FP32);
  // A tie goes to the first in FlopBucket order; unknown counts are passed over, not taken for 0 or more.
  EXPECT_EQ(dominantBucket({3.0, 3.0, std::nullopt, std::nullopt, std::nullopt}), FlopBucket::FP64);
  EXPECT_EQ(dominantBucket({std::nullopt, 0.0, 0.0, 0.0, 7.0}), FlopBucket::Tensor);
  EXPECT_EQ(dominantBucket({0.0, 0.0, std::nullopt, 0.0, 0.0}), std::nullopt);
}
