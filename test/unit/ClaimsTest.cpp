#include "roofcheck/Bindings.h"
#include "roofcheck/Claims.h"

#include <gtest/gtest.h>

using namespace roofcheck;

namespace {

const ClaimSource at{"", "k.cu", 10, 20};

std::string parseError(const std::string &text) {
  try {
    parseClaims(text, at);
  } catch (const ClaimError &e) {
    return e.what();
  }
  return "(no error)";
}

Quantity q(const std::string &e) { return Quantity::of(Expr::parse(e)); }

// A square fp32 matmul: 2N^3 FLOPs over 12N^2 ideal bytes, intensity N/6.
StaticKernel matmul() {
  StaticKernel k;
  k.name = "matmul_tiled";
  k.mangled = "_Z12matmul_tiledPKfS0_Pfi";
  k.params = {{0, "A", "const float *", 8}, {1, "B", "const float *", 8}, {2, "C", "float *", 8}, {3, "N", "int", 4}};
  k.flops = {q("2 * N * N * N"), q("0"), q("2 * N * N * N"), q("0"), q("0"), q("0"), q("0")};
  k.bytes = {q("8 * N * N"), q("4 * N * N"), q("12 * N * N"), q("12 * N * N")};
  k.intensity = {q("2 * N * N * N / (12.0 * N * N)"), q("2 * N * N * N / (12.0 * N * N)")};
  return k;
}

CeilingsDocument ceilings() {
  CeilingsDocument c;
  Provenance p{"t", Json::object(), 1, 1, 1, 1, {}, {}, {}};
  c.memory.push_back({"dram", "copy", 4e12, p});
  c.compute.push_back({"fp32", "fp32", "FFMA", 60e12, p}); // ridge 15 FLOP/B
  return c;
}

/// The join the audit makes of a static entry (matmul()'s unless given) and these launches.
class MatmulRun {
public:
  explicit MatmulRun(const std::vector<Launch> &launches, const StaticKernel &kernel = matmul())
      : doc_{"", "sm_90", {kernel}}, join_({{"k.static.json", &doc_}}) {
    MeasuredFile file;
    file.launches = launches;
    join_.add(file, "k.jsonl");
  }
  const join::JoinedKernel &kernel() const { return *join_.find(doc_.kernels[0].mangled); }

private:
  StaticDocument doc_;
  join::LaunchJoin join_;
};

ClaimResult measured(const Claim &c, const std::vector<Launch> &launches) {
  return checkAgainstMeasurement(c, MatmulRun(launches).kernel(), nullptr, 0.05);
}

Launch launchWith(int64_t n, double flops, double dramBytes) {
  Launch l;
  l.index = 7;
  l.mangled = matmul().mangled;
  l.profiled = true;
  uint32_t bits = static_cast<uint32_t>(n);
  char hex[9];
  std::snprintf(hex, sizeof hex, "%02x%02x%02x%02x", bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >> 24);
  l.args = {{3, 24, 4, hex, n}};
  l.metrics = {{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", flops / 2},
               {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 0},
               {"dram__bytes_read.sum", dramBytes * 2 / 3},
               {"dram__bytes_write.sum", dramBytes / 3}};
  return l;
}

} // namespace

TEST(ClaimParse, SubjectsRelationsAndValues) {
  auto claims = parseClaims(" intensity >= N / 6;flops == 2*N*N*N ; bound == compute;bytes.read<8*N*N", at);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_EQ(claims[0].subject, "intensity.ideal");
  EXPECT_EQ(claims[0].relation, Relation::AtLeast);
  EXPECT_EQ(claims[0].expected->str(), "N / 6");
  EXPECT_EQ(claims[0].source.column, 21);
  EXPECT_EQ(claims[1].subject, "flops.total");
  EXPECT_EQ(claims[1].text, "flops == 2*N*N*N");
  EXPECT_EQ(claims[1].source.column, 40); // " intensity >= N / 6;" is 20 characters
  EXPECT_EQ(claims[2].boundClass, Bound::Compute);
  EXPECT_EQ(claims[3].relation, Relation::Less);
}

TEST(ClaimParse, ErrorsPointIntoTheSource) {
  EXPECT_EQ(parseError("intensity >= N / / 6"), "k.cu:10:37: unexpected '/'");
  EXPECT_EQ(parseError("speed >= 3"), "k.cu:10:20: unknown claim subject 'speed' (intensity, flops, bytes, bound, or "
                                      "a field such as flops.fp32, bytes.read, intensity.predicted)");
  EXPECT_EQ(parseError("flops = 3"), "k.cu:10:26: '=' is not a comparison; write '=='");
  EXPECT_EQ(parseError("flops 3"), "k.cu:10:20: claim 'flops 3' has no comparison (==, >=, <=, >, <)");
  EXPECT_EQ(parseError("bound == fast"), "k.cu:10:29: a bound is 'memory' or 'compute', not 'fast'");
  EXPECT_EQ(parseError("bound >= memory"), "k.cu:10:26: a bound claim is 'bound == memory' or 'bound == compute'");
  EXPECT_EQ(parseError("  ;  "), "k.cu:10:20: empty claim comment");
  EXPECT_EQ(parseError("bytes =="), "k.cu:10:28: empty expression");
}

TEST(ClaimComments, FoundInLineAndBlockCommentsOnly) {
  std::string source = "int x; // roofcheck-claim: flops == n\n"
                       "const char *s = \"roofcheck-claim: not a comment\";\n"
                       "/* a block\n"
                       "   roofcheck-claim: bytes == 12 * n */ int y;\n"
                       "/* roofcheck-claim: bound == memory */\n";
  auto found = findClaimComments(source, "f.cu");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].text, "flops == n");
  EXPECT_EQ(found[0].line, 1);
  EXPECT_EQ(found[0].column, 28);
  EXPECT_EQ(found[1].text, "bytes == 12 * n");
  EXPECT_EQ(found[1].line, 4);
  EXPECT_EQ(found[2].text, "bound == memory");
}

