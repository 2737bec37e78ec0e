#include "MeasuredOutput.h"

#include "RunOptions.h"

#include "roofcheck/Error.h"
#include "roofcheck/MeasuredFlops.h"
#include "roofcheck/MeasuredRecords.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>

using namespace roofcheck;
using namespace roofcheck::runtime;

namespace {

class TempDir {
public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("roofcheck-runtime-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string &name) const { return (path_ / name).string(); }
  std::string path() const { return path_.string(); }

private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

MeasuredHeader header(const std::string &session) {
  MeasuredHeader h;
  h.pid = 4242;
  h.rank = 3;
  h.program = {"./app", "1"};
  h.started = "2026-11-30T02:00:00Z";
  h.roofcheckVersion = "0.1.0";
  h.driverVersion = "580.1";
  h.cudaVersion = "13.0";
  RunOptions o;
  o.session = session;
  h.options = toJson(o);
  return h;
}

Launch launch(int64_t index, bool profiled) {
  Launch l;
  l.index = index;
  l.name = "vector_add(float const*, float const*, float*, int)";
  l.mangled = "_Z10vector_addPKfS0_Pfi";
  l.grid = {4096, 1, 1};
  l.block = {256, 1, 1};
  l.args = {{3, 24, 4, "00001000", 1048576}};
  l.nvtx = {"outer", "inner"};
  l.durationNs = 1234;
  l.profiled = profiled;
  if (profiled) {
    l.replayPasses = 8;
    l.metrics = {{"dram__bytes_read.sum", 8388608}, {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1048576}};
  }
  return l;
}

/// The records of these launches and their kernels, as the shim writes them.
std::string records(const std::vector<Launch> &launches) {
  MeasuredRecordWriter writer;
  std::string text;
  for (const Launch &l : launches)
    writer.append(text, l);
  return text;
}

} // namespace

TEST(MeasuredOutput, RankComesFromMpiThenTorchrunThenSlurm) {
  std::map<std::string, std::string> env;
  auto getenv = [&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  std::vector<std::string> problems;
  EXPECT_FALSE(rankFromEnvironment(getenv, problems));
  env["SLURM_PROCID"] = "5";
  EXPECT_EQ(rankFromEnvironment(getenv, problems), 5);
  env["RANK"] = "2";
  EXPECT_EQ(rankFromEnvironment(getenv, problems), 2);
  env["OMPI_COMM_WORLD_RANK"] = "7";
  EXPECT_EQ(rankFromEnvironment(getenv, problems), 7);
  EXPECT_TRUE(problems.empty());
  env["OMPI_COMM_WORLD_RANK"] = "x7"; // not a number: the next one counts, and the user hears of it
  EXPECT_EQ(rankFromEnvironment(getenv, problems), 2);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "OMPI_COMM_WORLD_RANK='x7' is not a rank (a non-negative integer): passed over");
  env["RANK"] = "-1";
  problems.clear();
  EXPECT_EQ(rankFromEnvironment(getenv, problems), 5);
  EXPECT_EQ(problems.size(), 2u);
}

TEST(MeasuredOutput, FileNamesCarryPidAndRank) {
  EXPECT_EQ(measuredFileName(1234, std::nullopt), "roofcheck.1234.measured.jsonl");
  EXPECT_EQ(measuredFileName(1234, 0), "roofcheck.rank0.1234.measured.jsonl");
}

TEST(MeasuredOutput, WrittenRecordsReadBackThroughCore) {
  TempDir dir;
  std::string path = dir.file(measuredFileName(4242, 3));
  {
    JsonLinesWriter w;
    ASSERT_TRUE(w.open(path));
    EXPECT_TRUE(w.write(toJson(header("s"))));
    w.appendText(records({launch(0, true), launch(1, false)}));
    EXPECT_TRUE(w.flush());
    RunCounts counts;
    counts.launchesSeen = 5;
    counts.launchesRecorded = 2;
    counts.launchesProfiled = 1;
    counts.warnings = {"a warning"};
    EXPECT_TRUE(w.write(summaryRecord(counts)));
  }
  MeasuredFile file = loadMeasuredFile(path);
  EXPECT_EQ(file.header.pid, 4242);
  EXPECT_EQ(file.header.rank, 3);
  ASSERT_EQ(file.launches.size(), 2u); // the summary record is not a launch
  // The run's own warnings, from the summary record, reach the reader.
  EXPECT_EQ(file.warnings, (std::vector<std::string>{path + ": the run warned: a warning"}));
  const Launch &l = file.launches[0];
  EXPECT_EQ(l.grid, (Dim3{4096, 1, 1}));
  EXPECT_EQ(l.args.at(0).value, 1048576);
  EXPECT_EQ(l.nvtx, (std::vector<std::string>{"outer", "inner"}));
  EXPECT_EQ(l.metrics.at("dram__bytes_read.sum"), 8388608);
  EXPECT_EQ(measuredFlops(l.metrics).fp32, std::nullopt); // fmul/ffma missing: unknown, not zero

  FileSummary s = summarizeMeasuredFile(path);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.counts.launchesSeen, 5);
  EXPECT_EQ(s.counts.launchesRecorded, 2);
  EXPECT_EQ(s.counts.launchesProfiled, 1);
  EXPECT_EQ(s.counts.warnings, (std::vector<std::string>{"a warning"}));
}

TEST(MeasuredOutput, AProcessThatDiedLeavesAReadableFile) {
  TempDir dir;
  std::string path = dir.file("roofcheck.1.measured.jsonl");
  {
    JsonLinesWriter w;
    ASSERT_TRUE(w.open(path));
    w.write(toJson(header("s")));
    w.appendText(records({launch(0, true), launch(1, false)}));
    w.flush();
  }
  { // a record cut short by the crash
    std::ofstream out(path, std::ios::app);
    out << R"({"record": "launch", "index": 2, "na)";
  }
  FileSummary s = summarizeMeasuredFile(path);
  EXPECT_FALSE(s.complete);
  EXPECT_EQ(s.counts.launchesRecorded, 2);
  EXPECT_EQ(s.counts.launchesProfiled, 1);
  EXPECT_EQ(loadMeasuredFile(path).warnings.size(), 1u);
}

