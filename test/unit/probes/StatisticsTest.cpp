#include "Statistics.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofcheck::probe;

TEST(Statistics, MedianMinMaxOfOddAndEvenSamples) {
  Summary odd = summarize({3, 1, 2});
  EXPECT_DOUBLE_EQ(odd.median, 2);
  EXPECT_DOUBLE_EQ(odd.min, 1);
  EXPECT_DOUBLE_EQ(odd.max, 3);
  EXPECT_EQ(odd.count, 3);
  Summary even = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_EQ(even.count, 4);
  Summary one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
}

TEST(Statistics, RejectsEmptyZeroNegativeAndNonFiniteSamples) {
  EXPECT_THROW(summarize({}), roofcheck::Error);
  EXPECT_THROW(summarize({1, 0}), roofcheck::Error);
  EXPECT_THROW(summarize({-1}), roofcheck::Error);
  EXPECT_THROW(summarize({1, NAN}), roofcheck::Error);
  EXPECT_THROW(summarize({INFINITY}), roofcheck::Error);
}

TEST(Statistics, RatesAreWorkOverSeconds) {
  std::vector<double> r = ratesOf(2e9, {1e-3, 2e-3});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0], 2e12);
  EXPECT_DOUBLE_EQ(r[1], 1e12);
  EXPECT_THROW(ratesOf(1, {0.0}), roofcheck::Error);
}

TEST(Statistics, RepetitionsFillTheBudget) {
  MeasurePlan plan = fullPlan(false); // 0.1 s warm-up, 0.3 s timed, 10..500 launches
  Repetitions ms = planRepetitions(1e-3, plan);
  EXPECT_EQ(ms.warmup, 100);
  EXPECT_EQ(ms.timed, 300);
  Repetitions slow = planRepetitions(0.1, plan); // long launches: the minimum count still holds
  EXPECT_EQ(slow.warmup, 1);
  EXPECT_EQ(slow.timed, 10);
  Repetitions fast = planRepetitions(1e-5, plan); // short launches: capped
  EXPECT_EQ(fast.warmup, 500);
  EXPECT_EQ(fast.timed, 500);
  EXPECT_THROW(planRepetitions(0, plan), roofcheck::Error);
}

TEST(Statistics, QuickPlansAreShorterThanFullOnes) {
  EXPECT_LT(fullPlan(true).timedSeconds, fullPlan(false).timedSeconds);
  EXPECT_LT(screeningPlan(false).timedSeconds, fullPlan(false).timedSeconds);
  EXPECT_LE(screeningPlan(true).timedSeconds, screeningPlan(false).timedSeconds);
  // Matrix products: past the power controller's transient before timing, then as long as do_bench's window.
  EXPECT_DOUBLE_EQ(sustainedPlan(false).warmupSeconds, 0.5);
  EXPECT_DOUBLE_EQ(sustainedPlan(false).timedSeconds, 0.5);
  EXPECT_EQ(planRepetitions(1.4e-3, sustainedPlan(false)).warmup, 358); // ceil(0.5 / 1.4 ms)
}

TEST(Statistics, BestWindowIsTheFastestRunOfConsecutiveLaunches) {
  // A burst from idle: fast at the top clock, a dip when the power controller steps in, then the sustained
  // rate. The best window of 3 is the first one, not a median of the whole burst.
  Window w = bestWindow({10, 11, 12, 6, 7, 8, 8, 8}, 3);
  EXPECT_DOUBLE_EQ(w.summary.median, 11);
  EXPECT_DOUBLE_EQ(w.summary.min, 10);
  EXPECT_DOUBLE_EQ(w.summary.max, 12);
  EXPECT_EQ(w.summary.count, 3);
  EXPECT_EQ(w.start, 0u);
  // Slow at first (the clock still rising), fastest later: the window moves there.
  Window late = bestWindow({5, 5, 8, 9, 10, 7}, 3);
  EXPECT_DOUBLE_EQ(late.summary.median, 9);
  EXPECT_EQ(late.start, 2u);
  EXPECT_THROW(bestWindow({1, 2}, 3), roofcheck::Error);
  EXPECT_THROW(bestWindow({1, 2}, 0), roofcheck::Error);
}

TEST(Statistics, BurstsAreShortAgainstTheSustainedWindow) {
  BurstPlan full = burstPlan(false), quick = burstPlan(true);
  EXPECT_LT(full.window, full.launchesPerBurst);
  EXPECT_LE(quick.bursts * quick.launchesPerBurst, full.bursts * full.launchesPerBurst);
  EXPECT_EQ(full.window, 20); // the anchors' median of 20
}
