// The streaming reader of measured files, and its quick path for launch records (core/src/LaunchFastPath.h).
#include "TestSupport.h"

#include "LaunchFastPath.h"
#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredRecords.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

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

/// A launch record line as the shim writes it (kernel 0), without its newline; the arguments in references
/// left to argument records.
std::string launchLine(const Launch &l, const std::vector<ArgumentReference> &references = {}) {
  Launch written = l;
  std::vector<std::optional<int64_t>> records; // by parameter index
  for (const ArgumentReference &r : references) {
    written.args.push_back({r.index, 0, RecordedArgumentBytes + 1, "", std::nullopt}); // its place only
    records.resize(std::max(records.size(), static_cast<size_t>(r.index) + 1));
    records[static_cast<size_t>(r.index)] = r.record;
  }
  std::sort(written.args.begin(), written.args.end(),
            [](const KernelArgument &a, const KernelArgument &b) { return a.index < b.index; });
  std::string line;
  appendLaunchRecord(line, 0, written, records);
  line.pop_back();
  return line;
}

/// The quick path agrees with what the record says, field for field: written again, the launch it read is
/// the record, except for fields the record spells out at their defaults.
void expectSameLaunch(const std::string &line, const std::string &where) {
  int64_t kernel = -1;
  std::vector<ArgumentReference> references;
  std::optional<Launch> quick = parseLaunchQuickly(line, kernel, references);
  ASSERT_TRUE(quick) << where;
  Json record = Json::parse(line), read = Json::parse(launchLine(*quick, references));
  EXPECT_EQ(kernel, record.at("kernel").get<int64_t>()) << where;
  for (const auto &[key, value] : record.items())
    if (key != "kernel" && !value.is_null())
      EXPECT_EQ(read.value(key, Json()), value) << where << ": " << key;
}

} // namespace

TEST(MeasuredReader, StreamsChunksInOrderWithTheirLineNumbers) {
  TempDir dir;
  // More than three 1 MiB chunks, and one record longer than a chunk.
  std::string text = headerLine();
  const int count = 12000;
  MeasuredRecordWriter writer;
  for (int i = 0; i < count; ++i) // two kernel records: before launches 0 and 5000
    writer.append(text, launchNumbered(i, i == 5000 ? std::string(3 << 20, 'k') : "scale(float*, int)"));
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
  MeasuredRecordWriter badWriter;
  for (int i = 0; i < count; ++i) {
    if (i == 9000)
      bad += "{\"record\":\"launch\",\"index\":-1}\n";
    else
      badWriter.append(bad, launchNumbered(i));
  }
  writeText(dir.file("bad.jsonl"), bad);
  MeasuredReader badReader(dir.file("bad.jsonl"));
  EXPECT_EQ(errorOf([&] { badReader.forEachLaunch([](const Launch &) {}); }),
            dir.file("bad.jsonl") + ":9004: index: must not be negative, found -1");

  // A crash mid-write: the last record is cut, and only that is a warning.
  writeText(dir.file("cut.jsonl"), text.substr(0, text.size() - 20));
  MeasuredReader cutReader(dir.file("cut.jsonl"));
  int64_t seen = 0;
  cutReader.forEachLaunch([&](const Launch &) { ++seen; });
  EXPECT_EQ(seen, count - 1);
  ASSERT_EQ(cutReader.warnings().size(), 1u);
  EXPECT_EQ(cutReader.warnings()[0],
            dir.file("cut.jsonl") + ":" + std::to_string(count + 3) + ": truncated last record skipped (the program "
                                                                      "stopped mid-write)");
}

TEST(MeasuredReader, OldFilesReadTheSameWrittenAgainAsKernelRecords) {
  // Every measured/1 file among the test inputs and the tutorial, written again as measured/2: the same
  // launches come back, and the quick path reads nearly every launch record, each exactly as written.
  size_t launches = 0, quick = 0;
  for (const char *folder : {"test/report/Inputs", "docs/tutorial/measured"})
    for (const auto &entry : std::filesystem::directory_iterator(std::string(ROOFCHECK_SOURCE_DIR) + "/" + folder)) {
      if (entry.path().extension() != ".jsonl")
        continue;
      MeasuredFile old;
      try {
        old = loadMeasuredFile(entry.path().string());
      } catch (const Error &) {
        continue; // an input made to be refused
      }
      std::string text = toJson(old.header).dump() + "\n";
      MeasuredRecordWriter writer;
      for (const Launch &l : old.launches)
        writer.append(text, l);
      MeasuredFile again = parseMeasuredLines(text, "again");
      ASSERT_EQ(again.launches.size(), old.launches.size()) << entry.path();
      for (size_t i = 0; i < old.launches.size(); ++i) {
        // A large argument comes back as it was, or not at all (its kernel had its argument records).
        auto large = [](const KernelArgument &a) { return a.size > RecordedArgumentBytes; };
        for (const KernelArgument &a : again.launches[i].args)
          if (large(a))
            EXPECT_NE(std::find(old.launches[i].args.begin(), old.launches[i].args.end(), a),
                      old.launches[i].args.end())
                << entry.path() << ": launch " << i;
        std::erase_if(old.launches[i].args, large);
        std::erase_if(again.launches[i].args, large);
        EXPECT_TRUE(again.launches[i] == old.launches[i]) << entry.path() << ": launch " << i;
      }
      std::istringstream in(text);
      std::string line;
      while (std::getline(in, line)) {
        Json record = Json::parse(line);
        if (record.value("record", "") != "launch")
          continue;
        ++launches;
        int64_t kernel = 0;
        std::vector<ArgumentReference> references;
        if (parseLaunchQuickly(line, kernel, references)) {
          ++quick;
          expectSameLaunch(line, entry.path().string() + ": " + std::to_string(record["index"].get<int64_t>()));
        }
      }
    }
  EXPECT_GT(launches, 300u);
  EXPECT_GE(quick * 100, launches * 95) << quick << " of " << launches;
}

