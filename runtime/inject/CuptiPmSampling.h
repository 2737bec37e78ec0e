// The one class that talks to CUPTI's PM sampling API (cupti_pmsampling.h): the device's counters read at a
// fixed interval while the program runs, with no replay and no serialisation of its kernels, decoded into
// samples with their GPU start and end times. A launch's traffic is then what the samples within its
// kernel's span counted (PmAttribution.h).
#pragma once

#include "../PmAttribution.h"
#include "../PmCounterDataLayout.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cupti_pmsampling.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
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

  /// The host side, which needs no context: the configuration that reads metrics on device (CUDA's device
  /// index, of chip; cuptiProfilerInitialize must have run), from the device's counter availability where
  /// askAvailability (asking for it is the slow part: 0.16-0.28 s on the H200). false, with a warning, where
  /// the device cannot (a metric that does not exist or needs more than one pass).
  bool configure(int device, const std::string &chip, const std::vector<std::string> &metrics, bool askAvailability);
  /// Then, with a context of device current: sampling enabled on it every intervalNs of GPU time, into a
  /// hardware buffer of hardwareBufferBytes (the time SetConfig takes grows with it: ~0.6 ms a MiB on the
  /// H200). false, with a warning, where the device refuses (permissions, counters held by another profiler).
  bool enable(int device, uint64_t intervalNs, size_t hardwareBufferBytes);
  bool start();
  bool stop();
  /// The host image samples are decoded into, up to maxSamples at a time: made after start, since making a
  /// large one takes tens of milliseconds (~3 KB a sample on the H200).
  bool makeCounterData(uint32_t maxSamples);
  /// The samples the hardware has completed since the last drain, oldest first, decoded maxSamples at a time
  /// until none is waiting, the time is until, or the samples reach GPU time enough; sets *overflow when the
  /// hardware buffer filled and samples were lost, and *more when samples are still waiting.
  std::vector<PmSample> drain(bool *overflow, bool *more = nullptr,
                              std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
                              uint64_t enough = UINT64_MAX);
  /// GPU time for which no sample came back so far (gaps between consecutive samples), in ns.
  uint64_t missingNs() const { return missingNs_; }
  const std::vector<std::string> &metrics() const { return host_.metrics(); }

private:
  /// The size of a counter data image for maxSamples samples.
  std::optional<size_t> counterDataSize(uint32_t maxSamples);
  /// One image's worth (maxSamples) into samples; true when more are waiting.
  bool decode(std::vector<PmSample> &samples, bool *overflow);
  /// counterData_ made blank again before a decode: the part the last decode wrote where the image's layout is
  /// known, all of it otherwise.
  void blankCounterData();

  Diagnostics &diagnostics_;
  CuptiProfilerHost host_;
  CUpti_PmSampling_Object *object_ = nullptr;
  std::vector<uint8_t> counterData_;
  /// counterData_ as initialised, copied over it before each decode rather than initialising it again.
  std::vector<uint8_t> blankCounterData_;
  PmCounterDataLayout layout_;
  /// The bytes the last decode may have written, and whether making only those blank was checked yet.
  size_t writtenBytes_ = 0;
  bool layoutChecked_ = false;
  bool started_ = false;
  uint64_t lastSampleEnd_ = 0, missingNs_ = 0;
};

} // namespace roofcheck::runtime
