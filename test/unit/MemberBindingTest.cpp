// Struct members as symbols: the static contract's fields and divisions, the multiply-high division check, and
// the join binding members from an argument's bytes.
#include "TestSupport.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/Join.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace roofcheck;
using roofcheck::testing::errorOf;

namespace {

Quantity q(const std::string &e) { return Quantity::of(Expr::parse(e)); }

/// ggml's fastdiv set-up, from its description: L = ceil(log2 d), mp = 2^32 * (2^L - d) / d + 1.
std::pair<int64_t, int64_t> multiplierFor(int64_t d) {
  int64_t shift = 0;
  while (shift < 32 && (int64_t{1} << shift) < d)
    ++shift;
  auto multiplier = static_cast<int64_t>(((__uint128_t{1} << 32) * ((__uint128_t{1} << shift) - d)) / d + 1);
  return {multiplier, shift};
}

uint32_t multiplyHighDivide(uint32_t n, int64_t multiplier, int64_t shift) {
  auto high = static_cast<uint32_t>((uint64_t{n} * static_cast<uint64_t>(multiplier)) >> 32);
  return static_cast<uint32_t>((uint64_t{high} + n) >> shift);
}

/// Rows of `cols.divisor` elements: `n / cols.divisor` rows, each read once.
StaticKernel rowSums() {
  StaticKernel k;
  k.name = "row_sums";
  k.mangled = "_Z8row_sumsPfPKfj7Divider";
  k.params = {{0, "out", "float *", 8, {}}, {1, "in", "const float *", 8, {}}, {2, "n", "unsigned int", 4, {}},
              {3,
               "cols",
               "Divider",
               12,
               {{"cols.multiplier", "unsigned int", 0, 4},
                {"cols.shift", "unsigned int", 4, 4},
                {"cols.divisor", "unsigned int", 8, 4}}}};
  k.flops = {q("n"), q("0"), q("n"), q("0"), q("0"), q("0"), q("0")};
  k.bytes = {q("4 * n"), q("4 * (n / cols.divisor)"), q("4 * n + 4 * (n / cols.divisor)"),
             q("4 * n + 4 * (n / cols.divisor)")};
  k.intensity = {Quantity::unknown(), Quantity::unknown()};
  k.divisions = {{"cols.multiplier", "cols.shift", "cols.divisor", "k.cu", 3, 12}};
  return k;
}

std::string littleEndian(uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x", value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff,
                value >> 24);
  return text;
}

Launch rowSumsLaunch(int64_t index, uint32_t n, uint32_t multiplier, uint32_t shift, uint32_t divisor) {
  Launch l;
  l.index = index;
  l.mangled = rowSums().mangled;
  l.grid = {4, 1, 1};
  l.block = {256, 1, 1};
  l.args = {{2, 16, 4, littleEndian(n), static_cast<int64_t>(n)},
            {3, 20, 12, littleEndian(multiplier) + littleEndian(shift) + littleEndian(divisor), std::nullopt}};
  return l;
}

} // namespace

TEST(MagicDivision, GgmlsMultipliersDivideAndOneLessDoesNot) {
  for (int64_t d : std::initializer_list<int64_t>{1, 2, 3, 5, 7, 10, 64, 100, 641, 1000, 4095, 65537, 1000003,
                                                  2147483647, 4294967295}) {
    auto [multiplier, shift] = multiplierFor(d);
    EXPECT_TRUE(dividesBy(multiplier, shift, d)) << d;
    for (uint32_t n : {0u, 1u, static_cast<uint32_t>(d - 1), static_cast<uint32_t>(d), 123456789u, 2147483647u})
      EXPECT_EQ(multiplyHighDivide(n, multiplier, shift), n / d) << n << " / " << d;
    bool powerOfTwo = (d & (d - 1)) == 0;
    if (!powerOfTwo)
      EXPECT_FALSE(dividesBy(multiplier - 1, shift, d)) << d;
    EXPECT_FALSE(dividesBy(multiplier, shift, d + 1)) << d;
  }
  // One less than 3's multiplier: 3 * 1431655765 / 2^32 rounds to 0.
  EXPECT_EQ(multiplyHighDivide(3, 1431655765, 2), 0u);
  EXPECT_FALSE(dividesBy(1431655765, 2, 3));
  EXPECT_FALSE(dividesBy(1, 0, 0)) << "no division by zero";
  EXPECT_FALSE(dividesBy(-1, 0, 1));
  EXPECT_FALSE(dividesBy(1, 33, 1));
}

