#include "TestSupport.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredFlops.h"
#include "roofcheck/MeasuredRecords.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace roofcheck;
using roofcheck::testing::errorOf;
using roofcheck::testing::TempDir;

namespace {

void writeText(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }


StaticDocument vectorAdd() {
  StaticDocument doc;
  doc.generator = "roofcheck-lint test";
  doc.arch = "sm_90";
  StaticKernel k;
  k.name = "vector_add";
  k.mangled = "_Z10vector_addPKfS0_Pfi";
  k.file = "examples/vector_add.cu";
  k.line = 12;
  k.params = {{0, "a", "const float *", 8}, {1, "b", "const float *", 8}, {2, "c", "float *", 8}, {3, "n", "int", 4}};
  k.flops.total = Quantity::of(Expr::parse("n"));
  k.flops.fp32 = Quantity::of(Expr::parse("n"));
  k.flops.fp64 = k.flops.fp16 = k.flops.bf16 = k.flops.tensor = k.flops.special = Quantity::of(Expr::integer(0));
  k.bytes.read = Quantity::of(Expr::parse("8 * n"));
  k.bytes.write = Quantity::of(Expr::parse("4 * n"));
  k.bytes.ideal = Quantity::of(Expr::parse("12 * n"));
  k.bytes.predicted = Quantity::of(Expr::parse("12 * n"));
  k.intensity.ideal = Quantity::of(Expr::parse("n / (12.0 * n)"));
  k.intensity.predicted = Quantity::unknown();
  k.accesses.push_back({"c", "examples/vector_add.cu", 14, 5, "store", 4, 4.0, true});
  k.unknowns.push_back({"data-dependent loop", "examples/vector_add.cu", 20, 3});
  doc.kernels.push_back(k);
  return doc;
}

} // namespace

TEST(StaticContract, RoundTripsThroughAFile) {
  TempDir dir;
  StaticDocument doc = vectorAdd();
  saveStaticFile(dir.file("static.json"), doc);
  EXPECT_EQ(dir.entries(), 1u) << "the temporary file of the atomic write is gone";
  StaticDocument back = loadStaticFile(dir.file("static.json"));
  ASSERT_EQ(back.kernels.size(), 1u);
  const StaticKernel &k = back.kernels[0];
  EXPECT_EQ(k.mangled, "_Z10vector_addPKfS0_Pfi");
  EXPECT_EQ(k.params[3].name, "n");
  EXPECT_EQ(k.bytes.ideal.expr, "12 * n");
  EXPECT_EQ(k.bytes.ideal.value, std::nullopt);
  EXPECT_EQ(k.bytes.ideal.evaluate({{"n", Number(int64_t{1000})}}), 12000.0);
  EXPECT_FALSE(k.intensity.predicted.known());
  EXPECT_EQ(k.accesses[0].strideBytes, 4);
  EXPECT_EQ(k.accesses[0].coalesced, true);
  EXPECT_EQ(k.unknowns[0].reason, "data-dependent loop");
  EXPECT_EQ(toJson(back).dump(), toJson(doc).dump());
}

TEST(StaticContract, LibraryKernelsAreMarkedAndOlderFilesReadAsTheUsers) {
  StaticDocument doc = vectorAdd();
  Json json = toJson(doc);
  EXPECT_FALSE(json["kernels"][0].contains("library")) << "written only when true";
  EXPECT_FALSE(staticFromJson(json, "s.json").kernels[0].library);
  doc.kernels[0].library = true;
  json = toJson(doc);
  EXPECT_EQ(json["kernels"][0]["library"], true);
  EXPECT_TRUE(staticFromJson(json, "s.json").kernels[0].library);
  json["kernels"][0]["library"] = "yes";
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("library"), std::string::npos);
}

