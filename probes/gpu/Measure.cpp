#include "Measure.h"

#include "Cuda.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace roofcheck::probe {

Measurer::Measurer(Nvml &nvml, cudaStream_t stream) : nvml_(nvml), stream_(stream) {}
Measurer::~Measurer() = default;

void Measurer::ensureEvents(size_t count) {
  while (events_.size() < count)
    events_.emplace_back();
}

double Measurer::elapsedSeconds(size_t from, size_t to) const {
  float ms = 0;
  ROOFCHECK_CUDA(cudaEventElapsedTime(&ms, events_[from].get(), events_[to].get()));
  return ms * 1e-3;
}

namespace {

std::optional<double> medianOf(std::vector<double> values) {
  if (values.empty())
    return std::nullopt;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

double Measurer::trialLaunch(const Launch &launch) {
  // The first launch pays for module loading and lazy initialisation: never timed.
  launch(stream_);
  ROOFCHECK_CUDA(cudaStreamSynchronize(stream_));
  ensureEvents(2);
  ROOFCHECK_CUDA(cudaEventRecord(events_[0].get(), stream_));
  launch(stream_);
  ROOFCHECK_CUDA(cudaEventRecord(events_[1].get(), stream_));
  ROOFCHECK_CUDA(cudaStreamSynchronize(stream_));
  return elapsedSeconds(0, 1);
}

Measurement Measurer::measure(const Launch &launch, double workPerLaunch, const MeasurePlan &plan) {
  Measurement m;
  m.trialSeconds = trialLaunch(launch);
  m.repetitions = planRepetitions(m.trialSeconds, plan);

  for (int i = 0; i < m.repetitions.warmup; ++i)
    launch(stream_);
  ROOFCHECK_CUDA(cudaStreamSynchronize(stream_));
  std::vector<double> seconds = timeLaunches(launch, m.repetitions.timed, m.trialSeconds * m.repetitions.timed, m);
  m.rate = summarize(ratesOf(workPerLaunch, seconds));
  return m;
}

std::vector<double> Measurer::timeLaunches(const Launch &launch, int count, double expectedSeconds, Measurement &m) {
  m.before = nvml_.clocks();
  ensureEvents(static_cast<size_t>(count) + 1);
  ROOFCHECK_CUDA(cudaEventRecord(events_[0].get(), stream_));
  for (int i = 0; i < count; ++i) {
    launch(stream_);
    ROOFCHECK_CUDA(cudaEventRecord(events_[i + 1].get(), stream_));
  }
  // Clocks while the timed launches run: three reads spread over the expected duration, median of each.
  std::vector<double> sm, memory;
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::duration<double>(expectedSeconds / 4));
    ClockSample c = nvml_.clocks();
    if (c.smMHz)
      sm.push_back(*c.smMHz);
    if (c.memoryMHz)
      memory.push_back(*c.memoryMHz);
  }
  m.during.smMHz = medianOf(sm);
  m.during.memoryMHz = medianOf(memory);
  ROOFCHECK_CUDA(cudaStreamSynchronize(stream_));
  m.after = nvml_.clocks();

  std::vector<double> seconds;
  seconds.reserve(count);
  for (int i = 0; i < count; ++i)
    seconds.push_back(elapsedSeconds(i, i + 1));
  return seconds;
}

Measurement Measurer::measureBursts(const Launch &launch, double workPerLaunch, const BurstPlan &plan) {
  Measurement best;
  const double trial = trialLaunch(launch);
  std::vector<double> medians;
  for (int b = 0; b < plan.bursts; ++b) {
    std::this_thread::sleep_for(std::chrono::duration<double>(plan.idleSeconds));
    Measurement burst;
    Window w = bestWindow(ratesOf(workPerLaunch, timeLaunches(launch, plan.launchesPerBurst,
                                                                  trial * plan.launchesPerBurst, burst)),
                          static_cast<size_t>(plan.window));
    medians.push_back(w.summary.median);
    if (b == 0 || w.summary.median > best.rate.median) {
      best = burst;
      best.rate = w.summary;
    }
  }
  best.trialSeconds = trial;
  best.repetitions = Repetitions{0, plan.window};
  best.burstMedians = medians;
  return best;
}

Provenance provenanceOf(const std::string &kernel, Json parameters, const Measurement &m) {
  Provenance p;
  p.kernel = kernel;
  parameters["warmup_launches"] = m.repetitions.warmup;
  parameters["trial_launch_seconds"] = m.trialSeconds;
  p.parameters = std::move(parameters);
  p.repetitions = m.rate.count;
  p.median = m.rate.median;
  p.min = m.rate.min;
  p.max = m.rate.max;
  p.clocksBefore = m.before;
  p.clocksDuring = m.during;
  p.clocksAfter = m.after;
  return p;
}

} // namespace roofcheck::probe
