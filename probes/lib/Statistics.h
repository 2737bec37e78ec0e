// Statistics of repeated timings, and how many repetitions a probe runs.
#pragma once

#include <cstddef>
#include <vector>

namespace roofcheck::probe {

struct Summary {
  double median = 0, min = 0, max = 0;
  int count = 0;
};

/// Median (mean of the two middle values for an even count), min and max. Throws roofcheck::Error on an
/// empty sample or a value that is not finite and positive (a zero or negative duration is a timing bug).
Summary summarize(const std::vector<double> &values);

/// Rates (work / seconds) of a list of per-launch durations in seconds.
std::vector<double> ratesOf(double workPerLaunch, const std::vector<double> &seconds);

/// Time budget of one measurement: warm-up, then timed launches, each launch timed alone.
struct MeasurePlan {
  double warmupSeconds = 0.1;
  double timedSeconds = 0.3;
  int minRepetitions = 10;
  int maxRepetitions = 500;
};

/// The default plan, a short one to screen candidate configurations, and the --quick ones. Screening is
/// kept short on purpose: the matrix products run at the power cap, and a long screening heats the chip
/// and lowers the clock of the measurement that follows it.
MeasurePlan fullPlan(bool quick);
MeasurePlan screeningPlan(bool quick);
/// For the matrix products, which run at the power cap: a warm-up long enough that the power controller's
/// transient after the load starts (seen on an H200: the SM clock dipping to 1125 MHz for a fraction of a
/// second) is over before the timing starts, then 0.5 s timed: the rate a long run sustains.
MeasurePlan sustainedPlan(bool quick);

/// Runs of launches from an idle device, for the matrix products: a burst runs near the top clock before the
/// power controller pulls it down to what a long run sustains, and real programs run their products in
/// bursts between other kernels. Each burst follows `idleSeconds` of idling; the rate is the best median of
/// `window` consecutive launches in any burst (what a run of `window` products reaches).
struct BurstPlan {
  int bursts = 3;
  int launchesPerBurst = 60;
  int window = 20;
  double idleSeconds = 0.5;
};
BurstPlan burstPlan(bool quick);

/// The best median of `window` consecutive values and where that window starts; the sample must hold at
/// least `window` values.
struct Window {
  Summary summary;
  size_t start = 0;
};
Window bestWindow(const std::vector<double> &rates, size_t window);

struct Repetitions {
  int warmup = 1;
  int timed = 1;
};

/// Launch counts that fill the plan's budget for a launch that took trialSeconds: at least one warm-up
/// launch, timed launches within [minRepetitions, maxRepetitions].
Repetitions planRepetitions(double trialSeconds, const MeasurePlan &plan);

} // namespace roofcheck::probe