TEST(StaticContract, SpecialOperationsRoundTripAndOlderFilesHaveNone) {
  StaticDocument doc = vectorAdd();
  doc.kernels[0].flops.special = Quantity::of(Expr::parse("3 * n"));
  doc.kernels[0].flops.specialByOperation = {{"expf", Quantity::of(Expr::parse("2 * n"))},
                                             {"fdiv.f32", Quantity::of(Expr::parse("n"))}};
  Json json = toJson(doc);
  EXPECT_EQ(json["kernels"][0]["flops"]["special_operations"]["fdiv.f32"]["expr"], "n");
  StaticKernel back = staticFromJson(json, "s.json").kernels[0];
  ASSERT_EQ(back.flops.specialByOperation.size(), 2u);
  EXPECT_EQ(back.flops.specialByOperation.at("expf").expr, "2 * n");
  json["kernels"][0]["flops"].erase("special_operations");
  EXPECT_TRUE(staticFromJson(json, "s.json").kernels[0].flops.specialByOperation.empty());
  json["kernels"][0]["flops"]["special_operations"] = {{"expf", {{"expr", "-2"}, {"value", -2}}}};
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("special_operations.expf"), std::string::npos);
}

TEST(StaticContract, TensorFlopsBySourceTypeRoundTripAndOlderFilesHaveNone) {
  StaticDocument doc = vectorAdd();
  Json json = toJson(doc);
  EXPECT_FALSE(json["kernels"][0]["flops"].contains("tensor_by_type")) << "written only for tensor FLOPs";
  doc.kernels[0].flops.tensor = Quantity::of(Expr::parse("3 * n"), {{"n", Number(int64_t{64})}});
  doc.kernels[0].flops.tensorByType = {{"bf16", Quantity::of(Expr::parse("2 * n"), {{"n", Number(int64_t{64})}})},
                                       {"tf32", Quantity::of(Expr::parse("n"))}};
  json = toJson(doc);
  EXPECT_EQ(json["kernels"][0]["flops"]["tensor_by_type"]["bf16"]["expr"], "2 * n");
  EXPECT_EQ(json["kernels"][0]["flops"]["tensor_by_type"]["bf16"]["value"], 128.0);
  StaticKernel back = staticFromJson(json, "s.json").kernels[0];
  ASSERT_EQ(back.flops.tensorByType.size(), 2u);
  EXPECT_EQ(back.flops.tensorByType.at("bf16").value, 128.0);
  EXPECT_EQ(back.flops.tensorByType.at("tf32").expr, "n");
  EXPECT_EQ(toJson(StaticDocument{"", "", {back}}).dump(), toJson(StaticDocument{"", "", {doc.kernels[0]}}).dump());
  json["kernels"][0]["flops"].erase("tensor_by_type");
  EXPECT_TRUE(staticFromJson(json, "s.json").kernels[0].flops.tensorByType.empty());
  json["kernels"][0]["flops"]["tensor_by_type"] = {{"fp16", {{"expr", "-2"}, {"value", -2}}}};
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("tensor_by_type.fp16"), std::string::npos);
  json["kernels"][0]["flops"]["tensor_by_type"] = "bf16";
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("tensor_by_type"), std::string::npos);
}

TEST(StaticContract, QuantityValuesAreFilledWhenBound) {
  Quantity q = Quantity::of(Expr::parse("2 * N * N * N"), {{"N", Number(int64_t{1024})}});
  EXPECT_EQ(q.expr, "2 * N * N * N");
  EXPECT_EQ(q.value, 2147483648.0);
}

TEST(StaticContract, AQuantityWithoutAValueSaysWhy) {
  std::string why;
  Quantity q = Quantity::of(Expr::parse("4 * n / m - 8"));
  EXPECT_EQ(q.evaluate({{"n", Number(int64_t{4})}, {"m", Number(int64_t{1})}}, &why), 8.0);
  EXPECT_EQ(why, "");
  EXPECT_EQ(q.evaluate({}, &why), std::nullopt);
  EXPECT_EQ(why, "needs m, n");
  EXPECT_EQ(q.evaluate({{"n", Number(int64_t{1})}, {"m", Number(int64_t{1})}}, &why), std::nullopt);
  EXPECT_EQ(why, "negative (-4)");
  EXPECT_EQ(q.evaluate({{"n", Number(int64_t{1})}, {"m", Number(int64_t{0})}}, &why), std::nullopt);
  EXPECT_NE(why.find("division by zero"), std::string::npos) << why;
  EXPECT_EQ(Quantity::unknown().evaluate({}, &why), std::nullopt); // unknown: nothing to say beyond that
  EXPECT_EQ(why, "");
}

