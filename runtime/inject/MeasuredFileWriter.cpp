#include "MeasuredFileWriter.h"

#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <unistd.h>

namespace roofcheck::runtime {

namespace {

std::vector<std::string> commandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find('\0', start);
    if (end == std::string::npos)
      end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

} // namespace

MeasuredFileWriter::MeasuredFileWriter(Diagnostics &diagnostics, ShimTiming &timing, DeviceDescription &devices,
                                       const RunOptions &options)
    : diagnostics_(diagnostics), timing_(timing), devices_(devices) {
  header_.pid = ::getpid();
  std::vector<std::string> rankProblems;
  header_.rank = rankFromEnvironment([](const char *name) { return std::getenv(name); }, rankProblems);
  for (const std::string &problem : rankProblems)
    diagnostics_.warn("rank " + problem, problem);
  header_.program = commandLine();
  header_.started = utcTimestamp();
  header_.roofcheckVersion = roofcheck::Version;
  header_.cudaVersion = versionText(CUDA_VERSION);
  uint32_t cupti = 0;
  if (diagnostics_.cupti(cuptiGetVersion(&cupti), "cuptiGetVersion"))
    header_.cuptiVersion = cupti;
  header_.options = toJson(options);
  path_ = options.outputDir + "/" + measuredFileName(header_.pid, header_.rank);
}

void MeasuredFileWriter::writeHeader() {
  if (headerWritten_)
    return;
  if (!devices_.awaitDescription())
    return; // no context yet: nothing to describe, nothing to record
  std::lock_guard<std::mutex> writing(mutex_);
  if (headerWritten_)
    return;
  headerWritten_ = true;
  MeasuredHeader header = header_;
  devices_.fillHeader(header);
  diagnostics_.trace("writing the header");
  if (!writer_.open(path_)) {
    diagnostics_.warn("output", writer_.error() + ": nothing is recorded (pass a writable --output-dir)");
    return;
  }
  writer_.write(toJson(header));
}

void MeasuredFileWriter::write(const std::vector<Launch> &launches) {
  writeHeader();
  // Serialised under the writer's lock: a kernel record reaches the file before any launch that names it.
  std::lock_guard<std::mutex> writing(mutex_);
  int64_t started = timing_.start();
  std::string text;
  text.reserve(launches.size() * 200);
  for (const Launch &l : launches)
    records_.append(text, l);
  timing_.stop(ShimTiming::Serialise, started);
  started = timing_.start();
  writer_.appendText(text);
  if (writer_.isOpen() && !writer_.flush())
    diagnostics_.warn("write", writer_.error());
  timing_.stop(ShimTiming::Write, started);
}

void MeasuredFileWriter::close(const RunCounts *summary) {
  std::lock_guard<std::mutex> writing(mutex_);
  if (summary)
    writer_.append(summaryRecord(*summary)); // a file without one comes from a process that died
  if (!writer_.close()) // too late for the summary record: stderr is where it can still be said
    std::fprintf(stderr, "roofcheck: warning: %s: the measured file is incomplete\n", writer_.error().c_str());
}

} // namespace roofcheck::runtime
