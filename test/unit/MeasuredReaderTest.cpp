// The streaming reader of measured files, and its quick path for launch records (core/src/LaunchFastPath.h).
#include "TestSupport.h"

#include "LaunchFastPath.h"
#include "roofcheck/Contracts.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace roofcheck;
using roofcheck::testing::errorOf;
using roofcheck::testing::TempDir;

namespace {

void writeText(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

std::string headerLine() {
  MeasuredHeader h;
  h.pid = 42;
  h.devices.push_back(DeviceInfo{0, "NVIDIA H200", "GPU-aaaa", "9.0", 132, 62914560, 150754820096});
  return toJson(h).dump() + "\n";
}

Launch launchNumbered(int64_t i, const std::string &name = "scale(float*, int)") {
  Launch l;
  l.index = i;
  l.name = name;
  l.mangled = "_Z5scalePfi";
  l.grid = {1024, 1, 1};
  l.block = {256, 1, 1};
  l.args.push_back({1, 8, 4, "00000001", 16777216});
  l.durationNs = 1000 + i;
  l.profiled = i % 7 == 0;
  if (l.profiled)
    l.metrics = {{"dram__bytes_read.sum", 4096.0 * i}, {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 2.5}};
  return l;
}

/// JSON as a value: key order, the number's type (7 or 7.0) and null members (an absent optional) aside.
nlohmann::json normalised(const Json &j) {
  nlohmann::json out = nlohmann::json::parse(j.dump());
  std::function<void(nlohmann::json &)> dropNulls = [&](nlohmann::json &v) {
    if (v.is_object())
      for (auto it = v.begin(); it != v.end();)
        it = it->is_null() ? v.erase(it) : (dropNulls(*it), std::next(it));
    else if (v.is_array())
      for (nlohmann::json &e : v)
        dropNulls(e);
  };
  dropNulls(out);
  return out;
}

/// The quick path agrees with what the file says, field for field: the written form of the launch it read
/// is the record, except for fields the record leaves to their defaults.
void expectSameLaunch(const std::string &line, const std::string &where) {
  std::optional<Launch> quick = parseLaunchQuickly(line);
  ASSERT_TRUE(quick) << where;
  nlohmann::json record = normalised(Json::parse(line)), read = normalised(toJson(*quick));
  for (const auto &[key, value] : record.items())
    if (key != "record")
      EXPECT_EQ(read.at(key), value) << where << ": " << key;
}

} // namespace

TEST(MeasuredReader, StreamsChunksInOrderWithTheirLineNumbers) {
  TempDir dir;
  // More than three 1 MiB chunks, and one record longer than a chunk.
  std::string text = headerLine();
  const int count = 12000;
  for (int i = 0; i < count; ++i)
    text += toJson(launchNumbered(i, i == 5000 ? std::string(3 << 20, 'k') : "scale(float*, int)")).dump() + "\n";
  writeText(dir.file("long.jsonl"), text);
  MeasuredReader reader(dir.file("long.jsonl"));
  EXPECT_EQ(reader.header().pid, 42);
  int64_t next = 0, profiled = 0;
  reader.forEachLaunch([&](const Launch &l) {
    EXPECT_EQ(l.index, next++);
    profiled += l.profiled;
    if (l.index == 5000)
      EXPECT_EQ(l.name.size(), size_t(3) << 20);
  });
  EXPECT_EQ(next, count);
  EXPECT_EQ(profiled, (count + 6) / 7);
  EXPECT_TRUE(reader.warnings().empty());

  // A bad record deep in the file is named by its line (the header is line 1), blank lines counted.
  std::string bad = headerLine() + "\n";
  for (int i = 0; i < count; ++i)
    bad += (i == 9000 ? std::string("{\"record\":\"launch\",\"index\":-1}") : toJson(launchNumbered(i)).dump()) + "\n";
  writeText(dir.file("bad.jsonl"), bad);
  MeasuredReader badReader(dir.file("bad.jsonl"));
  EXPECT_EQ(errorOf([&] { badReader.forEachLaunch([](const Launch &) {}); }),
            dir.file("bad.jsonl") + ":9003: index: must not be negative, found -1");

  // A crash mid-write: the last record is cut, and only that is a warning.
  writeText(dir.file("cut.jsonl"), text.substr(0, text.size() - 20));
  MeasuredReader cutReader(dir.file("cut.jsonl"));
  int64_t seen = 0;
  cutReader.forEachLaunch([&](const Launch &) { ++seen; });
  EXPECT_EQ(seen, count - 1);
  ASSERT_EQ(cutReader.warnings().size(), 1u);
  EXPECT_EQ(cutReader.warnings()[0],
            dir.file("cut.jsonl") + ":" + std::to_string(count + 1) + ": truncated last record skipped (the program "
                                                                      "stopped mid-write)");
}

TEST(MeasuredReader, QuickPathReadsWhatTheRecordsSay) {
  // Every launch record of the recorded and hand-made test inputs: the quick path takes nearly all of them,
  // and reads each exactly as written.
  size_t launches = 0, quick = 0;
  for (const char *folder : {"test/report/Inputs", "docs/tutorial/measured"})
    for (const auto &entry : std::filesystem::directory_iterator(std::string(ROOFCHECK_SOURCE_DIR) + "/" + folder)) {
      if (entry.path().extension() != ".jsonl")
        continue;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        Json record = Json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.is_object() || record.value("record", "") != "launch")
          continue;
        ++launches;
        if (parseLaunchQuickly(line)) {
          ++quick;
          expectSameLaunch(line, entry.path().string() + ":" + std::to_string(number));
        }
      }
    }
  EXPECT_GT(launches, 300u);
  EXPECT_GE(quick * 100, launches * 95) << quick << " of " << launches;
}

