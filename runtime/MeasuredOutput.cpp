#include "MeasuredOutput.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

namespace roofcheck::runtime {

std::optional<int64_t> rankFromEnvironment(const std::function<const char *(const char *)> &getenv,
                                           std::vector<std::string> &problems) {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "RANK", "SLURM_PROCID"}) {
    const char *text = getenv(name);
    if (!text || !*text)
      continue;
    int64_t value = 0;
    const char *end = text + std::strlen(text);
    auto [stop, ec] = std::from_chars(text, end, value);
    if (ec == std::errc() && stop == end && value >= 0)
      return value;
    problems.push_back(std::string(name) + "='" + text + "' is not a rank (a non-negative integer): passed over");
  }
  return std::nullopt;
}

std::string measuredFileName(int64_t pid, std::optional<int64_t> rank) {
  std::string name = "roofcheck.";
  if (rank)
    name += "rank" + std::to_string(*rank) + ".";
  return name + std::to_string(pid) + ".measured.jsonl";
}

JsonLinesWriter::~JsonLinesWriter() { close(); }

bool JsonLinesWriter::open(const std::string &path) {
  close();
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error_ = path + ": cannot create: " + std::strerror(errno);
    return false;
  }
  return true;
}

bool JsonLinesWriter::write(const Json &record) {
  append(record);
  return flush();
}

void JsonLinesWriter::append(const Json &record) {
  if (fd_ < 0)
    return;
  pending_ += record.dump(-1, ' ', false, Json::error_handler_t::replace);
  pending_.push_back('\n');
}

void JsonLinesWriter::appendText(const std::string &lines) {
  if (fd_ >= 0)
    pending_ += lines;
}

bool JsonLinesWriter::flush() {
  if (fd_ < 0)
    return false;
  std::string text;
  text.swap(pending_);
  const char *data = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, data, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error_ = path_ + ": write failed: " + std::strerror(errno);
      return false;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

bool JsonLinesWriter::close() {
  if (fd_ < 0)
    return true;
  bool flushed = flush();
  // close() reports what an earlier write-back failed on (NFS, a full disk); never retried on EINTR.
  if (::close(fd_) != 0 && flushed) {
    error_ = path_ + ": close failed: " + std::strerror(errno);
    flushed = false;
  }
  fd_ = -1;
  return flushed;
}

Json summaryRecord(const RunCounts &c) {
  return Json{{"record", "summary"},
              {"launches_seen", c.launchesSeen},
              {"launches_recorded", c.launchesRecorded},
              {"launches_profiled", c.launchesProfiled},
              {"activity_records_dropped", c.activityRecordsDropped},
              {"warnings", c.warnings}};
}

namespace {

// The last line of a file, without its newline; "" when there is none. Reads back from the end only as
// far as the line goes.
std::string lastLine(const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return "";
  std::streamoff size = in.tellg();
  for (std::streamoff take = std::min<std::streamoff>(size, 1 << 16);; take = std::min(size, take * 4)) {
    std::string tail(static_cast<size_t>(take), '\0');
    in.seekg(size - take);
    in.read(tail.data(), take);
    while (!tail.empty() && tail.back() == '\n')
      tail.pop_back();
    size_t newline = tail.rfind('\n');
    if (newline != std::string::npos)
      return tail.substr(newline + 1);
    if (take == size)
      return tail;
  }
}

std::optional<RunCounts> summaryFrom(const std::string &line, const std::string &path) {
  Json record = Json::parse(line, nullptr, false);
  if (record.is_discarded() || !record.is_object() || !record.contains("record") || record["record"] != "summary")
    return std::nullopt;
  FieldReader r(record, path + ": summary");
  RunCounts counts;
  counts.launchesSeen = r.integer("launches_seen");
  counts.launchesRecorded = r.integer("launches_recorded");
  counts.launchesProfiled = r.integer("launches_profiled");
  counts.activityRecordsDropped = r.integer("activity_records_dropped");
  for (const Json &w : r.raw("warnings"))
    if (w.is_string())
      counts.warnings.push_back(w.get<std::string>());
  return counts;
}

} // namespace

FileSummary summarizeMeasuredFile(const std::string &path) {
  FileSummary summary;
  summary.path = path;
  // A complete file ends with its summary: the header and that line are all that need reading, which
  // keeps the launcher's own cost flat however many launches the program made.
  if (std::optional<RunCounts> counts = summaryFrom(lastLine(path), path)) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    MeasuredFile header = parseMeasuredLines(first, path);
    summary.pid = header.header.pid;
    summary.counts = std::move(*counts);
    summary.complete = true;
    return summary;
  }
  MeasuredReader reader(path); // streamed: a cut-short run of millions of launches need not fit in memory
  summary.pid = reader.header().pid;
  reader.forEachLaunch([&](const Launch &l) {
    ++summary.counts.launchesRecorded;
    summary.counts.launchesProfiled += l.profiled;
  });
  summary.counts.launchesSeen = summary.counts.launchesRecorded;
  return summary;
}

std::vector<std::string> findSessionFiles(const std::string &dir, const std::string &session) {
  std::vector<std::string> files;
  std::error_code ec;
  std::filesystem::directory_iterator entries(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw Error(dir + ": cannot list the measured files: " + ec.message());
  for (const auto &entry : entries) {
    std::string name = entry.path().filename().string();
    if (name.rfind("roofcheck.", 0) != 0 || name.size() < 15 ||
        name.compare(name.size() - 15, 15, ".measured.jsonl") != 0)
      continue;
    std::ifstream in(entry.path());
    if (!in) { // perhaps this session's: reading it again says why it cannot be read
      files.push_back(entry.path().string());
      continue;
    }
    std::string first;
    if (!std::getline(in, first))
      continue;
    Json header = Json::parse(first, nullptr, false);
    if (header.is_discarded() || !header.is_object() || !header.contains("options"))
      continue;
    const Json &options = header["options"];
    if (options.is_object() && options.value("session", "") == session)
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string summaryLine(const std::vector<FileSummary> &files) {
  RunCounts total;
  for (const FileSummary &f : files) {
    total.launchesSeen += f.counts.launchesSeen;
    total.launchesRecorded += f.counts.launchesRecorded;
    total.launchesProfiled += f.counts.launchesProfiled;
    total.activityRecordsDropped += f.counts.activityRecordsDropped;
  }
  std::string line = std::to_string(total.launchesSeen) + " launches seen, " +
                     std::to_string(total.launchesRecorded) + " recorded, " +
                     std::to_string(total.launchesProfiled) + " profiled";
  if (total.activityRecordsDropped > 0)
    line += ", " + std::to_string(total.activityRecordsDropped) + " activity records dropped";
  if (files.empty())
    return line + ", no measured file written (the program initialised no CUDA context)";
  if (files.size() == 1)
    return line + ", wrote " + files[0].path + (files[0].complete ? "" : " (the process ended early)");
  line += ", wrote " + std::to_string(files.size()) + " files:";
  for (const FileSummary &f : files)
    line += " " + f.path + (f.complete ? "" : " (ended early)");
  return line;
}

} // namespace roofcheck::runtime