TEST(ClaimEstimate, SymbolicEqualityNeedsNoBindings) {
  auto claims = parseClaims("flops == 2*N*N*N; bytes == 12*N*N + N; bytes.write == 4 * N * N", at);
  EXPECT_EQ(checkAgainstEstimate(claims[0], matmul(), {}, nullptr).verdict, Verdict::Held);
  ClaimResult wrong = checkAgainstEstimate(claims[1], matmul(), {}, nullptr);
  EXPECT_EQ(wrong.verdict, Verdict::Failed);
  EXPECT_EQ(wrong.detail, "estimate 12 * N * N is not 12 * N * N + N (they differ by -N)");
  EXPECT_EQ(checkAgainstEstimate(claims[2], matmul(), {}, nullptr).verdict, Verdict::Held);
}

TEST(ClaimEstimate, InequalitiesNeedBindings) {
  Claim c = parseClaims("intensity >= N / 6", at)[0];
  ClaimResult unbound = checkAgainstEstimate(c, matmul(), {}, nullptr);
  EXPECT_EQ(unbound.verdict, Verdict::NotCheckable);
  EXPECT_NE(unbound.detail.find("bind N to compare"), std::string::npos) << unbound.detail;
  ClaimResult bound = checkAgainstEstimate(c, matmul(), {{"N", Number(int64_t{4096})}}, nullptr);
  EXPECT_EQ(bound.verdict, Verdict::Held);
  EXPECT_EQ(bound.detail, "estimate 682.667 >= 682");
  Claim tooHigh = parseClaims("intensity > N / 5.0", at)[0];
  ClaimResult failed = checkAgainstEstimate(tooHigh, matmul(), {{"N", Number(int64_t{4096})}}, nullptr);
  EXPECT_EQ(failed.verdict, Verdict::Failed);
  EXPECT_EQ(failed.detail, "estimate 682.667 is not > 819.2");
}

TEST(ClaimEstimate, UnknownEstimateIsNotCheckable) {
  StaticKernel k = matmul();
  k.flops.total = Quantity::unknown();
  k.unknowns.push_back({"data-dependent loop", "k.cu", 14, 3});
  ClaimResult r = checkAgainstEstimate(parseClaims("flops == 1", at)[0], k, {}, nullptr);
  EXPECT_EQ(r.verdict, Verdict::NotCheckable);
  EXPECT_EQ(r.detail, "the estimate of flops.total is unknown: data-dependent loop at k.cu:14");
}