TEST(StaticContract, AQuantityKnownUnderATestHasNoValueWhereItFails) {
  std::string why;
  Quantity q = Quantity::of(Expr::parse("4 * n + 4 * table"), {}, Expr::parse("1 - table"));
  EXPECT_EQ(q.knownWhen, "1 - table");
  EXPECT_EQ(q.evaluate({{"n", Number(int64_t{10})}, {"table", Number(int64_t{0})}}, &why), 40.0);
  // Where the test fails the quantity is unknown, which the kernel's unknowns explain: no reason of its own.
  EXPECT_EQ(q.evaluate({{"n", Number(int64_t{10})}, {"table", Number(int64_t{1})}}, &why), std::nullopt);
  EXPECT_EQ(why, "");
  EXPECT_EQ(Quantity::of(Expr::parse("4 * n"), {}, Expr::parse("1 - table")).evaluate({{"n", Number(int64_t{10})}}, &why),
            std::nullopt);
  EXPECT_EQ(why, "needs table");
  EXPECT_EQ(Quantity::of(Expr::parse("4 * n"), {{"n", Number(int64_t{10})}, {"table", Number(int64_t{0})}},
                         Expr::parse("1 - table"))
                .value,
            40.0);
}

TEST(StaticContract, TestsOfQuantitiesAndUnknownsRoundTripAndOlderFilesHaveNone) {
  StaticDocument doc = vectorAdd();
  StaticKernel &k = doc.kernels[0];
  k.bytes.read = Quantity::of(Expr::parse("8 * n"), {}, Expr::parse("1 - ids"));
  k.unknowns[0].when = "ids";
  Json json = toJson(doc);
  EXPECT_EQ(json["kernels"][0]["bytes"]["read"]["known_when"], "1 - ids");
  EXPECT_EQ(json["kernels"][0]["unknowns"][0]["when"], "ids");
  EXPECT_FALSE(json["kernels"][0]["bytes"]["write"].contains("known_when"));
  StaticDocument back = staticFromJson(json, "test");
  EXPECT_EQ(back.kernels[0].bytes.read.knownWhen, "1 - ids");
  EXPECT_EQ(back.kernels[0].unknowns[0].when, "ids");
  EXPECT_EQ(namedSymbols(back.kernels[0]).count("ids"), 1u) << "a launch binds what the tests name";
  json["kernels"][0]["bytes"]["read"]["known_when"] = "1 -";
  EXPECT_NE(errorOf([&] { staticFromJson(json, "test"); }).find("known_when"), std::string::npos);
  json["kernels"][0]["bytes"]["read"].erase("known_when");
  json["kernels"][0]["unknowns"][0].erase("when");
  back = staticFromJson(json, "test");
  EXPECT_EQ(back.kernels[0].bytes.read.knownWhen, "");
  EXPECT_EQ(back.kernels[0].unknowns[0].when, "");
}

TEST(StaticContract, RejectsWrongSchemaAndNamesMissingFields) {
  Json json = toJson(vectorAdd());
  json["schema"] = "roofcheck.static/2";
  EXPECT_EQ(errorOf([&] { staticFromJson(json, "s.json"); }),
            "s.json: schema is \"roofcheck.static/2\", expected \"roofcheck.static/1\"");

  json = toJson(vectorAdd());
  json["kernels"][0]["flops"].erase("fp32");
  EXPECT_EQ(errorOf([&] { staticFromJson(json, "s.json"); }), "kernels[0].flops.fp32: missing");

  json = toJson(vectorAdd());
  json["kernels"][0]["bytes"]["read"]["expr"] = "8 * * n";
  EXPECT_EQ(errorOf([&] { staticFromJson(json, "s.json"); }),
            "kernels[0].bytes.read.expr: not an expression: column 5: unexpected '*'");

  json = toJson(vectorAdd());
  json["kernels"][0]["line"] = "twelve";
  EXPECT_EQ(errorOf([&] { staticFromJson(json, "s.json"); }), "kernels[0].line: must be an integer, found a string");

  json = toJson(vectorAdd());
  json["kernels"][0]["accesses"][0]["kind"] = "prefetch";
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("kernels[0].accesses[0].kind"), std::string::npos);
}

