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
  EXPECT_EQ(t[1].coveredNs, 2000u);
  EXPECT_EQ(t[0].coveredNs, 100u);
  // The long kernel counted 10 bytes a us alone, so of the shared sample's 30 it takes its 10.
  EXPECT_NEAR(t[1].values.at("dram"), 20, 1e-3);
  EXPECT_NEAR(t[0].values.at("dram"), 20, 1e-3);
  EXPECT_TRUE(attributeSamples({}, {{0, 10}})[0].values.empty());
}

TEST(PmAttribution, ASharedSampleFollowsEachKernelsOwnRate) {
  // A kernel that reads 10 bytes a ns for 4.5 us, then a fill that writes 10 bytes a ns and reads nothing,
  // back to back with 0.3 us between them; samples of 1 us, each counting what ran in it. Split by overlap,
  // the fill would take reads from the samples it shares with the reader, and the reader the fill's writes.
  std::vector<KernelSpan> spans = {{1000, 5500}, {5800, 8800}};
  std::vector<PmSample> samples;
  for (uint64_t t = 0; t < 10000; t += 1000) {
    auto inside = [&](const KernelSpan &s) {
      return static_cast<double>(std::max<int64_t>(0, std::min<int64_t>(t + 1000, s.end) -
                                                          std::max<int64_t>(t, s.start)));
    };
    samples.push_back({t, t + 1000, {{"read", 10 * inside(spans[0])}, {"write", 10 * inside(spans[1])}}});
  }
  std::vector<SpanTraffic> t = attributeSamples(samples, spans);
  EXPECT_NEAR(t[0].values.at("read"), 45000, 1);
  EXPECT_NEAR(t[0].values.at("write"), 0, 1);
  EXPECT_NEAR(t[1].values.at("read"), 0, 1);
  EXPECT_NEAR(t[1].values.at("write"), 30000, 1);
  EXPECT_TRUE(t[0].shared && t[1].shared);
}

TEST(PmAttribution, TheClockOffsetIsWhereTheTrafficFallsInsideTheKernels) {
  // Kernels of 3 us with 2 us of idle between them, each moving 10 bytes a ns; the samples (1 us) carry
  // timestamps 430 ns behind the kernels' clock, as the H200's did in one process.
  std::vector<KernelSpan> spans;
  for (uint64_t k = 0; k < 20; ++k)
    spans.push_back({100000 + k * 5000, 100000 + k * 5000 + 3000});
  std::vector<PmSample> samples;
  const int64_t behind = 430;
  for (uint64_t t = 90000; t < 210000; t += 1000) {
    double bytes = 0;
    for (const KernelSpan &s : spans)
      bytes += 10.0 * static_cast<double>(std::max<int64_t>(
                          0, std::min<int64_t>(t + 1000, s.end) - std::max<int64_t>(t, s.start)));
    samples.push_back(sample(t - behind, t + 1000 - behind, bytes));
  }
  int64_t offset = estimateClockOffset(samples, spans, 20000);
  EXPECT_NEAR(static_cast<double>(offset), static_cast<double>(behind), 50.0);

  // Shifted by it, each kernel gets its 30,000 bytes back to within the residue of the search step.
  for (PmSample &s : samples)
    s.start += offset, s.end += offset;
  for (const SpanTraffic &t : attributeSamples(samples, spans))
    EXPECT_NEAR(t.values.at("dram"), 30000, 30000 * 0.03);
}

TEST(PmAttribution, NoTrafficOrNoKernelsMeansNoOffset) {
  EXPECT_EQ(estimateClockOffset({sample(0, 1000, 0), sample(1000, 2000, 0)}, {{0, 2000}}, 5000), 0);
  EXPECT_EQ(estimateClockOffset({sample(0, 1000, 5)}, {}, 5000), 0);
  EXPECT_EQ(estimateClockOffset({}, {{0, 2000}}, 5000), 0);
}
