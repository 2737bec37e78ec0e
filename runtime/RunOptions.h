// The options of `roofcheck run`: parsed from the launcher's command line, handed to the injected shim as
// JSON in ROOFCHECK_OPTIONS, and recorded in the header of every measured file.
#pragma once

#include "roofcheck/Json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// What the shim collects for a profiled launch.
enum class MetricsMode {
  Time,    ///< durations only: no counters, no replay
  Default, ///< defaultMetrics() plus the tensor-pipe metrics the device has
  List,    ///< exactly RunOptions::metrics
};

struct RunOptions {
  std::string kernelRegex;              ///< ECMAScript, searched in the demangled and the mangled name; "" = all
  int64_t launchSkip = 0;               ///< matching launches to pass over before recording
  std::optional<int64_t> launchCount;   ///< matching launches to record after the skipped ones; null = all
  int64_t samplesPerSignature = 3;      ///< profiled launches per (kernel, grid, block); 0 = every launch
  MetricsMode metricsMode = MetricsMode::Default;
  std::vector<std::string> metrics;     ///< the list for MetricsMode::List
  /// Every second profiled launch of a signature counts only trafficMetrics(), in one pass, where the
  /// full set needs kernel replay: replay's save and restore leave dirty lines in L2 that inflate DRAM writes.
  bool trafficSet = true;
  /// DRAM bytes of every launch from CUPTI's PM sampling: the device's counters read every this many ns of
  /// GPU time, each launch given its share of the samples its kernel overlaps; 0 = off. Only with
  /// MetricsMode::Time: PM sampling and the range profiler cannot hold the counters at once.
  int64_t sampledTrafficIntervalNs = 0;
  std::string outputDir = ".";
  std::string session;                  ///< set by the launcher so it can find the files of its run
};

/// `--report`: after the program, `roofcheck report` on the measured files just written.
struct ReportRequest {
  bool wanted = false;
  std::vector<std::string> staticFiles; ///< --static FILE...
  std::optional<std::string> ceilings;  ///< --ceilings FILE
};

/// The launcher's command line: options, then PROGRAM ARGS (after "--" or from the first non-option).
struct RunCommandLine {
  RunOptions options;
  ReportRequest report;
  std::vector<std::string> program;
  bool help = false;
  bool version = false;
};

/// Throws roofcheck::Error with a message that names the bad option and what to pass instead.
RunCommandLine parseRunCommandLine(const std::vector<std::string> &args);

/// The usage text of roofcheck-run.
std::string runUsage();

/// Metrics collected for profiled launches unless --metrics says otherwise (tensor metrics are added
/// by the shim where the device has them).
const std::vector<std::string> &defaultMetrics();

/// The metrics that one pass counts without kernel replay: duration, DRAM and L2 bytes. Where the collected
/// set needs replay, the traffic set is the collected metrics among these.
const std::vector<std::string> &trafficMetrics();

std::string metricsModeName(MetricsMode mode);

Json toJson(const RunOptions &options);
/// Reads what toJson wrote; throws roofcheck::Error naming the bad field.
RunOptions runOptionsFromJson(const std::string &text);

} // namespace roofcheck::runtime
