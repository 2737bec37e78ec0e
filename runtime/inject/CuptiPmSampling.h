// The one class that talks to CUPTI's PM sampling API (cupti_pmsampling.h): the device's counters read at a
// fixed interval while the program runs, with no replay and no serialisation of its kernels, decoded into
// samples with their GPU start and end times. A launch's traffic is then what the samples within its
// kernel's span counted (PmAttribution.h).
#pragma once

#include "../PmAttribution.h"
#include "../PmCounterDataLayout.h"
#include "../PmSampleEvaluator.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cupti_pmsampling.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
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
  /// The two host images samples are decoded into, up to maxSamples at a time, and the thread that evaluates
  /// them: made after start, since making large images takes tens of milliseconds (~3 KB a sample).
  bool makeCounterData(uint32_t maxSamples);
  struct Drained {
    std::vector<PmSample> samples; ///< evaluated, oldest first
    size_t decoded = 0;            ///< samples decoded by this drain
    bool overflow = false;         ///< the hardware buffer filled and samples were lost
    bool more = false;             ///< samples are still waiting
  };
  /// The samples the hardware has completed since the last drain, decoded maxSamples at a time until none is
  /// waiting, the time is until, or the samples reach GPU time enough. Each image is evaluated on a thread of
  /// its own while the next is decoded: where pipelined, what had been evaluated when the decoding stopped is
  /// returned, and the rest comes with the next drain; otherwise all of it.
  Drained drain(std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
                uint64_t enough = UINT64_MAX, bool pipelined = false);
  /// GPU time for which no sample came back so far (gaps between consecutive samples), in ns.
  uint64_t missingNs() const { return missingNs_; }
  const std::vector<std::string> &metrics() const { return host_.metrics(); }

private:
  /// The size of a counter data image for maxSamples samples.
  std::optional<size_t> counterDataSize(uint32_t maxSamples);
  /// One image's worth (maxSamples) decoded and handed to the evaluator; true when more are waiting.
  bool decode(Drained &drained);
  /// An image made blank again before a decode: the part the last decode into it wrote where the image's
  /// layout is known, all of it otherwise.
  void blankCounterData(size_t image);

  Diagnostics &diagnostics_;
  CuptiProfilerHost host_;
  CUpti_PmSampling_Object *object_ = nullptr;
  /// Decoded into in turn.
  std::array<std::vector<uint8_t>, 2> counterData_;
  size_t nextImage_ = 0;
  /// An image as initialised, copied over one before each decode rather than initialising it again.
  PmBlankImage blank_;
  PmCounterDataLayout layout_;
  /// Per image, the bytes the last decode into it may have written; whether making only those blank was
  /// checked yet.
  std::array<size_t, 2> writtenBytes_{};
  bool layoutChecked_ = false;
  /// Evaluates the decoded images; made with them, and gone before they are.
  std::unique_ptr<PmSampleEvaluator> evaluator_;
  bool started_ = false;
  uint64_t lastSampleEnd_ = 0, missingNs_ = 0;
};

} // namespace roofcheck::runtime
