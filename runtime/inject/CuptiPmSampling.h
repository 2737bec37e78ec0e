// The one class that talks to CUPTI's PM sampling API (cupti_pmsampling.h): the device's counters read at a
// fixed interval while the program runs, with no replay and no serialisation of its kernels, decoded into
// samples with their GPU start and end times. A launch's traffic is then what the samples within its
// kernel's span counted (PmAttribution.h).
#pragma once

#include "../PmAttribution.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cupti_pmsampling.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class CuptiPmSampling {
public:
  explicit CuptiPmSampling(Diagnostics &diagnostics)
      : diagnostics_(diagnostics), host_(diagnostics, CUPTI_PROFILER_TYPE_PM_SAMPLING) {}
  ~CuptiPmSampling();
  CuptiPmSampling(const CuptiPmSampling &) = delete;
  CuptiPmSampling &operator=(const CuptiPmSampling &) = delete;

  /// Enables sampling of metrics on device (CUDA's device index; cuptiProfilerInitialize must have run)
  /// every intervalNs of GPU time, into a hardware buffer of hardwareBufferBytes, and decodes up to
  /// maxSamples at a time. false, with a warning, where the device cannot (permissions, a metric that
  /// needs more than one pass).
  bool enable(int device, const std::string &chip, const std::vector<std::string> &metrics, uint64_t intervalNs,
              size_t hardwareBufferBytes, uint32_t maxSamples);
  bool start();
  bool stop();
  /// The samples the hardware has completed since the last drain, oldest first; sets *overflow when the
  /// hardware buffer filled and samples were lost.
  std::vector<PmSample> drain(bool *overflow = nullptr);
  const std::vector<std::string> &metrics() const { return host_.metrics(); }

private:
  bool resetCounterData();

  Diagnostics &diagnostics_;
  CuptiProfilerHost host_;
  CUpti_PmSampling_Object *object_ = nullptr;
  std::vector<uint8_t> counterData_;
  bool started_ = false;
};

} // namespace roofcheck::runtime