TEST(StaticContract, FileErrorsNameTheFile) {
  TempDir dir;
  EXPECT_NE(errorOf([&] { loadStaticFile(dir.file("missing.json")); }).find("missing.json: No such file"),
            std::string::npos);
  writeText(dir.file("empty.json"), "\n");
  EXPECT_NE(errorOf([&] { loadStaticFile(dir.file("empty.json")); }).find("empty file"), std::string::npos);
  writeText(dir.file("bad.json"), "{\"schema\": ");
  EXPECT_NE(errorOf([&] { loadStaticFile(dir.file("bad.json")); }).find("bad.json: invalid JSON"), std::string::npos);
  Json other = toJson(vectorAdd());
  other["kernels"][0].erase("mangled");
  writeText(dir.file("other.json"), other.dump());
  EXPECT_EQ(errorOf([&] { loadStaticFile(dir.file("other.json")); }),
            dir.file("other.json") + ": kernels[0].mangled: missing");
  EXPECT_NE(errorOf([&] { loadStaticFile("/tmp"); }).find("is a directory"), std::string::npos);
  // Found by fuzz-ceilings: a number no double holds is bad input, not an unexpected exception.
  writeText(dir.file("huge.json"), "{\"schema\": 1e999}");
  EXPECT_EQ(errorOf([&] { loadStaticFile(dir.file("huge.json")); }),
            dir.file("huge.json") + ": invalid JSON: number overflow parsing '1e999'");
}

namespace {

CeilingsDocument h200() {
  CeilingsDocument doc;
  doc.roofcheckVersion = "0.1.0";
  doc.measuredAt = "2026-11-30T02:00:00Z";
  doc.device = {0, "NVIDIA H200", "GPU-1234", "9.0", 132, 62914560, 150754820096};
  doc.driverVersion = "580.159.04";
  doc.cudaVersion = "13.0";
  Provenance p;
  p.kernel = "copy float4";
  p.parameters = {{"bytes", 4294967296}};
  p.repetitions = 50;
  p.median = 4.4e12;
  p.min = 4.3e12;
  p.max = 4.45e12;
  p.clocksBefore.smMHz = 1980;
  doc.memory.push_back({"dram", "copy", 4.4e12, p});
  doc.memory.push_back({"dram", "read", 4.5e12, p});
  Provenance q = p;
  q.median = q.min = q.max = 6.6e13;
  doc.compute.push_back({"fp32", "fp32", "FFMA", 6.6e13, q});
  doc.compute.push_back({"tensor", "bf16", "HGMMA via cuBLASLt", 8.0e14, q});
  doc.compute.push_back({"tensor", "fp16", "HGMMA via cuBLASLt", 8.1e14, q});
  return doc;
}

} // namespace

TEST(CeilingsContract, RoundTripsAndPicksTheBestCeiling) {
  TempDir dir;
  saveCeilingsFile(dir.file("c.json"), h200());
  CeilingsDocument back = loadCeilingsFile(dir.file("c.json"));
  EXPECT_EQ(back.device.multiprocessors, 132);
  EXPECT_EQ(back.bestMemory("dram")->variant, "read");
  EXPECT_EQ(back.bestCompute("tensor")->dtype, "fp16");
  EXPECT_EQ(back.bestCompute("tensor", "bf16")->flopsPerSecond, 8.0e14);
  EXPECT_EQ(back.bestCompute("fp64"), nullptr);
  EXPECT_EQ(back.memory[0].provenance.clocksBefore.smMHz, 1980.0);
  EXPECT_EQ(toJson(back).dump(), toJson(h200()).dump());
}

