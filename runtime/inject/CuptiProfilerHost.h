// The one class that talks to CUPTI's profiler host API: which metrics the chip has, the configuration
// image that schedules them, how many replay passes it takes, and the evaluation of decoded counter data
// into metric values.
#pragma once

#include "Diagnostics.h"

#include <cupti_profiler_host.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class CuptiProfilerHost {
public:
  /// type: the range profiler's configurations (replayed or one pass per launch) or PM sampling's.
  explicit CuptiProfilerHost(Diagnostics &diagnostics, CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER)
      : diagnostics_(diagnostics), type_(type) {}
  ~CuptiProfilerHost();
  CuptiProfilerHost(const CuptiProfilerHost &) = delete;
  CuptiProfilerHost &operator=(const CuptiProfilerHost &) = delete;

  /// Whether this CUPTI can configure chip's counters without a counter availability image (it needs one
  /// for chips newer than itself): a configuration can then be made before the device has a context.
  static bool knowsChip(const std::string &chip);

  /// The tensor-pipe metrics added to the requested ones: none, the tensor pipe's instruction counts (all, and
  /// its HFMA2.MMA moves), or those and the tensor op totals per source type (7 passes of their own on GH100).
  enum class TensorMetrics { None, Instructions, OpsPerType };
  /// Sets up the host object for chip (with a counter availability image, or an empty one where knowsChip),
  /// keeps the requested metrics the chip has (warning about each one it lacks), adds the tensor-pipe metrics
  /// it has, and builds the configuration image. false when no metric can be collected.
  bool configure(const std::string &chip, const std::vector<uint8_t> &counterAvailability,
                 const std::vector<std::string> &requested, TensorMetrics tensor);

  bool configured() const { return !configImage_.empty(); }
  const std::string &chip() const { return chip_; }
  const std::vector<std::string> &metrics() const { return metrics_; }
  const std::vector<const char *> &metricNames() const { return names_; }
  const std::vector<uint8_t> &configImage() const { return configImage_; }
  std::optional<int64_t> passes() const { return passes_; }

  /// The metric values of one range of a decoded counter data image.
  std::optional<std::map<std::string, double>> evaluate(const std::vector<uint8_t> &counterData, size_t range);

private:
  bool exists(const std::string &metric);
  std::vector<std::string> tensorMetrics();

  Diagnostics &diagnostics_;
  CUpti_ProfilerType type_;
  CUpti_Profiler_Host_Object *host_ = nullptr;
  std::string chip_;
  std::vector<std::string> metrics_;
  std::vector<const char *> names_;
  std::vector<uint8_t> configImage_;
  std::optional<int64_t> passes_;
};

} // namespace roofcheck::runtime