TEST(MeasuredReader, QuickPathLeavesEverythingElseToTheCheckedPath) {
  std::string good = launchLine(launchNumbered(7));
  expectSameLaunch(good, "good");
  auto edited = [&](const std::function<void(Json &)> &edit) {
    Json j = Json::parse(good);
    edit(j);
    return j.dump();
  };
  const std::vector<std::pair<std::string, std::string>> others = {
      {"another record", headerLine()},
      {"a kernel record", [] {
         MeasuredRecordWriter writer;
         std::string text;
         writer.append(text, launchNumbered(7));
         return text.substr(0, text.find('\n'));
       }()},
      {"negative index", edited([](Json &j) { j["index"] = -1; })},
      {"a zero in the grid", edited([](Json &j) { j["grid"] = Json::array({4, 0, 1}); })},
      {"two numbers in the block", edited([](Json &j) { j["block"] = Json::array({4, 1}); })},
      {"no kernel", edited([](Json &j) { j.erase("kernel"); })},
      {"no record kind", edited([](Json &j) { j.erase("record"); })},
      {"a fractional index", edited([](Json &j) { j["index"] = 5.5; })},
      {"a kernel that is text", edited([](Json &j) { j["kernel"] = "0"; })},
      {"a profiled that is a number", edited([](Json &j) { j["profiled"] = 1; })},
      {"a negative metric", edited([](Json &j) { j["metrics"]["dram__bytes_read.sum"] = -1; })},
      {"a metric that is text", edited([](Json &j) { j["metrics"]["dram__bytes_read.sum"] = "1"; })},
      {"an argument that is an object", edited([](Json &j) { j["args"][0] = Json::object(); })},
      {"an argument that is true", edited([](Json &j) { j["args"][0] = true; })},
      {"a reference without its id", edited([](Json &j) { j["args"][0] = Json{{"argument", nullptr}}; })},
      {"a negative reference", edited([](Json &j) { j["args"][0] = Json{{"argument", -1}}; })},
      {"a reference by another key", edited([](Json &j) { j["args"][0] = Json{{"record", 1}}; })},
      {"a reference with a second key", edited([](Json &j) { j["args"][0] = Json{{"argument", 1}, {"id", 2}}; })},
      {"zero replay passes", edited([](Json &j) { j["replay_passes"] = 0; })},
      {"an object where none is known", edited([](Json &j) { j["extra"] = Json::object(); })},
      {"a repeated field", good.substr(0, good.size() - 1) + ",\"index\":8}"},
      {"cut short", good.substr(0, good.size() - 10)},
      {"trailing text", good + " x"},
      // Beyond what its scanner reads, the quick path gives up too, even where the JSON is good.
      {"an escape in a range", edited([](Json &j) { j["nvtx"] = Json::array({"say \"hi\""}); })},
      {"a range outside ASCII", edited([](Json &j) { j["nvtx"] = Json::array({"caf\u00e9"}); })},
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
  int64_t kernel = 0;
  std::vector<ArgumentReference> references;
  for (const auto &[what, line] : malformed) {
    EXPECT_FALSE(parseLaunchQuickly(line, kernel, references)) << what;
    EXPECT_TRUE(Json::parse(line, nullptr, false).is_discarded() || what == "an index past 64 bits") << what;
  }
  // White space anywhere JSON allows it reads the same.
  expectSameLaunch(Json::parse(good).dump(2), "indented");
  for (const auto &[what, line] : others) {
    EXPECT_FALSE(parseLaunchQuickly(line, kernel, references)) << what;
    EXPECT_TRUE(references.empty()) << what;
  }
  // Arguments left to argument records: their references, in parameter order.
  std::string referring = edited([](Json &j) {
    j["args"][0] = Json{{"argument", 3}};
    j["args"].push_back(Json{{"argument", 0}});
  });
  ASSERT_TRUE(parseLaunchQuickly(referring, kernel, references));
  std::vector<ArgumentReference> expected = {{0, 3}, {static_cast<int>(Json::parse(good)["args"].size()), 0}};
  EXPECT_EQ(references, expected);
  expectSameLaunch(referring, "referring");
  // Fields the checked path ignores are ignored here too, and optional ones given as null are absent.
  std::optional<Launch> commented = parseLaunchQuickly(
      edited([](Json &j) {
        j["comment"] = "from a later version";
        j["cluster"] = nullptr;
      }),
      kernel, references);
  ASSERT_TRUE(commented);
  EXPECT_EQ(*commented, *parseLaunchQuickly(good, kernel, references));
}