TEST(ClaimEstimate, AnEstimateKnownUnderATestIsCheckedWhereItHolds) {
  StaticKernel k = matmul();
  k.bytes.write = Quantity::of(Expr::parse("4 * N * N"), {}, Expr::parse("1 - ids"));
  k.unknowns.push_back({"indirect index", "k.cu", 14, 3, UnknownCause::IndirectAccess, "", "ids"});
  Claim c = parseClaims("bytes.write == 4 * N * N", at)[0];
  EXPECT_EQ(checkAgainstEstimate(c, k, {{"ids", Number(int64_t{0})}}, nullptr).verdict, Verdict::Held);
  ClaimResult given = checkAgainstEstimate(c, k, {{"ids", Number(int64_t{1})}}, nullptr);
  EXPECT_EQ(given.verdict, Verdict::NotCheckable);
  EXPECT_EQ(given.detail, "the estimate of bytes.write is unknown where 1 - ids is 0, as for this launch: indirect "
                          "index, only where ids at k.cu:14");
  ClaimResult unbound = checkAgainstEstimate(c, k, {}, nullptr);
  EXPECT_EQ(unbound.verdict, Verdict::NotCheckable);
  EXPECT_EQ(unbound.detail, "the estimate of bytes.write holds only where 1 - ids, which needs ids (--arg NAME=VALUE)");
}

TEST(ClaimEstimate, BoundUsesTheRidgeOfTheDominantBucket) {
  Claim compute = parseClaims("bound == compute", at)[0];
  CeilingsDocument c = ceilings();
  EXPECT_EQ(checkAgainstEstimate(compute, matmul(), {{"N", Number(int64_t{4096})}}, nullptr).verdict,
            Verdict::NotCheckable);
  ClaimResult big = checkAgainstEstimate(compute, matmul(), {{"N", Number(int64_t{4096})}}, &c);
  EXPECT_EQ(big.verdict, Verdict::Held) << big.detail;
  // N = 60 gives intensity 10 < ridge 15: memory-bound.
  ClaimResult small = checkAgainstEstimate(compute, matmul(), {{"N", Number(int64_t{60})}}, &c);
  EXPECT_EQ(small.verdict, Verdict::Failed);
  EXPECT_EQ(small.detail,
            "the predicted intensity 10 FLOP/B is below the ridge 15 of fp32 over dram: memory-bound");
}

TEST(ClaimMeasured, EvaluatesWithEachSignaturesArguments) {
  Claim c = parseClaims("intensity >= N / 6", at)[0];
  // N = 1200: claim 200 FLOP/B. 2N^3 = 3.456e9 FLOPs; 17.28e6 DRAM bytes gives exactly 200.
  Launch onRoof = launchWith(1200, 3.456e9, 17.28e6);
  ClaimResult ok = measured(c, {onRoof});
  EXPECT_EQ(ok.verdict, Verdict::Held) << ok.detail;
  // N = 2400 is another signature, checked with its own N: claim 400, 8x the FLOPs over 4x the bytes.
  Launch larger = launchWith(2400, 8 * 3.456e9, 4 * 17.28e6);
  larger.grid = {2, 1, 1};
  ClaimResult both = measured(c, {onRoof, larger});
  EXPECT_EQ(both.detail, "held on 2 profiled launches (last: measured 400 >= 400)");
  // Launches of one signature are read as their mean, as the report reads them: 1.5x the bytes, 133 FLOP/B.
  Launch moreTraffic = launchWith(1200, 3.456e9, 2 * 17.28e6);
  ClaimResult bad = measured(c, {onRoof, moreTraffic});
  EXPECT_EQ(bad.verdict, Verdict::Failed);
  EXPECT_EQ(bad.detail, "the 2 profiled launches at grid (1,1,1) block (1,1,1): measured 133.333 >= 200 does not "
                        "hold (tolerance 5%)");
  Launch timedOnly = onRoof;
  timedOnly.profiled = false;
  ClaimResult none = measured(c, {timedOnly});
  EXPECT_EQ(none.verdict, Verdict::NotCheckable);
  EXPECT_EQ(none.detail, "no profiled launch of matmul_tiled in the measured files");
  Claim bytes = parseClaims("bytes == 12 * N * N", at)[0];
  // 12 * 1200^2 = 17.28e6; 3% more is within the 5% tolerance, 10% more is not.
  EXPECT_EQ(measured(bytes, {launchWith(1200, 1, 17.28e6 * 1.03)}).verdict, Verdict::Held);
  EXPECT_EQ(measured(bytes, {launchWith(1200, 1, 17.28e6 * 1.10)}).verdict, Verdict::Failed);
}