TEST(MeasuredReader, QuickPathLeavesEverythingElseToTheCheckedPath) {
  std::string good = toJson(launchNumbered(7)).dump();
  expectSameLaunch(good, "good");
  auto edited = [&](const std::function<void(Json &)> &edit) {
    Json j = Json::parse(good);
    edit(j);
    return j.dump();
  };
  const std::vector<std::pair<std::string, std::string>> others = {
      {"another record", headerLine()},
      {"negative index", edited([](Json &j) { j["index"] = -1; })},
      {"a zero in the grid", edited([](Json &j) { j["grid"] = Json::array({4, 0, 1}); })},
      {"two numbers in the block", edited([](Json &j) { j["block"] = Json::array({4, 1}); })},
      {"no profiled", edited([](Json &j) { j.erase("profiled"); })},
      {"no record kind", edited([](Json &j) { j.erase("record"); })},
      {"a fractional index", edited([](Json &j) { j["index"] = 5.5; })},
      {"a name that is a number", edited([](Json &j) { j["name"] = 3; })},
      {"a negative metric", edited([](Json &j) { j["metrics"]["dram__bytes_read.sum"] = -1; })},
      {"a metric that is text", edited([](Json &j) { j["metrics"]["dram__bytes_read.sum"] = "1"; })},
      {"an argument without hex", edited([](Json &j) { j["args"][0].erase("hex"); })},
      {"zero replay passes", edited([](Json &j) { j["replay_passes"] = 0; })},
      {"an object where none is known", edited([](Json &j) { j["extra"] = Json::object(); })},
      {"a repeated field", good.substr(0, good.size() - 1) + ",\"index\":8}"},
      {"cut short", good.substr(0, good.size() - 10)},
      {"trailing text", good + " x"},
      // Beyond what its scanner reads, the quick path gives up too, even where the JSON is good.
      {"an escape in the name", edited([](Json &j) { j["name"] = "say \"hi\""; })},
      {"a name outside ASCII", edited([](Json &j) { j["name"] = "caf\u00e9"; })},
  };
  // Text edits of the same line, for what a JSON writer would never write.
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string line = good;
    size_t at = line.find(from);
    return at == std::string::npos ? std::string("(not found: ") + from + ")" : line.replace(at, from.size(), to);
  };
  const std::pair<std::string, std::string> malformed[] = {
      {"a leading zero", replaced("\"index\":7", "\"index\":07")},
      {"an index past 64 bits", replaced("\"index\":7", "\"index\":18446744073709551616")},
      {"an exponent without digits", replaced("\"index\":7", "\"index\":7e")},
      {"a fraction without digits", replaced("\"index\":7", "\"index\":7.")},
      {"a bare word", replaced("\"profiled\":true", "\"profiled\":yes")},
      {"a comma too many", replaced("\"index\":7", "\"index\":7,")},
  };
  for (const auto &[what, line] : malformed) {
    EXPECT_FALSE(parseLaunchQuickly(line)) << what;
    EXPECT_TRUE(Json::parse(line, nullptr, false).is_discarded() || what == "an index past 64 bits") << what;
  }
  // White space anywhere JSON allows it reads the same.
  expectSameLaunch(Json::parse(good).dump(2), "indented");
  for (const auto &[what, line] : others)
    EXPECT_FALSE(parseLaunchQuickly(line)) << what;
  // Fields the checked path ignores are ignored here too.
  std::optional<Launch> commented = parseLaunchQuickly(edited([](Json &j) { j["comment"] = "from a later version"; }));
  ASSERT_TRUE(commented);
  EXPECT_EQ(toJson(*commented).dump(), toJson(*parseLaunchQuickly(good)).dump());
}
