#include "PmAttribution.h"

#include <gtest/gtest.h>

using namespace roofcheck::runtime;

namespace {
PmSample sample(uint64_t start, uint64_t end, double bytes) { return {start, end, {{"dram", bytes}}}; }
} // namespace

TEST(PmAttribution, AKernelGetsWhatTheSamplesWithinItCounted) {
  // Samples of 1000 ns; a kernel from 1500 to 4200 ns: half of the first one, all of the next two, a fifth
  // of the last, each counted whole (nothing else ran in them), and a sample before it that is nobody's.
  std::vector<PmSample> samples = {sample(0, 1000, 7), sample(1000, 2000, 10), sample(2000, 3000, 20),
                                   sample(3000, 4000, 30), sample(4000, 5000, 40)};
  std::vector<SpanTraffic> t = attributeSamples(samples, {{1500, 4200}});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_DOUBLE_EQ(t[0].values.at("dram"), 100);
  EXPECT_FALSE(t[0].shared);
  EXPECT_EQ(t[0].coveredNs, 2700u);
}

TEST(PmAttribution, ASampleTwoKernelsShareIsSplitByTheirOverlap) {
  // Back to back in one sample, then one alone; and concurrent kernels (another stream) in the last one.
  std::vector<PmSample> samples = {sample(0, 1000, 100), sample(1000, 2000, 50), sample(2000, 3000, 90)};
  std::vector<KernelSpan> spans = {{100, 400}, {400, 1000}, {1000, 1800}, {2000, 3000}, {2500, 3000}};
  std::vector<SpanTraffic> t = attributeSamples(samples, spans);
  EXPECT_DOUBLE_EQ(t[0].values.at("dram"), 100.0 * 300 / 900);
  EXPECT_DOUBLE_EQ(t[1].values.at("dram"), 100.0 * 600 / 900);
  EXPECT_TRUE(t[0].shared && t[1].shared);
  EXPECT_DOUBLE_EQ(t[2].values.at("dram"), 50);
  EXPECT_FALSE(t[2].shared);
  EXPECT_DOUBLE_EQ(t[3].values.at("dram"), 60);
  EXPECT_DOUBLE_EQ(t[4].values.at("dram"), 30);
  EXPECT_TRUE(t[3].shared && t[4].shared);
}

TEST(PmAttribution, OrderDoesNotMatterAndLostSamplesShowAsLessCoverage) {
  std::vector<PmSample> samples = {sample(3000, 4000, 30), sample(0, 1000, 10)}; // 1000-3000 lost
  std::vector<SpanTraffic> t = attributeSamples(samples, {{3500, 3600}, {0, 4000}});
  EXPECT_DOUBLE_EQ(t[1].values.at("dram"), 10 + 30.0 * 1000 / 1100);
  EXPECT_EQ(t[1].coveredNs, 2000u);
  EXPECT_DOUBLE_EQ(t[0].values.at("dram"), 30.0 * 100 / 1100);
  EXPECT_TRUE(attributeSamples({}, {{0, 10}})[0].values.empty());
}
