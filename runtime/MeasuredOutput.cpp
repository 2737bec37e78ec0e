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

std::optional<int64_t> rankFromEnvironment(const std::function<const char *(const char *)> &getenv) {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "RANK", "SLURM_PROCID"}) {
    const char *text = getenv(name);
    if (!text || !*text)
      continue;
    int64_t value = 0;
    const char *end = text + std::strlen(text);
    auto [stop, ec] = std::from_chars(text, end, value);
    if (ec == std::errc() && stop == end && value >= 0)
      return value;
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

void JsonLinesWriter::appendLine(const std::string &line) {
  if (fd_ < 0)
    return;
  pending_ += line;
  pending_.push_back('\n');
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

void JsonLinesWriter::close() {
  if (fd_ >= 0) {
    flush();
    ::close(fd_);
  }
  fd_ = -1;
}

Json summaryRecord(const RunCounts &c) {
  return Json{{"record", "summary"},
              {"launches_seen", c.launchesSeen},
              {"launches_recorded", c.launchesRecorded},
              {"launches_profiled", c.launchesProfiled},
              {"activity_records_dropped", c.activityRecordsDropped},
              {"warnings", c.warnings}};
}

FileSummary summarizeMeasuredFile(const std::string &path) {
  MeasuredFile file = loadMeasuredFile(path);
  FileSummary summary;
  summary.path = path;
  summary.pid = file.header.pid;
  summary.counts.launchesSeen = static_cast<int64_t>(file.launches.size());
  summary.counts.launchesRecorded = static_cast<int64_t>(file.launches.size());
  summary.counts.launchesProfiled =
      std::count_if(file.launches.begin(), file.launches.end(), [](const Launch &l) { return l.profiled; });
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("\"summary\"") == std::string::npos)
      continue;
    Json record = Json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object() || record.value("record", "") != "summary")
      continue;
    FieldReader r(record, path + ": summary");
    summary.counts.launchesSeen = r.integer("launches_seen");
    summary.counts.launchesRecorded = r.integer("launches_recorded");
    summary.counts.launchesProfiled = r.integer("launches_profiled");
    summary.counts.activityRecordsDropped = r.integer("activity_records_dropped");
    for (const Json &w : r.raw("warnings"))
      if (w.is_string())
        summary.counts.warnings.push_back(w.get<std::string>());
    summary.complete = true;
  }
  return summary;
}

std::vector<std::string> findSessionFiles(const std::string &dir, const std::string &session) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("roofcheck.", 0) != 0 || name.size() < 15 ||
        name.compare(name.size() - 15, 15, ".measured.jsonl") != 0)
      continue;
    std::ifstream in(entry.path());
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
