// Timing one probe: an untimed first launch, a timed trial that sizes the run, warm-up, then many launches
// each between two CUDA events, with the clocks read from NVML before, during and after.
#pragma once

#include "Nvml.h"
#include "Statistics.h"

#include "roofcheck/Contracts.h"

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

namespace roofcheck::probe {

class Event;

/// Enqueues one launch of the measured work on the stream and checks the launch.
using Launch = std::function<void(cudaStream_t)>;

struct Measurement {
  Summary rate;          ///< work per second over the timed launches
  Repetitions repetitions;
  double trialSeconds = 0;
  ClockSample before, during, after;
  std::vector<double> burstMedians; ///< measureBursts: each burst's best window
};

class Measurer {
public:
  Measurer(Nvml &nvml, cudaStream_t stream);
  ~Measurer();

  Measurement measure(const Launch &launch, double workPerLaunch, const MeasurePlan &plan);
  /// The best window of the plan's bursts (BurstPlan); the clocks are those of the burst it lies in.
  Measurement measureBursts(const Launch &launch, double workPerLaunch, const BurstPlan &plan);

private:
  /// An untimed launch, then one timed alone: its seconds.
  double trialLaunch(const Launch &launch);
  /// Enqueues `count` launches, each between two events, reads the clocks three times while they run
  /// (expected to take `expectedSeconds`) and returns each launch's seconds once they are done.
  std::vector<double> timeLaunches(const Launch &launch, int count, double expectedSeconds, Measurement &m);
  double elapsedSeconds(size_t from, size_t to) const;
  void ensureEvents(size_t count);

  Nvml &nvml_;
  cudaStream_t stream_;
  std::vector<Event> events_;
};

/// The provenance of a ceiling measured by `measurement`; parameters gain the launch counts.
Provenance provenanceOf(const std::string &kernel, Json parameters, const Measurement &measurement);

} // namespace roofcheck::probe