TEST(CeilingsContract, RejectsImpossibleNumbers) {
  Json json = toJson(h200());
  json["memory"][0]["bytes_per_second"] = -1;
  EXPECT_EQ(errorOf([&] { ceilingsFromJson(json, "c"); }), "memory[0].bytes_per_second: must be positive, found -1.0");
  json = toJson(h200());
  json["compute"][0]["bucket"] = "int8";
  EXPECT_NE(errorOf([&] { ceilingsFromJson(json, "c"); }).find("compute[0].bucket: unknown bucket"), std::string::npos);
  json = toJson(h200());
  json["memory"][1]["provenance"]["median"] = 1e15;
  EXPECT_EQ(errorOf([&] { ceilingsFromJson(json, "c"); }), "memory[1].provenance.median: must lie between min and max");
}

namespace {

MeasuredHeader header() {
  MeasuredHeader h;
  h.pid = 4242;
  h.rank = 3;
  h.program = {"./vector_add", "1024"};
  h.started = "2026-11-30T02:00:00Z";
  h.roofcheckVersion = "0.1.0";
  h.driverVersion = "580.159.04";
  h.cudaVersion = "13.0";
  h.devices.push_back({0, "NVIDIA H200", "GPU-1234", "9.0", 132, 62914560, 0});
  return h;
}

Launch launch(int64_t index) {
  Launch l;
  l.index = index;
  l.name = "vector_add(const float*, const float*, float*, int)";
  l.mangled = "_Z10vector_addPKfS0_Pfi";
  l.grid = {4, 1, 1};
  l.block = {256, 1, 1};
  l.args = {{3, 24, 4, "00040000", 1024}};
  l.durationNs = 2000;
  l.profiled = true;
  l.replayPasses = 8;
  l.metrics = {{"dram__bytes_read.sum", 8192},
               {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1024},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 10}};
  return l;
}

/// The header and records of these launches, as the shim writes them: a kernel record before the first.
std::string measuredText(const std::vector<Launch> &launches) {
  std::string text = toJson(header()).dump() + "\n";
  MeasuredRecordWriter writer;
  for (const Launch &l : launches)
    writer.append(text, l);
  return text;
}

/// The launch record of launch(0), to edit, after the header and its kernel record.
Json launchRecord() {
  std::string text = measuredText({launch(0)});
  return Json::parse(text.substr(text.rfind('\n', text.size() - 2) + 1));
}
std::string withLaunch(const Json &record) {
  std::string text = measuredText({launch(0)});
  return text.substr(0, text.rfind('\n', text.size() - 2) + 1) + record.dump() + "\n";
}

} // namespace

TEST(MeasuredContract, ReadsJsonLinesAndSkipsATruncatedTail) {
  TempDir dir;
  std::string lines = measuredText({launch(0), launch(1)}) + "{\"record\":\"clocks\",\"sm_mhz\":1980}\n";
  std::string third;
  appendLaunchRecord(third, 0, launch(2));
  writeText(dir.file("m.jsonl"), lines + third.substr(0, 40));
  MeasuredFile file = loadMeasuredFile(dir.file("m.jsonl"));
  EXPECT_EQ(file.header.rank, 3);
  EXPECT_EQ(file.header.program[1], "1024");
  ASSERT_EQ(file.launches.size(), 2u);
  EXPECT_EQ(file.launches[1].index, 1);
  EXPECT_EQ(file.launches[0].args[0].value, 1024);
  EXPECT_EQ(file.launches[0].replayPasses, 8);
  ASSERT_EQ(file.warnings.size(), 1u);
  EXPECT_NE(file.warnings[0].find("m.jsonl:6: truncated last record skipped"), std::string::npos);

  MeasuredFlops flops = measuredFlops(file.launches[0].metrics);
  EXPECT_EQ(flops.fp32, 1044.0);
  EXPECT_EQ(flops.fp64, std::nullopt);
  EXPECT_EQ(flops.total(), 1044.0);
  EXPECT_EQ(flops.uncounted(), (std::vector<std::string>{"fp64", "fp16"})) << "left out of the total, and said";
  EXPECT_TRUE(MeasuredFlops{}.uncounted().empty()) << "a launch without FLOP counters misses nothing in part";
}

