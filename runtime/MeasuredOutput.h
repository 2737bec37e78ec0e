// The measured file of one process: its name, and JSON Lines written record by record (a crash loses
// at most the launches in flight), plus the summary the launcher prints.
#pragma once

#include "roofcheck/Contracts.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// The process's rank in an MPI, torchrun or Slurm job: OMPI_COMM_WORLD_RANK, then RANK, then SLURM_PROCID
/// (the first that holds a non-negative integer). A variable set to anything else is passed over and named
/// in `problems` (one line each), for the user to see. getenv is injected for tests.
std::optional<int64_t> rankFromEnvironment(const std::function<const char *(const char *)> &getenv,
                                           std::vector<std::string> &problems);

/// "roofcheck.<pid>.measured.jsonl", or "roofcheck.rank<R>.<pid>.measured.jsonl" in a ranked job.
std::string measuredFileName(int64_t pid, std::optional<int64_t> rank);

/// Appends one JSON record per line to a file. write() goes out at once; append() collects lines until
/// flush(), which hands them to the kernel in one write(2). Either way the file ends with complete records
/// (a crash mid-write leaves at most one truncated last line, which loadMeasuredFile skips). Never throws
/// after open(): a failed write is remembered and reported.
class JsonLinesWriter {
public:
  JsonLinesWriter() = default;
  ~JsonLinesWriter();
  JsonLinesWriter(const JsonLinesWriter &) = delete;
  JsonLinesWriter &operator=(const JsonLinesWriter &) = delete;

  /// Creates (truncates) path; false with error() set when it cannot.
  bool open(const std::string &path);
  bool isOpen() const { return fd_ >= 0; }
  bool write(const Json &record);
  void append(const Json &record);
  void appendText(const std::string &lines); ///< records already dumped, each ending with its newline
  bool flush();
  /// Flushes, then closes; false with error() set when either fails (the file is then incomplete).
  bool close();
  const std::string &error() const { return error_; }

private:
  int fd_ = -1;
  std::string pending_;
  std::string path_;
  std::string error_;
};

/// Counts the shim writes as its last record ("record": "summary"); loadMeasuredFile skips it.
struct RunCounts {
  int64_t launchesSeen = 0;
  int64_t launchesRecorded = 0;
  int64_t launchesProfiled = 0;
  int64_t activityRecordsDropped = 0;
  std::vector<std::string> warnings;
};
Json summaryRecord(const RunCounts &counts);

/// What the launcher reports for one measured file.
struct FileSummary {
  std::string path;
  int64_t pid = 0;
  RunCounts counts;
  bool complete = false; ///< the summary record is there (the process ended normally)
};

/// The counts of a measured file: from its summary record (the last line) when the process ended normally,
/// reading only the header and that line; otherwise from its launch records, read through core's
/// loadMeasuredFile. A file whose header or launch records do not parse is an error.
FileSummary summarizeMeasuredFile(const std::string &path);

/// The measured files in dir whose header carries options.session == session, sorted by name; a file so
/// named that cannot be opened is listed too (reading it says why). A missing dir has none; a dir that
/// cannot be listed is an Error.
std::vector<std::string> findSessionFiles(const std::string &dir, const std::string &session);

/// "12 launches seen, 9 recorded, 3 profiled, wrote DIR/FILE" (one line, no newline).
std::string summaryLine(const std::vector<FileSummary> &files);

} // namespace roofcheck::runtime
