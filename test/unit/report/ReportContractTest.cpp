// The report/1 fields added for roofcheck-report (per-signature and per-rank breakdowns, predicted and
// measured counts, ceilings drawn, mode) round-trip, and documents without them still load.
#include "TestSupport.h"

#include "roofcheck/Contracts.h"

#include <gtest/gtest.h>

using namespace roofcheck;
using roofcheck::testing::errorOf;

namespace {


ReportDocument fullReport() {
  ReportDocument doc;
  doc.generator = "roofcheck-report test";
  doc.inputs = {"s.json", "m.jsonl", "c.json"};
  doc.mode = "measured";
  doc.totalTimeNs = 1150000;
  doc.ceilings = {{"memory", "dram", "copy", 4.4e12, std::nullopt}, {"compute", "fp32", "fp32", 5e13, 5e13 / 4.4e12}};
  ReportKernel k;
  k.name = "axpy_mixed";
  k.mangled = "_Z9axpy_mixedPKfPfmfd";
  k.launches = 3;
  k.timeNs = 350000;
  k.timeShare = 350.0 / 1150.0;
  k.file = "bench/mixed.cu";
  k.line = 10;
  k.dtype = "fp32";
  PredictedCounts p;
  p.flops = Quantity::of(Expr::parse("2 * n"), {{"n", Number(int64_t{4})}});
  p.bytesIdeal = Quantity::of(Expr::parse("8 * n"), {{"n", Number(int64_t{4})}});
  k.predicted = p;
  k.measured = MeasuredCounts{2, 200000, 167772160.0, 335544320.0, 335544320.0, std::nullopt, 1, 8};
  k.sampled = SampledCounts{1, 150000, 268435456.0, 268435457.5, std::nullopt};
  ReportSignature s;
  s.grid = {4096, 1, 1};
  s.block = {256, 1, 1};
  s.args = {{"n", "67108864"}, {"alpha", "0.5"}};
  s.launches = 2;
  s.timeNs = 300000;
  s.timeShare = 300.0 / 1150.0;
  s.measuredIntensity = 0.25;
  k.signatures.push_back(s);
  ReportRank r;
  r.label = "rank 1";
  r.rank = 1;
  r.pid = 2001;
  r.launches = 3;
  r.timeNs = 350000;
  r.measuredIntensity = 0.25;
  r.flopsPerSecond = 8.388608e11;
  r.bytesPerSecond = 3.3554432e12;
  r.fractionOfRoof = 0.763;
  k.ranks.push_back(r);
  doc.kernels.push_back(k);
  return doc;
}

} // namespace

TEST(ReportContractAdditions, RoundTrip) {
  ReportDocument doc = fullReport();
  Json json = toJson(doc);
  ReportDocument back = reportFromJson(json, "r");
  EXPECT_EQ(toJson(back).dump(), json.dump());
  const ReportKernel &k = back.kernels[0];
  EXPECT_EQ(k.predicted->flops.expr, "2 * n");
  EXPECT_EQ(k.predicted->flops.value, 8.0);
  EXPECT_EQ(k.measured->profiledLaunches, 2);
  EXPECT_EQ(k.measured->trafficLaunches, 1);
  EXPECT_EQ(k.measured->trafficReplayPasses, 8);
  EXPECT_EQ(k.measured->l2Bytes, std::nullopt);
  EXPECT_EQ(k.sampled, (SampledCounts{1, 150000, 268435456.0, 268435457.5, std::nullopt}));
  EXPECT_EQ(k.signatures[0].args[1].first, "alpha"); // order kept
  EXPECT_EQ(k.ranks[0].rank, 1);
  EXPECT_EQ(k.ranks[0].fractionOfRoof, 0.763); // a rank's dot has every field a kernel's has
  EXPECT_EQ(toJson(back)["kernels"][0]["ranks"][0]["intensity"]["measured"], 0.25);
  EXPECT_EQ(back.ceilings[1].ridge, 5e13 / 4.4e12);
  EXPECT_EQ(back.totalTimeNs, 1150000);
}

TEST(ReportContractAdditions, RanksOfTheFirstVersionStillLoad) {
  // Before ranks carried the whole dot they had measured_intensity, flops_per_second and bytes_per_second.
  Json json = toJson(fullReport());
  Json &rank = json["kernels"][0]["ranks"][0];
  for (const char *key : {"intensity", "fraction_of_roof", "traffic_ratio"})
    rank.erase(key);
  rank["measured_intensity"] = 0.5;
  ReportDocument back = reportFromJson(json, "r");
  const ReportRank &r = back.kernels[0].ranks[0];
  EXPECT_EQ(r.measuredIntensity, 0.5);
  EXPECT_EQ(r.flopsPerSecond, 8.388608e11);
  EXPECT_EQ(r.fractionOfRoof, std::nullopt);
}

TEST(ReportContractAdditions, DocumentsWithoutThemStillLoad) {
  Json json = toJson(fullReport());
  for (const char *key : {"mode", "total_time_ns", "ceilings"})
    json.erase(key);
  for (const char *key : {"location", "dtype", "predicted_counts", "measured_counts", "signatures", "ranks"})
    json["kernels"][0].erase(key);
  ReportDocument back = reportFromJson(json, "r");
  EXPECT_EQ(back.mode, "measured");
  EXPECT_TRUE(back.ceilings.empty());
  EXPECT_EQ(back.kernels[0].file, "");
  EXPECT_FALSE(back.kernels[0].predicted);
  EXPECT_TRUE(back.kernels[0].signatures.empty());
}

TEST(ReportContractAdditions, RejectsBadValues) {
  Json json = toJson(fullReport());
  json["mode"] = "guessed";
  EXPECT_EQ(errorOf([&] { reportFromJson(json, "r"); }), "mode: must be \"measured\" or \"static\"");
  json = toJson(fullReport());
  json["ceilings"][0]["value"] = -1;
  EXPECT_EQ(errorOf([&] { reportFromJson(json, "r"); }), "ceilings[0].value: must be positive, found -1.0");
  json = toJson(fullReport());
  json["kernels"][0]["measured_counts"]["dram_read_bytes"] = -5;
  EXPECT_EQ(errorOf([&] { reportFromJson(json, "r"); }),
            "kernels[0].measured_counts.dram_read_bytes: must not be negative");
  json = toJson(fullReport());
  json["kernels"][0]["signatures"][0]["time_share"] = 2;
  EXPECT_EQ(errorOf([&] { reportFromJson(json, "r"); }), "kernels[0].signatures[0].time_share: must lie between 0 and 1");
}