TEST(MeasuredOutput, WriterReportsWhatItCannotCreate) {
  JsonLinesWriter w;
  EXPECT_FALSE(w.open("/nonexistent-dir/x.jsonl"));
  EXPECT_NE(w.error().find("cannot create"), std::string::npos);
  EXPECT_FALSE(w.write(Json::object()));
}

TEST(MeasuredOutput, CloseSaysWhenTheLastRecordsWereNotWritten) {
  if (::access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "no /dev/full";
  JsonLinesWriter w;
  ASSERT_TRUE(w.open("/dev/full"));
  w.append(Json::object()); // buffered: only close() writes it, onto a full device
  EXPECT_FALSE(w.close());
  EXPECT_NE(w.error().find("write failed"), std::string::npos) << w.error();
  EXPECT_TRUE(w.close()); // nothing left open
}

TEST(MeasuredOutput, SessionFilesAreTheOnesWithTheSessionInTheirHeader) {
  TempDir dir;
  for (auto [name, session] : {std::pair{"roofcheck.10.measured.jsonl", "mine"},
                               std::pair{"roofcheck.rank1.11.measured.jsonl", "mine"},
                               std::pair{"roofcheck.12.measured.jsonl", "other"}}) {
    JsonLinesWriter w;
    ASSERT_TRUE(w.open(dir.file(name)));
    w.write(toJson(header(session)));
  }
  std::ofstream(dir.file("notes.txt")) << "x";
  auto files = findSessionFiles(dir.path(), "mine");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0], dir.file("roofcheck.10.measured.jsonl"));
  EXPECT_EQ(files[1], dir.file("roofcheck.rank1.11.measured.jsonl"));
  EXPECT_TRUE(findSessionFiles(dir.file("missing"), "mine").empty());
  EXPECT_THROW(findSessionFiles(dir.file("notes.txt"), "mine"), Error); // not a folder: never "no files"
}

TEST(MeasuredOutput, SummaryLine) {
  EXPECT_EQ(summaryLine({}), "0 launches seen, 0 recorded, 0 profiled, no measured file written (the program "
                             "initialised no CUDA context)");
  FileSummary f;
  f.path = "/o/roofcheck.1.measured.jsonl";
  f.counts = {12, 9, 3, 0, {}};
  f.complete = true;
  EXPECT_EQ(summaryLine({f}), "12 launches seen, 9 recorded, 3 profiled, wrote /o/roofcheck.1.measured.jsonl");
  f.complete = false;
  f.counts.activityRecordsDropped = 2;
  EXPECT_EQ(summaryLine({f}), "12 launches seen, 9 recorded, 3 profiled, 2 activity records dropped, wrote "
                              "/o/roofcheck.1.measured.jsonl (the process ended early)");
}

TEST(MeasuredOutput, AppendedRecordsReachTheFileOnFlush) {
  TempDir dir;
  std::string path = dir.file("roofcheck.2.measured.jsonl");
  JsonLinesWriter w;
  ASSERT_TRUE(w.open(path));
  w.append(toJson(header("s")));
  MeasuredRecordWriter writer;
  std::string text;
  writer.append(text, launch(0, false));
  w.appendText(text);
  EXPECT_EQ(std::filesystem::file_size(path), 0u);
  EXPECT_TRUE(w.flush());
  EXPECT_EQ(loadMeasuredFile(path).launches.size(), 1u);
  text.clear();
  writer.append(text, launch(1, false));
  w.appendText(text);
  w.close(); // flushes
  EXPECT_EQ(loadMeasuredFile(path).launches.size(), 2u);
}

TEST(MeasuredOutput, SummaryOfACompleteFileComesFromItsLastLine) {
  TempDir dir;
  std::string path = dir.file("roofcheck.3.measured.jsonl");
  {
    JsonLinesWriter w;
    ASSERT_TRUE(w.open(path));
    w.append(toJson(header("s")));
    std::vector<Launch> launches;
    for (int i = 0; i < 5; ++i)
      launches.push_back(launch(i, i == 0));
    w.appendText(records(launches));
    RunCounts counts;
    counts.launchesSeen = 9;
    counts.launchesRecorded = 5;
    counts.launchesProfiled = 1;
    w.append(summaryRecord(counts));
  }
  FileSummary s = summarizeMeasuredFile(path);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.pid, 4242);
  EXPECT_EQ(s.counts.launchesSeen, 9);
  EXPECT_EQ(s.counts.launchesRecorded, 5);
  // A file whose header is not a measured header is an error even with a summary.
  std::string bad = dir.file("roofcheck.4.measured.jsonl");
  std::ofstream(bad) << "{\"schema\": \"roofcheck.static/1\"}\n" << summaryRecord(RunCounts{}).dump() << "\n";
  EXPECT_THROW(summarizeMeasuredFile(bad), Error);
}
