// Every CUPTI and driver call of the shim goes through here: checked, reported once per cause on stderr
// ("roofcheck: warning: ..."), kept for the summary record, never fatal.
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class Diagnostics {
public:
  /// Prints message once per key and keeps it for the summary record.
  void warn(const std::string &key, const std::string &message);

  /// true on success; otherwise warns "<call> failed: <CUPTI's name for the error>" (once per call).
  bool cupti(CUptiResult result, const char *call);
  /// Same for driver calls.
  bool driver(CUresult result, const char *call);

  std::vector<std::string> warnings() const;

  /// With ROOFCHECK_SHIM_TRACE=1 in the environment: one stderr line per step of the shim, with the
  /// thread and the milliseconds since the shim started, so that a run that hangs or stalls shows where. Off
  /// (the default) it prints nothing.
  void enableTrace(bool on) { trace_ = on; }
  bool tracing() const { return trace_; }
  void trace(const std::string &step) const;
  static std::string cuptiError(CUptiResult result);
  static std::string driverError(CUresult result);

private:
  mutable std::mutex mutex_;
  std::set<std::string> seen_;
  std::vector<std::string> messages_;
  bool trace_ = false;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

} // namespace roofcheck::runtime