TEST(MagicDivision, AFailedOneIsNamedWithItsValues) {
  std::vector<MagicDivision> divisions = rowSums().divisions;
  Bindings bound{{"cols.multiplier", Number(int64_t{1431655766})},
                 {"cols.shift", Number(int64_t{2})},
                 {"cols.divisor", Number(int64_t{3})}};
  std::string first;
  EXPECT_TRUE(failedDivisionSymbols(divisions, bound, &first).empty());
  EXPECT_EQ(first, "");
  bound["cols.multiplier"] = Number(int64_t{1431655765});
  EXPECT_EQ(failedDivisionSymbols(divisions, bound, &first),
            (std::set<std::string>{"cols.divisor", "cols.multiplier", "cols.shift"}));
  EXPECT_EQ(first, "cols.multiplier = 1431655765 and cols.shift = 2 do not divide by cols.divisor = 3");
  bound.erase("cols.shift");
  EXPECT_TRUE(failedDivisionSymbols(divisions, bound).empty()) << "not all bound: nothing to check";
}

TEST(StaticContract, MembersAndDivisionsRoundTripAndOlderFilesHaveNone) {
  StaticDocument doc{"t", "sm_90", {rowSums()}};
  Json json = toJson(doc);
  EXPECT_FALSE(json["kernels"][0]["params"][0].contains("fields")) << "written only where there are members";
  EXPECT_EQ(json["kernels"][0]["params"][3]["fields"][2]["name"], "cols.divisor");
  EXPECT_EQ(json["kernels"][0]["divisions"][0]["shift"], "cols.shift");
  StaticKernel back = staticFromJson(json, "s.json").kernels[0];
  ASSERT_EQ(back.params[3].fields.size(), 3u);
  EXPECT_EQ(back.params[3].fields[2].offset, 8);
  ASSERT_EQ(back.divisions.size(), 1u);
  EXPECT_EQ(back.divisions[0].column, 12);
  EXPECT_EQ(toJson(StaticDocument{"t", "sm_90", {back}}).dump(), json.dump());
  json["kernels"][0].erase("divisions");
  json["kernels"][0]["params"][3].erase("fields");
  back = staticFromJson(json, "s.json").kernels[0];
  EXPECT_TRUE(back.divisions.empty());
  EXPECT_TRUE(back.params[3].fields.empty());
  json["kernels"][0]["params"][3]["fields"] = {{{"name", "cols.shift"}, {"type", "int"}, {"offset", -4}, {"size", 4}}};
  EXPECT_NE(errorOf([&] { staticFromJson(json, "s.json"); }).find("offset"), std::string::npos);
}

