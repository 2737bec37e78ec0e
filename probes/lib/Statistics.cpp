#include "Statistics.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cmath>

namespace roofcheck::probe {

Summary summarize(const std::vector<double> &values) {
  if (values.empty())
    throw Error("no samples to summarize");
  for (double v : values)
    if (!std::isfinite(v) || v <= 0)
      throw Error("sample " + std::to_string(v) + " is not a finite positive number");
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  Summary s;
  s.count = static_cast<int>(n);
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return s;
}

std::vector<double> ratesOf(double workPerLaunch, const std::vector<double> &seconds) {
  std::vector<double> rates;
  rates.reserve(seconds.size());
  for (double s : seconds) {
    if (!(s > 0))
      throw Error("a timed launch took " + std::to_string(s) + " s: the events did not measure it");
    rates.push_back(workPerLaunch / s);
  }
  return rates;
}

MeasurePlan fullPlan(bool quick) {
  if (quick)
    return MeasurePlan{0.02, 0.05, 5, 100};
  return MeasurePlan{0.1, 0.3, 10, 500};
}

MeasurePlan screeningPlan(bool quick) {
  if (quick)
    return MeasurePlan{0.01, 0.02, 3, 20};
  return MeasurePlan{0.03, 0.06, 5, 100};
}

MeasurePlan sustainedPlan(bool quick) {
  if (quick)
    return fullPlan(true);
  return MeasurePlan{0.5, 0.5, 10, 500};
}

BurstPlan burstPlan(bool quick) {
  if (quick)
    return BurstPlan{2, 30, 10, 0.2};
  return BurstPlan{};
}

Window bestWindow(const std::vector<double> &rates, size_t window) {
  if (window == 0 || rates.size() < window)
    throw Error("a window of " + std::to_string(window) + " launches over " + std::to_string(rates.size()) +
                " timed ones");
  Window best;
  for (size_t start = 0; start + window <= rates.size(); ++start) {
    Summary s = summarize(std::vector<double>(rates.begin() + start, rates.begin() + start + window));
    if (start == 0 || s.median > best.summary.median)
      best = {s, start};
  }
  return best;
}

Repetitions planRepetitions(double trialSeconds, const MeasurePlan &plan) {
  if (!(trialSeconds > 0) || !std::isfinite(trialSeconds))
    throw Error("trial launch time " + std::to_string(trialSeconds) + " s is not a positive duration");
  auto fit = [&](double budget, int lo, int hi) {
    double n = std::ceil(budget / trialSeconds);
    return static_cast<int>(std::clamp(n, static_cast<double>(lo), static_cast<double>(hi)));
  };
  Repetitions r;
  r.warmup = fit(plan.warmupSeconds, 1, plan.maxRepetitions);
  r.timed = fit(plan.timedSeconds, plan.minRepetitions, plan.maxRepetitions);
  return r;
}

} // namespace roofcheck::probe
