#include "ProbeOptions.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

using namespace roofcheck::probe;

namespace {

std::string errorOf(const std::vector<std::string> &args) {
  try {
    parseProbeOptions(args);
  } catch (const roofcheck::Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(ProbeOptions, DefaultsRunEveryGroupIntoCeilingsJson) {
  ProbeOptions o = parseProbeOptions({});
  EXPECT_EQ(o.outPath, "ceilings.json");
  EXPECT_FALSE(o.quick);
  EXPECT_EQ(o.groups.size(), 8u);
  for (ProbeGroup g : allProbeGroups())
    EXPECT_TRUE(o.runs(g)) << toString(g);
}

TEST(ProbeOptions, OnlyNarrowsToTheListedGroups) {
  ProbeOptions o = parseProbeOptions({"--only", "dram,fp32", "--quick", "--out", "x.json"});
  EXPECT_EQ(o.groups, (std::set<ProbeGroup>{ProbeGroup::Dram, ProbeGroup::FP32}));
  EXPECT_TRUE(o.quick);
  EXPECT_EQ(o.outPath, "x.json");
  ProbeOptions eq = parseProbeOptions({"--only=tensor", "--out=y.json"});
  EXPECT_EQ(eq.groups, (std::set<ProbeGroup>{ProbeGroup::Tensor}));
  EXPECT_EQ(eq.outPath, "y.json");
}

TEST(ProbeOptions, GroupNamesRoundTrip) {
  std::vector<std::string> names;
  for (ProbeGroup g : allProbeGroups())
    names.push_back(toString(g));
  EXPECT_EQ(names, (std::vector<std::string>{"dram", "l2", "shared", "fp64", "fp32", "fp16", "bf16", "tensor"}));
}

TEST(ProbeOptions, RejectsUnknownGroupsNamingTheChoices) {
  std::string e = errorOf({"--only", "dram,fp128"});
  EXPECT_NE(e.find("unknown probe \"fp128\""), std::string::npos) << e;
  EXPECT_NE(e.find("dram,l2,shared,fp64,fp32,fp16,bf16,tensor"), std::string::npos) << e;
  EXPECT_NE(errorOf({"--only", ""}).find("empty"), std::string::npos);
  EXPECT_NE(errorOf({"--only", "dram,,l2"}).find("unknown probe \"\""), std::string::npos);
}

TEST(ProbeOptions, RejectsMissingValuesAndUnknownArguments) {
  EXPECT_NE(errorOf({"--out"}).find("--out needs a value"), std::string::npos);
  EXPECT_NE(errorOf({"--only"}).find("--only needs a value"), std::string::npos);
  EXPECT_NE(errorOf({"--out="}).find("empty file name"), std::string::npos);
  EXPECT_NE(errorOf({"--fast"}).find("unknown option '--fast' (see roofcheck probe --help)"), std::string::npos);
  EXPECT_NE(errorOf({"--only", "dram", "--only", "l2"}).find("given twice"), std::string::npos);
}

TEST(ProbeOptions, HelpAndVersionAreFlags) {
  EXPECT_TRUE(parseProbeOptions({"--help"}).help);
  EXPECT_TRUE(parseProbeOptions({"-h"}).help);
  EXPECT_TRUE(parseProbeOptions({"--version"}).version);
  EXPECT_NE(probeUsage().find("--only LIST"), std::string::npos);
}
