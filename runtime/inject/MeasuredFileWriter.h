// This process's measured file: the header, written once the devices are described and before any launch
// record, then the launch records in batches, and at exit the summary record.
#pragma once

#include "../MeasuredOutput.h"
#include "../RunOptions.h"
#include "DeviceDescription.h"
#include "Diagnostics.h"
#include "ShimTiming.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredRecords.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class MeasuredFileWriter {
public:
  /// Takes the header's fields known at the start: the process, its rank, the versions and the options.
  MeasuredFileWriter(Diagnostics &diagnostics, ShimTiming &timing, DeviceDescription &devices,
                     const RunOptions &options);

  /// Opens the file and writes the header, once; nothing before a context exists.
  void writeHeader();
  /// Serialises launches (at least one) and writes them in one go, after the header.
  void write(const std::vector<Launch> &launches);
  /// At the end: the summary record (nullptr: none, the program was ended by a signal), then the file closed.
  void close(const RunCounts *summary);

private:
  Diagnostics &diagnostics_;
  ShimTiming &timing_;
  DeviceDescription &devices_;
  MeasuredHeader header_; ///< the fields known at the start; devices_ adds its own when it is written
  std::string path_;

  std::mutex mutex_; // writer_ and records_; taken before DeviceDescription's
  JsonLinesWriter writer_;
  MeasuredRecordWriter records_;
  std::atomic<bool> headerWritten_{false};
};

} // namespace roofcheck::runtime