TEST(ClaimMeasured, ACounterOnlySomeLaunchesCarryIsTheirMean) {
  // roofcheck run's traffic set counts time and DRAM bytes only: the FLOPs come from the other launch.
  Claim c = parseClaims("flops == 2 * N * N * N", at)[0];
  Launch full = launchWith(1200, 3.456e9, 17.28e6);
  Launch traffic = full;
  for (const auto &[name, value] : full.metrics)
    if (name.find("sass") != std::string::npos)
      traffic.metrics.erase(name);
  ClaimResult r = measured(c, {full, traffic});
  EXPECT_EQ(r.verdict, Verdict::Held) << r.detail;
  EXPECT_EQ(r.detail, "held on 2 profiled launches (last: measured 3.456e+09 == 3.456e+09)");
}

TEST(ClaimMeasured, ATotalWithAPrecisionUncountedIsNotChecked) {
  Claim c = parseClaims("flops == 2 * N * N * N", at)[0];
  Launch all = launchWith(1200, 3.456e9, 17.28e6);
  Launch fp32Only = all;
  for (const char *op : {"dadd", "dmul", "dfma", "hadd", "hmul", "hfma"})
    fp32Only.metrics.erase(std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum");
  ClaimResult r = measured(c, {fp32Only});
  EXPECT_EQ(r.verdict, Verdict::NotCheckable);
  EXPECT_EQ(r.detail, "the profiled launch at grid (1,1,1) block (1,1,1) lacks the counters for fp16, part of the "
                      "FLOPs total");
  Claim bound = parseClaims("intensity >= N / 6", at)[0];
  EXPECT_EQ(measured(bound, {fp32Only}).detail,
            "the profiled launch at grid (1,1,1) block (1,1,1) lacks the counters for fp16, part of the FLOPs "
            "that intensity.ideal needs");
  EXPECT_EQ(measured(c, {all}).verdict, Verdict::Held);
}

namespace {

// The matmul on tensor cores, and ceilings whose tensor roofs have ridges 100 (tf32), 200 (bf16) and 400 (fp8).
StaticKernel tensorMatmul() {
  StaticKernel k = matmul();
  k.flops.fp32 = q("0");
  k.flops.tensor = q("2 * N * N * N");
  return k;
}

// As lint estimates it with tf32 inputs.
StaticKernel tf32Matmul() {
  StaticKernel k = tensorMatmul();
  k.flops.tensorByType = {{"tf32", q("2 * N * N * N")}};
  return k;
}

CeilingsDocument tensorCeilings() {
  CeilingsDocument c = ceilings();
  Provenance p{"t", Json::object(), 1, 1, 1, 1, {}, {}, {}};
  c.compute.push_back({"tensor", "tf32", "probe", 400e12, p});
  c.compute.push_back({"tensor", "bf16", "probe", 800e12, p});
  c.compute.push_back({"tensor", "fp8", "probe", 1600e12, p});
  return c;
}

} // namespace

TEST(ClaimMeasured, TensorFlopsComeFromTheTensorPipeAndPickTheirTypesRoof) {
  // The matmul on tensor cores: its FLOPs are bf16 tensor-pipe ops, none from the FMA pipes. N = 1200 at 600
  // FLOP/B; the bf16 roof's ridge is 200, the fp8 roof's 400: compute-bound under either.
  StaticKernel onTensorCores = tensorMatmul();
  auto measured = [&](const Claim &c, const std::vector<Launch> &launches) {
    return checkAgainstMeasurement(c, MatmulRun(launches, onTensorCores).kernel(), nullptr, 0.05);
  };
  Launch tensor = launchWith(1200, 0, 3.456e9 / 600);
  tensor.metrics["sm__ops_path_tensor_src_bf16_dst_fp32.sum"] = 3.456e9;
  tensor.metrics["sm__ops_path_tensor_src_fp8.sum"] = 0;
  Claim flops = parseClaims("flops.tensor == 2 * N * N * N", at)[0];
  ClaimResult counted = measured(flops, {tensor});
  EXPECT_EQ(counted.verdict, Verdict::Held) << counted.detail;
  EXPECT_EQ(measured(parseClaims("flops == 2 * N * N * N", at)[0], {tensor}).verdict, Verdict::Held);
  CeilingsDocument c = tensorCeilings();
  ClaimResult bound = checkAgainstMeasurement(parseClaims("bound == compute", at)[0],
                                              MatmulRun({tensor}, onTensorCores).kernel(), &c, 0.05);
  EXPECT_EQ(bound.verdict, Verdict::Held) << bound.detail;
  EXPECT_NE(bound.detail.find("the ridge 200 of tensor bf16 over dram"), std::string::npos) << bound.detail;
}

TEST(ClaimMeasured, ATensorKernelWithoutMeasuredTypesIsJudgedUnderItsPredictedTypesRoof) {
  // N = 1200 at 300 FLOP/B: compute-bound under the tf32 roof, memory-bound under the fastest (fp8). The launch's
  // FLOPs come from counters without the tensor pipe's ops, so no measured type: the estimate's tf32 decides.
  CeilingsDocument c = tensorCeilings();
  Claim compute = parseClaims("bound == compute", at)[0];
  Launch uncounted = launchWith(1200, 3.456e9, 3.456e9 / 300);
  ClaimResult predicted = checkAgainstMeasurement(compute, MatmulRun({uncounted}, tf32Matmul()).kernel(), &c, 0.05);
  EXPECT_EQ(predicted.verdict, Verdict::Held) << predicted.detail;
  EXPECT_NE(predicted.detail.find("the ridge 100 of tensor tf32 over dram"), std::string::npos) << predicted.detail;
  // Where the counters measured a type, it wins: bf16 ops at 150 FLOP/B are memory-bound under the bf16 roof.
  Launch counted = launchWith(1200, 0, 3.456e9 / 150);
  counted.metrics["sm__ops_path_tensor_src_bf16_dst_fp32.sum"] = 3.456e9;
  ClaimResult measuredType = checkAgainstMeasurement(compute, MatmulRun({counted}, tf32Matmul()).kernel(), &c, 0.05);
  EXPECT_EQ(measuredType.verdict, Verdict::Failed) << measuredType.detail;
  EXPECT_NE(measuredType.detail.find("the ridge 200 of tensor bf16 over dram"), std::string::npos)
      << measuredType.detail;
}

TEST(ClaimEstimate, ATensorKernelIsJudgedUnderItsPredictedTypesRoof) {
  // N = 1800: intensity 300, right of the tf32 ridge (100), left of the fastest tensor roof's (fp8, 400).
  CeilingsDocument c = tensorCeilings();
  ClaimResult r = checkAgainstEstimate(parseClaims("bound == compute", at)[0], tf32Matmul(),
                                       {{"N", Number(int64_t{1800})}}, &c);
  EXPECT_EQ(r.verdict, Verdict::Held) << r.detail;
  EXPECT_EQ(r.detail, "the predicted intensity 300 FLOP/B is at or above the ridge 100 of tensor tf32 over dram: "
                      "compute-bound");
}

TEST(ClaimMeasured, AnOutputHeldInL2IsJudgedOnTheBytesTheKernelWrites) {
  // N = 1200: the kernel reads 8N^2 = 11.52e6 B and writes 4N^2 = 5.76e6 B. DRAM counted the reads and a
  // third of the writes; the rest, less than the 50 MB L2 holds, was still in the write-back L2 at the end.
  Claim c = parseClaims("bytes == 12 * N * N", at)[0];
  Launch l = launchWith(1200, 3.456e9, 0);
  l.metrics["dram__bytes_read.sum"] = 11.52e6;
  l.metrics["dram__bytes_write.sum"] = 1.92e6;
  MeasuredFile file;
  file.header.devices.push_back({0, "GPU", "", "9.0", 132, 50'000'000, 0});
  file.launches = {l};
  StaticDocument doc{"", "sm_90", {matmul()}};
  join::LaunchJoin run({{"k.static.json", &doc}});
  run.add(file, "k.jsonl");
  ClaimResult r = checkAgainstMeasurement(c, *run.find(matmul().mangled), nullptr, 0.05);
  EXPECT_EQ(r.verdict, Verdict::Held) << r.detail;
  EXPECT_EQ(r.detail, "held on 1 profiled launch (last: measured 1.728e+07 == 1.728e+07 (writes taken as the "
                      "kernel's 5.76e+06 B (DRAM counted 1.92e+06): the rest was still in the write-back L2 when it "
                      "ended (outputs-held-in-l2)))");
  // Without the device's L2 size nothing says the writes stayed in L2: the counted bytes stand, and fail.
  MeasuredFile unknownL2 = file;
  unknownL2.header.devices.clear();
  join::LaunchJoin counted({{"k.static.json", &doc}});
  counted.add(unknownL2, "k.jsonl");
  EXPECT_EQ(checkAgainstMeasurement(c, *counted.find(matmul().mangled), nullptr, 0.05).verdict, Verdict::Failed);
  // Nor where the shortfall is more than the L2 holds (3.84 MB missing, a 1 MB L2).
  MeasuredFile smallL2 = file;
  smallL2.header.devices.front().l2Bytes = 1'000'000;
  join::LaunchJoin small({{"k.static.json", &doc}});
  small.add(smallL2, "k.jsonl");
  EXPECT_EQ(checkAgainstMeasurement(c, *small.find(matmul().mangled), nullptr, 0.05).verdict, Verdict::Failed);
}

TEST(Bindings, DecodesArgumentsByParameterType) {
  EXPECT_EQ(decodeArgument("int", "ffffffff"), Number(int64_t{-1}));
  EXPECT_EQ(decodeArgument("const unsigned int", "ffffffff"), Number(int64_t{4294967295}));
  EXPECT_EQ(decodeArgument("size_t", "0010000000000000"), Number(int64_t{4096}));
  EXPECT_EQ(decodeArgument("float", "0000803f"), Number::real(1.0));
  EXPECT_EQ(decodeArgument("double", "000000000000e03f"), Number::real(0.5));
  EXPECT_EQ(decodeArgument("float *", "0000803f00000000"), Number(int64_t{1}));
  EXPECT_EQ(decodeArgument("int", "00000000000000000000"), std::nullopt);
  EXPECT_THROW(decodeArgument("int", "0g000000"), Error);
  EXPECT_THROW(decodeArgument("int", "000"), Error);
}

TEST(Bindings, ParsesOptionsAndLaunches) {
  EXPECT_EQ(parseDim3("256", "--block"), (Dim3{256, 1, 1}));
  EXPECT_EQ(parseDim3("32,8,2", "--block"), (Dim3{32, 8, 2}));
  EXPECT_THROW(parseDim3("0", "--block"), Error);
  EXPECT_THROW(parseDim3("1,2,3,4", "--grid"), Error);
  EXPECT_THROW(parseDim3("x", "--grid"), Error);
  Bindings b;
  addArgumentBinding(b, "N=4096");
  addArgumentBinding(b, "alpha=0.5");
  EXPECT_EQ(b.at("N"), Number(int64_t{4096}));
  EXPECT_EQ(b.at("alpha"), Number::real(0.5));
  EXPECT_THROW(addArgumentBinding(b, "N"), Error);
  EXPECT_THROW(addArgumentBinding(b, "N=four"), Error);
  addArgumentBinding(b, "params.problem_size.idx[2]=64"); // an element of an array member
  EXPECT_EQ(b.at("params.problem_size.idx[2]"), Number(int64_t{64}));
  EXPECT_THROW(addArgumentBinding(b, "idx[k]=1"), Error);
  Launch l = launchWith(2048, 0, 0);
  l.grid = {64, 64, 1};
  l.block = {32, 32, 1};
  MatmulRun run({l});
  const Bindings &fromLaunch = run.kernel().signatures.front().bindings;
  EXPECT_EQ(fromLaunch.at("N"), Number(int64_t{2048}));
  EXPECT_EQ(fromLaunch.at("gridDim.y"), Number(int64_t{64}));
  EXPECT_EQ(fromLaunch.at("blockDim.x"), Number(int64_t{32}));
  EXPECT_EQ(fromLaunch.count("A"), 0u);
}