TEST(LaunchJoin, BindsMembersFromTheArgumentsBytesAndChecksDivisions) {
  StaticDocument doc{"t", "sm_90", {rowSums()}};
  join::LaunchJoin run({{"k.static.json", &doc}});
  MeasuredFile file;
  // 3000 elements in rows of 3 (1000 rows), then the same with a multiplier that does not divide by 3.
  file.launches = {rowSumsLaunch(0, 3000, 1431655766, 2, 3), rowSumsLaunch(1, 3000, 1431655765, 2, 3)};
  run.add(file, "k.jsonl");
  const join::JoinedKernel *k = run.find(rowSums().mangled);
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->signatures.size(), 2u);
  const join::Signature &good = k->signatures[0];
  EXPECT_EQ(good.bindings.at("cols.divisor"), Number(int64_t{3}));
  EXPECT_EQ(good.values[join::Write], 4000.0);
  EXPECT_EQ(good.values[join::Read], 12000.0);
  const join::Signature &broken = k->signatures[1];
  EXPECT_EQ(broken.values[join::Write], std::nullopt) << "4 * (n / cols.divisor) does not hold";
  EXPECT_EQ(broken.values[join::Read], 12000.0) << "4 * n names no division";
  EXPECT_EQ(broken.values[join::Flops], 3000.0) << "n names no division";
  ASSERT_EQ(run.notEvaluated().size(), 1u);
  EXPECT_NE(run.notEvaluated()[0].find("cols.multiplier = 1431655765 and cols.shift = 2 do not divide by "
                                       "cols.divisor = 3"),
            std::string::npos)
      << run.notEvaluated()[0];
}

TEST(LaunchJoin, BindsATestedPointerToWhetherItIsGivenAndKeysItsLaunchesSo) {
  // `if (bias) v += bias[i];` and a gate in a struct, `if (fusion.gate) ...`: the formulas name both pointers.
  StaticKernel k;
  k.name = "fused";
  k.mangled = "_Z5fusedPfPKfS1_i6Fusion";
  k.params = {{0, "out", "float *", 8, {}},
              {1, "in", "const float *", 8, {}},
              {2, "bias", "const float *", 8, {}},
              {3, "n", "int", 4, {}},
              {4, "fusion", "Fusion", 8, {{"fusion.gate", "const float *", 0, 8}}}};
  k.flops = {q("n + bias * n + 2 * fusion.gate * n"), q("0"), q("n + bias * n + 2 * fusion.gate * n"),
             q("0"), q("0"), q("0"), q("0")};
  k.bytes = {q("8 * n"), q("4 * n"), q("12 * n"), q("12 * n")};
  k.intensity = {Quantity::unknown(), Quantity::unknown()};
  StaticDocument doc{"t", "sm_90", {k}};
  join::LaunchJoin run({{"k.static.json", &doc}});
  auto launch = [&](int64_t index, const std::string &in, const std::string &bias, const std::string &gate) {
    Launch l;
    l.index = index;
    l.mangled = k.mangled;
    l.grid = {4, 1, 1};
    l.block = {256, 1, 1};
    l.args = {{0, 0, 8, "00001000007f0000", std::nullopt}, {1, 8, 8, in, std::nullopt},
              {2, 16, 8, bias, std::nullopt}, {3, 24, 4, littleEndian(1000), 1000},
              {4, 32, 8, gate, std::nullopt}};
    return l;
  };
  const std::string given = "0000a00b737f0000", other = "0000b00b737f0000", null = "0000000000000000";
  MeasuredFile file;
  // Two addresses of the untested input and of the bias are one signature; a null bias or gate another each.
  file.launches = {launch(0, given, given, null), launch(1, other, other, null), launch(2, given, null, null),
                   launch(3, given, given, given)};
  run.add(file, "k.jsonl");
  const join::JoinedKernel *joined = run.find(k.mangled);
  ASSERT_NE(joined, nullptr);
  ASSERT_EQ(joined->signatures.size(), 3u);
  EXPECT_EQ(joined->signatures[0].tally.launches, 2);
  EXPECT_EQ(joined->signatures[0].values[join::Flops], 2000.0);
  EXPECT_EQ(joined->signatures[1].values[join::Flops], 1000.0);
  EXPECT_EQ(joined->signatures[2].values[join::Flops], 4000.0);
  EXPECT_EQ(joined->signatures[0].bindings.count("in"), 0u) << "a pointer the formulas do not name stays unbound";
  EXPECT_EQ(joined->signatures[2].bindings.at("fusion.gate"), Number(int64_t{1}));
  EXPECT_TRUE(run.notEvaluated().empty());
}
