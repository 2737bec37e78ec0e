// measured/2's records: a kernel record once per kernel, launch records that name it (MeasuredRecords.h),
// read back by core's reader exactly as they were written.
#include "TestSupport.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredRecords.h"

#include <gtest/gtest.h>

#include <climits>

using namespace roofcheck;
using roofcheck::testing::errorOf;

namespace {

std::string headerLine() {
  MeasuredHeader h;
  h.pid = 7;
  h.devices.push_back(DeviceInfo{0, "NVIDIA H200", "GPU-aaaa", "9.0", 132, 62914560, 150754820096});
  return toJson(h).dump() + "\n";
}

Launch scale(int64_t index) {
  Launch l;
  l.index = index;
  l.name = "scale(float*, int)";
  l.mangled = "_Z5scalePfi";
  l.stream = 7;
  l.grid = {4096, 1, 1};
  l.block = {256, 1, 1};
  l.registers = 16;
  l.args = {{0, 0, 8, "0000a012347f0000", std::nullopt}, {1, 8, 4, "00001000", 1048576}};
  l.durationNs = 5120;
  return l;
}

std::string written(const std::vector<Launch> &launches) {
  MeasuredRecordWriter writer;
  std::string text;
  for (const Launch &l : launches)
    writer.append(text, l);
  return text;
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

} // namespace

TEST(MeasuredRecords, EveryFieldReadsBackAsWritten) {
  Launch extremes = scale(INT64_MAX);
  extremes.device = -1;
  extremes.context = UINT64_MAX;
  extremes.grid = {2147483647, 65535, 65535};
  extremes.cluster = {2, 1, 1};
  extremes.sharedDynamic = 232448;
  extremes.sharedStatic = 49152;
  extremes.registers = 255;
  extremes.args = {{0, 0, 8, "0000200000000000", std::nullopt},
                   {1, 8, 8, "ffffffffffffffff", -1},
                   {2, 16, 4, "00000080", INT32_MIN},
                   {3, 20, 2, "3412", std::nullopt},
                   {5, 24, 3, "abcdef", std::nullopt}};
  extremes.nvtx = {"", "step \"1\" \\ caf\xc3\xa9 \xe2\x82\xac", "\x1f"};
  extremes.durationNs = 0;
  extremes.profiled = true;
  extremes.replayPasses = 9;
  extremes.metrics = {{"a.sum", 0.0},  {"b.sum", 1e20},           {"c.sum", 1.5e-7}, {"d.sum", 123456789.125},
                      {"e.sum", 0.1},  {"f.sum", 6.02214076e23},  {"g.sum", 5e-324}, {"we\"ird", 4.0}};
  extremes.sampled = {{"dram__bytes_read.sum", 1.5e9}, {"we\"ird", 0.25}};
  Launch quoted = scale(1);
  quoted.name = "k<\"quoted\" \\\\ back>(int)\t\n\x01";
  quoted.mangled = "_Z1kv\x7f";
  quoted.sampled = {{"dram__bytes_read.sum", 123.5}, {"dram__bytes_write.sum", 0.0}}; // a launch line of plain ASCII
  quoted.sampledShared = true;
  Launch plain = scale(2);
  plain.args.clear();
  plain.durationNs = std::nullopt;
  std::vector<Launch> launches = {extremes, quoted, plain};
  MeasuredFile file = parseMeasuredLines(headerLine() + written(launches), "m.jsonl");
  ASSERT_EQ(file.launches.size(), launches.size());
  for (size_t i = 0; i < launches.size(); ++i)
    EXPECT_EQ(file.launches[i], launches[i]) << "launch " << i;
  EXPECT_TRUE(file.warnings.empty());
}

TEST(MeasuredRecords, AKernelIsWrittenOnceAndLaunchesStaySmall) {
  std::string longName = "void at::native::vectorized_elementwise_kernel<4, " + std::string(2000, 'T') + ">(int)";
  Launch first = scale(0), second = scale(1);
  first.name = second.name = longName;
  first.profiled = true; // a profiled launch with the activity record's registers
  Launch otherRegisters = scale(2);
  otherRegisters.name = longName;
  otherRegisters.registers = 32; // the same name from another module
  Launch graph = scale(3);
  graph.name = longName;
  graph.registers = 32;
  graph.args.clear(); // a graph's kernel: no arguments, any layout fits
  std::vector<std::string> records = lines(written({first, second, otherRegisters, graph}));
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(records[0].substr(0, 27), R"({"record":"kernel","id":0,")");
  EXPECT_EQ(records[1], R"({"record":"launch","index":0,"kernel":0,"device":0,"context":0,"stream":7,)"
                        R"("grid":[4096,1,1],"block":[256,1,1],"args":["0000a012347f0000",1048576],)"
                        R"("duration_ns":5120,"profiled":true})");
  EXPECT_EQ(records[2].find("\"kernel\":0,"), records[1].find("\"kernel\":0,"));
  EXPECT_EQ(records[3].substr(0, 27), R"({"record":"kernel","id":1,")");
  EXPECT_NE(records[3].find(R"("registers":32,"shared_static":0,"params":[[0,8],[8,4]]})"), std::string::npos);
  EXPECT_NE(records[4].find("\"kernel\":1,"), std::string::npos);
  EXPECT_NE(records[5].find("\"kernel\":1,"), std::string::npos) << "the graph launch fits the last such kernel";
  for (size_t i : {1, 2, 4, 5})
    EXPECT_LE(records[i].size(), 200u) << records[i];
}

TEST(MeasuredRecords, ArgumentsAreValuesHexOrNull) {
  Launch l = scale(0);
  l.args = {{1, 8, 4, "00001000", 1048576},                      // an integer: its value
            {2, 16, 8, "0000a012347f0000", std::nullopt},         // a pointer: its bytes, no value
            {3, 24, 4097, std::string(8194, 'a'), std::nullopt},  // too large to record
            {4, 4124, 4, "ffffffff", 7}};                         // a value its bytes do not hold: the bytes
  std::vector<std::string> records = lines(written({l}));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_NE(records[0].find(R"("params":[null,[8,4],[16,8],[24,4097],[4124,4]])"), std::string::npos) << records[0];
  EXPECT_NE(records[1].find(R"("args":[null,1048576,"0000a012347f0000",null,"ffffffff"])"), std::string::npos)
      << records[1];
  MeasuredFile file = parseMeasuredLines(headerLine() + records[0] + "\n" + records[1] + "\n", "m.jsonl");
  ASSERT_EQ(file.launches.size(), 1u);
  std::vector<KernelArgument> expected = {{1, 8, 4, "00001000", 1048576},
                                          {2, 16, 8, "0000a012347f0000", std::nullopt},
                                          {4, 4124, 4, "ffffffff", std::nullopt}};
  EXPECT_EQ(file.launches[0].args, expected);
  // Nothing recorded at the end is left out: a launch of only large arguments has none.
  l.args = {{0, 0, 4097, std::string(8194, 'a'), std::nullopt}};
  EXPECT_EQ(lines(written({l}))[1].find("args"), std::string::npos);
  EXPECT_EQ(littleEndianHex(-2, 2), "feff");
  EXPECT_EQ(littleEndianHex(10, 4), "0a000000");
}

TEST(MeasuredRecords, LargeArgumentsAreRecordedOncePerValue) {
  // A by-value struct of 88 bytes, as CUTLASS's Params: each distinct value in an argument record of its
  // own, which launches name.
  auto withParams = [](int64_t index, const std::string &hex) {
    Launch l = scale(index);
    l.args = {{0, 0, 8, "0000a012347f0000", std::nullopt}, {1, 8, 88, hex, std::nullopt}};
    return l;
  };
  const std::string a(176, 'a'), b(176, 'b'), c(176, 'c');
  Launch other = withParams(3, b);
  other.name = "gemm(Params)";
  other.mangled = "_Z4gemm6Params";
  std::string text = written({withParams(0, a), withParams(1, a), withParams(2, c), other});
  std::vector<std::string> records = lines(text);
  ASSERT_EQ(records.size(), 9u) << text;
  EXPECT_EQ(records[1], R"({"record":"argument","id":0,"bytes":")" + a + R"("})");
  EXPECT_NE(records[2].find(R"("args":["0000a012347f0000",{"argument":0}])"), std::string::npos) << records[2];
  EXPECT_NE(records[3].find(R"("args":["0000a012347f0000",{"argument":0}])"), std::string::npos) << records[3];
  EXPECT_EQ(records[4].substr(0, 37), R"({"record":"argument","id":1,"bytes":")");
  EXPECT_NE(records[5].find(R"({"argument":1}])"), std::string::npos) << records[5];
  EXPECT_EQ(records[6].substr(0, 27), R"({"record":"kernel","id":1,")");
  EXPECT_EQ(records[7].substr(0, 37), R"({"record":"argument","id":2,"bytes":")");
  for (size_t i : {2, 3, 5, 8})
    EXPECT_LE(records[i].size(), 200u) << records[i];
  MeasuredFile file = parseMeasuredLines(headerLine() + text, "m.jsonl");
  ASSERT_EQ(file.launches.size(), 4u);
  EXPECT_EQ(file.launches[1], withParams(1, a));
  EXPECT_EQ(file.launches[2], withParams(2, c));
  EXPECT_EQ(file.launches[3], other);

  // A kernel's argument records hold so many bytes; later values are not recorded, a value already
  // recorded (by any kernel) still is.
  const int fit = static_cast<int>(ArgumentBytesPerKernel / 88);
  std::vector<Launch> many;
  for (int i = 0; i < fit + 2; ++i)
    many.push_back(withParams(i, littleEndianHex(i, 88)));
  many.push_back(withParams(fit + 2, littleEndianHex(0, 88)));
  records = lines(written(many));
  ASSERT_EQ(records.size(), 1u + fit + many.size());
  EXPECT_NE(records.back().find(R"({"argument":0}])"), std::string::npos) << records.back();
  file = parseMeasuredLines(headerLine() + written(many), "m.jsonl");
  ASSERT_EQ(file.launches.size(), many.size());
  EXPECT_EQ(file.launches[fit - 1], many[fit - 1]);
  Launch unrecorded = many[fit];
  unrecorded.args.pop_back();
  EXPECT_EQ(file.launches[fit], unrecorded);
  EXPECT_EQ(file.launches.back(), many.back());
}

TEST(MeasuredRecords, ErrorsNameTheLine) {
  std::vector<std::string> records = lines(written({scale(0)}));
  const std::string &kernel = records[0], &launch = records[1];
  auto errorFor = [&](const std::string &body) { return errorOf([&] { parseMeasuredLines(headerLine() + body, "m.jsonl"); }); };
  EXPECT_EQ(errorFor(launch + "\n"), "m.jsonl:2: the launch names kernel 0, which no kernel record before it describes");
  EXPECT_EQ(errorFor(kernel + "\n" + kernel + "\n"), "m.jsonl:3: id: kernel 0 is described twice");
  Json extra = Json::parse(launch);
  extra["args"].push_back(5);
  EXPECT_EQ(errorFor(kernel + "\n" + extra.dump() + "\n"), "m.jsonl:3: args[2]: kernel 0 has no such parameter");
  Json pointerAsText = Json::parse(launch);
  pointerAsText["args"][1] = "00";
  EXPECT_EQ(errorFor(kernel + "\n" + pointerAsText.dump() + "\n"),
            "m.jsonl:3: args[1]: 2 hex digits for a parameter of 4 bytes");
  Json noKernel = Json::parse(launch);
  noKernel.erase("kernel");
  EXPECT_EQ(errorFor(kernel + "\n" + noKernel.dump() + "\n"), "m.jsonl:3: kernel: missing");
  // Argument records: named before they are written, written twice, not hex, or not the parameter's size.
  Launch large = scale(0);
  large.args = {{0, 0, 72, std::string(144, 'e'), std::nullopt}};
  std::vector<std::string> withArgument = lines(written({large}));
  const std::string &kernel72 = withArgument[0], &argument = withArgument[1], &launch72 = withArgument[2];
  EXPECT_EQ(errorFor(kernel72 + "\n" + launch72 + "\n"),
            "m.jsonl:3: args[0]: the launch names argument 0, which no argument record before it holds");
  EXPECT_EQ(errorFor(kernel72 + "\n" + argument + "\n" + argument + "\n"),
            "m.jsonl:4: id: argument 0 is recorded twice");
  Json upper = Json::parse(argument);
  upper["bytes"] = "AB";
  EXPECT_EQ(errorFor(upper.dump() + "\n"), "m.jsonl:2: bytes: must be bytes in lower-case hex, two digits each");
  Json shorter = Json::parse(argument);
  shorter["bytes"] = "abcd";
  EXPECT_EQ(errorFor(kernel72 + "\n" + shorter.dump() + "\n" + launch72 + "\n"),
            "m.jsonl:4: args[0]: 4 hex digits for a parameter of 72 bytes");
  Json badReference = Json::parse(launch72);
  badReference["args"][0] = Json{{"argument", -1}};
  EXPECT_EQ(errorFor(kernel72 + "\n" + argument + "\n" + badReference.dump() + "\n"),
            "m.jsonl:4: args: must hold integers, hex strings, {\"argument\": id} or null");
  Json badParams = Json::parse(kernel);
  badParams["params"] = Json::array({Json::array({0})});
  EXPECT_EQ(errorFor(badParams.dump() + "\n"),
            "m.jsonl:2: params: must be an array of [offset, size] pairs of non-negative integers, or null");
}