TEST(MeasuredContract, TheRunsOwnWarningsReachTheReader) {
  std::string lines = measuredText({launch(0)}) + R"({"record":"summary","launches_seen":1,"launches_recorded":1,"launches_profiled":1,)" +
                      R"("activity_records_dropped":3,"warnings":["a replay pass was not submitted"]})" + "\n";
  MeasuredFile file = parseMeasuredLines(lines, "m.jsonl");
  ASSERT_EQ(file.warnings.size(), 2u);
  EXPECT_EQ(file.warnings[0], "m.jsonl: the run lost 3 kernel activity records (CUPTI dropped them): those launches "
                              "are missing");
  EXPECT_EQ(file.warnings[1], "m.jsonl: the run warned: a replay pass was not submitted");
}

TEST(MeasuredContract, ErrorsNameTheLine) {
  TempDir dir;
  writeText(dir.file("empty.jsonl"), "");
  EXPECT_NE(errorOf([&] { loadMeasuredFile(dir.file("empty.jsonl")); }).find("empty file"), std::string::npos);

  Json bad = launchRecord();
  bad["grid"] = Json::array({4, 0, 1});
  writeText(dir.file("grid.jsonl"), withLaunch(bad));
  EXPECT_EQ(errorOf([&] { loadMeasuredFile(dir.file("grid.jsonl")); }),
            dir.file("grid.jsonl") + ":3: grid: must be an array of three positive integers");

  writeText(dir.file("garbage.jsonl"), toJson(header()).dump() + "\nnot json\n" + measuredText({launch(0)}));
  EXPECT_EQ(errorOf([&] { loadMeasuredFile(dir.file("garbage.jsonl")); }),
            dir.file("garbage.jsonl") + ":2: not a JSON record");

  Json other = toJson(header());
  other["schema"] = "roofcheck.measured/0";
  writeText(dir.file("schema.jsonl"), other.dump() + "\n");
  EXPECT_NE(errorOf([&] { loadMeasuredFile(dir.file("schema.jsonl")); }).find("expected \"roofcheck.measured/2\""),
            std::string::npos);

  other["schema"] = Json::object(); // a duplicate key the fuzzer found: the later value wins
  writeText(dir.file("schema.jsonl"), other.dump() + "\n");
  EXPECT_NE(errorOf([&] { loadMeasuredFile(dir.file("schema.jsonl")); }).find("schema is {}"), std::string::npos);

  Json negative = launchRecord();
  negative["metrics"]["dram__bytes_read.sum"] = -5;
  writeText(dir.file("neg.jsonl"), withLaunch(negative));
  EXPECT_EQ(errorOf([&] { loadMeasuredFile(dir.file("neg.jsonl")); }),
            dir.file("neg.jsonl") + ":3: metrics.dram__bytes_read.sum: must not be negative");

  Json noPasses = launchRecord();
  noPasses["replay_passes"] = 0;
  writeText(dir.file("passes.jsonl"), withLaunch(noPasses));
  EXPECT_EQ(errorOf([&] { loadMeasuredFile(dir.file("passes.jsonl")); }),
            dir.file("passes.jsonl") + ":3: replay_passes: must be at least 1");
}

TEST(MeasuredContract, FirstVersionFilesStillRead) {
  // measured/1: each launch record carries its kernel's names, registers and argument places.
  std::string text =
      R"x({"schema":"roofcheck.measured/1","record":"header","pid":1,"program":[],"started":"","roofcheck_version":"",)x"
      R"x("driver_version":"","cuda_version":"","devices":[]})x" "\n"
      R"x({"record":"launch","index":0,"name":"k(int)","mangled":"_Z1ki","device":0,"context":1,"stream":0,)x"
      R"x("grid":[1,1,1],"block":[32,1,1],"shared_dynamic":0,"shared_static":0,"registers":16,)x"
      R"x("args":[{"index":0,"offset":0,"size":4,"hex":"0a000000","value":10}],"duration_ns":900,"profiled":false})x"
      "\n";
  MeasuredFile file = parseMeasuredLines(text, "old.jsonl");
  ASSERT_EQ(file.launches.size(), 1u);
  EXPECT_EQ(file.launches[0].name, "k(int)");
  EXPECT_EQ(file.launches[0].registers, 16);
  EXPECT_EQ(file.launches[0].args, (std::vector<KernelArgument>{{0, 0, 4, "0a000000", 10}}));
  EXPECT_EQ(file.launches[0].replayPasses, std::nullopt) << "before the field: no value, no error";
}

