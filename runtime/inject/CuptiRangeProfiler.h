// The one class that talks to CUPTI's range profiler API: per context, one auto range around a single
// launch, replayed by CUPTI (kernel replay) until every pass of the configuration ran, then decoded. A
// launch may come with another configuration than the one before it (the traffic set): the context's
// object is then disabled and enabled afresh with it. A device's counters serve one object at a time: a
// launch on another context of the same device disables the object of the context profiled before it (its
// start would fail with CUPTI_ERROR_HARDWARE_BUSY, CUDA 13.0 on an H100).
#pragma once

#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cuda.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofcheck::runtime {

class CuptiRangeProfiler {
public:
  explicit CuptiRangeProfiler(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  /// Before the launch: enables profiling on context, a context of device, with host (a configuration made
  /// for that device, which must outlive the context) and starts a range. false when the launch
  /// cannot be profiled; permanentlyUnavailable() then says whether to stop trying.
  bool begin(CUcontext context, int device, CuptiProfilerHost &host);
  /// After the launch: stops, decodes and evaluates. nullopt (with a warning) when that fails.
  std::optional<std::map<std::string, double>> end(CUcontext context);
  /// Before the context goes away.
  void release(CUcontext context);

  bool permanentlyUnavailable() const { return unavailable_; }

private:
  struct ContextState {
    CUpti_RangeProfiler_Object *object = nullptr;
    int device = 0;
    CuptiProfilerHost *host = nullptr; ///< the configuration of the context's device
    std::vector<uint8_t> counterData;
    size_t rangesHeld = 0;   ///< ranges decoded into counterData since it was configured
    bool configured = false;
    bool active = false;     ///< a profiled launch is between begin and end
    bool broken = false;
  };
  static constexpr size_t rangesPerImage = 64;
  bool configure(ContextState &state);
  bool enable(CUcontext context, ContextState &state);
  bool disable(ContextState &state);
  /// Disables the objects of device's other contexts. false when one is in use or would not go.
  bool vacate(CUcontext context, int device);

  Diagnostics &diagnostics_;
  std::mutex mutex_;
  std::unordered_map<CUcontext, ContextState> contexts_;
  bool unavailable_ = false;
};

} // namespace roofcheck::runtime