TEST(ReportContract, RoundTrips) {
  TempDir dir;
  ReportDocument doc;
  doc.generator = "roofcheck-report test";
  doc.inputs = {"static.json", "m.jsonl", "c.json"};
  doc.device = h200().device;
  ReportKernel k;
  k.name = "transpose_naive";
  k.mangled = "_Z15transpose_naivePKfPfi";
  k.launches = 3;
  k.timeNs = 3e6;
  k.timeShare = 0.6;
  k.measuredIntensity = 0.0;
  k.boundPredicted = "memory";
  k.trafficRatio = 4.1;
  k.explanations.push_back({"traffic-above-predicted", "warning", "measured DRAM bytes are 4.1x ideal",
                            {"transpose.cu:14 store out stride 32768 B"}});
  doc.kernels.push_back(k);
  saveReportFile(dir.file("r.json"), doc);
  ReportDocument back = loadReportFile(dir.file("r.json"));
  EXPECT_EQ(toJson(back).dump(), toJson(doc).dump());
  Json json = toJson(doc);
  json["kernels"][0]["time_share"] = 1.5;
  EXPECT_EQ(errorOf([&] { reportFromJson(json, "r"); }), "kernels[0].time_share: must lie between 0 and 1");
}

TEST(AtomicWrite, LeavesTheOldFileWhenTheDirectoryIsGone) {
  EXPECT_THROW(writeFileAtomically("/nonexistent-dir/x.json", "{}"), Error);
  TempDir dir;
  writeFileAtomically(dir.file("x.json"), "old");
  writeFileAtomically(dir.file("x.json"), "new");
  std::ifstream in(dir.file("x.json"));
  std::string text;
  in >> text;
  EXPECT_EQ(text, "new");
  EXPECT_EQ(dir.entries(), 1u);
}

// The sample documents that docs/schemas/*.schema.json are checked against (test/cli/schemas.test) are
// read by the C++ readers too, so the schemas and the readers describe the same format.
TEST(SchemaSamples, CoreReadsEverySample) {
  const std::string samples = ROOFCHECK_SOURCE_DIR "/docs/schemas/examples/";
  StaticDocument s = loadStaticFile(samples + "static.json");
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].bytes.ideal.evaluate({{"n", Number(int64_t{67108864})}}), 805306368.0);
  MeasuredFile m = loadMeasuredFile(samples + "measured.jsonl");
  ASSERT_EQ(m.launches.size(), 1u);
  EXPECT_EQ(m.launches[0].args[1].value, 67108864);
  EXPECT_EQ(measuredFlops(m.launches[0].metrics).fp32, 67108864.0);
  EXPECT_TRUE(m.warnings.empty());
  CeilingsDocument c = loadCeilingsFile(samples + "ceilings.json");
  EXPECT_EQ(c.bestMemory("dram")->bytesPerSecond, 4.4e12);
  ReportDocument r = loadReportFile(samples + "report.json");
  EXPECT_EQ(r.kernels[0].boundMeasured, "memory");
}

TEST(DeviceInfo, UuidTextIsNvidiaSmisForm) {
  const char bytes[16] = {'\x5f', '\x2a', '\x0c', '\x1e', '\x00', '\x01', '\xab', '\xcd',
                          '\x10', '\x20', '\x30', '\x40', '\x50', '\x60', '\x70', '\xff'};
  EXPECT_EQ(deviceUuidText(bytes), "GPU-5f2a0c1e-0001-abcd-1020-3040506070ff");
}
