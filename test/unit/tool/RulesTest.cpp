// The lint rules on hand-built estimates (no compiler run): what each rule reports and where its threshold
// lies, the configuration's rule patterns, inline suppressions and the SARIF fingerprints.
#include "FindingViews.h"
#include "LintConfig.h"
#include "LintOutput.h"
#include "Suppressions.h"
#include "rules/RuleEngine.h"
#include "rules/Rules.h"

#include "../TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>

namespace roofcheck::lint {
namespace {

CountedAccess access(const char *pointer, const char *kind, Expr stride, int line, int column) {
  CountedAccess a;
  a.access.pointer = pointer;
  a.access.kind = kind;
  a.access.file = "k.cu";
  a.access.line = line;
  a.access.column = column;
  a.strideExpr = stride;
  a.elementBytes = 4;
  return a;
}

KernelEstimate estimate(std::vector<CountedAccess> accesses) {
  KernelEstimate e;
  e.source.name = "k";
  e.source.mangled = "_Z1kv";
  e.source.file = "k.cu";
  e.source.line = 1;
  e.source.column = 17;
  e.accesses = std::move(accesses);
  return e;
}

std::vector<Finding> check(const Rule &rule, const KernelEstimate &e, const Bindings &bindings = {},
                           std::map<std::string, double> options = {}) {
  StaticDocument doc = buildStaticDocument({e}, bindings, "sm_90");
  std::vector<Finding> out;
  rule.check({e, doc.kernels.front(), bindings, nullptr}, RuleSettings(options), out);
  return out;
}

TEST(StaticDocument, AFormulaTooLongToWriteIsAnUnknownThatSaysSo) {
  KernelEstimate e = estimate({});
  Expr sum = Expr::symbol("n");
  for (int i = 0; i < 2000; ++i)
    sum = sum + Expr::symbol("param" + std::to_string(i)) * Expr::symbol("n");
  e.total = e.fp32 = sum;
  e.fp64 = e.fp16 = e.bf16 = e.tensor = e.special = e.read = e.write = Expr::integer(0);
  StaticDocument doc = buildStaticDocument({e}, {}, "sm_90");
  const StaticKernel &k = doc.kernels.front();
  EXPECT_FALSE(k.flops.total.known());
  EXPECT_TRUE(k.bytes.read.known());
  ASSERT_FALSE(k.unknowns.empty());
  EXPECT_EQ(k.unknowns[0].reason.rfind("the formula for flops.total has ", 0), 0u) << k.unknowns[0].reason;
  EXPECT_NE(k.unknowns[0].reason.find("more than the 16384 a document holds"), std::string::npos);
  EXPECT_EQ(k.unknowns[0].line, 1);
}

TEST(UncoalescedAccessRule, ReportsTheTrafficFactorAndHonoursItsThreshold) {
  UncoalescedAccessRule rule;
  KernelEstimate e = estimate({access("out", "store", Expr::integer(4) * Expr::symbol("n"), 5, 16),
                               access("in", "load", Expr::integer(4), 5, 22),
                               access("pairs", "store", Expr::integer(8), 6, 16)});
  std::vector<Finding> found = check(rule, e, {{"n", Number(1024)}});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].message, "uncoalesced store to 'out': neighbouring threads are 4096 B apart, so a warp request "
                              "moves 32 sectors instead of 4 (8x the traffic)");
  EXPECT_EQ(found[0].where.line, 5);
  EXPECT_EQ(found[1].message, "uncoalesced store to 'pairs': neighbouring threads are 8 B apart, so a warp request "
                              "moves 8 sectors instead of 4 (2x the traffic)");
  // At a 3x threshold the 2x access passes; unbound, the stride is judged at realistic sizes.
  found = check(rule, e, {}, {{"roofcheck-uncoalesced-access.min-traffic-factor", 3}});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("4 * n B apart"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("at realistic sizes"), std::string::npos);
}

TEST(CacheReliantReuseRule, NeedsALoadThatABlockDimensionRepeatsInALoop) {
  CacheReliantReuseRule rule;
  Expr n = Expr::symbol("n");
  CountedAccess row = access("A", "load", Expr::integer(0), 9, 14);
  row.dependsOnThread = std::array<bool, 3>{false, true, false};
  row.loopLine = 8;
  row.requested = Expr::integer(4) * n * n * n;
  CountedAccess column = access("B", "load", Expr::integer(4), 9, 31);
  column.dependsOnThread = std::array<bool, 3>{true, false, false};
  column.loopLine = 8;
  column.requested = Expr::integer(4) * n * n * n;
  KernelEstimate e = estimate({row, column});
  e.read = Expr::integer(8) * n * n;
  e.write = Expr::integer(4) * n * n;

  std::vector<Finding> found = check(rule, e, {{"n", Number(128)}});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message, "kernel 'k' requests 85x its ideal bytes (16.8 MB for 197 kB) from global memory and "
                              "relies on L1/L2 to reuse it; stage the reused tiles in shared memory");
  ASSERT_EQ(found[0].notes.size(), 2u);
  EXPECT_EQ(found[0].notes[0].message,
            "every threadIdx.x of a block loads the same 'A' element, at each iteration of the loop at line 8");
  EXPECT_TRUE(check(rule, e, {{"n", Number(128)}}, {{"roofcheck-cache-reliant-reuse.min-reuse-factor", 100}}).empty());
  EXPECT_NE(check(rule, e).at(0).message.find("grows with the launch"), std::string::npos);
  // Unbound, a factor that stays small however large the sizes is no finding: every row of a matrix-vector
  // product reading x again requests 8 n^2 bytes against an ideal of 4 n^2 + 8 n, about 2x.
  KernelEstimate gemv = e;
  gemv.accesses[0].requested = gemv.accesses[1].requested = Expr::integer(4) * n * n;
  gemv.read = Expr::integer(4) * n * n + Expr::integer(4) * n;
  gemv.write = Expr::integer(4) * n;
  EXPECT_TRUE(check(rule, gemv).empty());
  EXPECT_EQ(check(rule, gemv, {}, {{"roofcheck-cache-reliant-reuse.min-reuse-factor", 1.5}}).size(), 1u);

  // A load the optimiser merged from two lines has no source line of its own: its note points at the kernel
  // and says why, so that every view (SARIF's artifact paths among them) has a place to show.
  KernelEstimate merged = e;
  merged.accesses[0].access.file.clear();
  merged.accesses[0].access.line = merged.accesses[0].access.column = 0;
  found = check(rule, merged, {{"n", Number(128)}});
  ASSERT_EQ(found.at(0).notes.size(), 2u);
  EXPECT_EQ(found[0].notes[0].where.file, "k.cu");
  EXPECT_EQ(found[0].notes[0].where.line, 1);
  EXPECT_EQ(found[0].notes[0].message, "every threadIdx.x of a block loads the same 'A' element, at each iteration "
                                       "of the loop at line 8 (in code inlined into kernel 'k' without a source line)");
  EXPECT_EQ(found[0].notes[1].where.line, 9);

  // Outside a loop, the same loads are no reuse left to the caches.
  e.accesses[0].loopLine = e.accesses[1].loopLine = 0;
  EXPECT_TRUE(check(rule, e, {{"n", Number(128)}}).empty());
}

TEST(UnboundedWorkRule, OnlyDataDependentLoopsOncePerPlace) {
  UnboundedWorkRule rule;
  KernelEstimate e = estimate({});
  e.write = Expr::integer(4);
  e.unknowns = {{"data-dependent loop", "k.cu", 7, 5, UnknownCause::DataDependentLoop},
                {"data-dependent loop (again)", "k.cu", 7, 5, UnknownCause::DataDependentLoop},
                {"indirect index", "k.cu", 9, 3, UnknownCause::IndirectAccess},
                {"loop trip count it cannot determine", "k.cu", 11, 3, UnknownCause::Analysis}};
  std::vector<Finding> found = check(rule, e);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message, "the work of kernel 'k' depends on data: data-dependent loop");
  EXPECT_EQ(found[0].where.line, 7);
  // The analyser's own limits are unknowns, not findings.
  e.unknowns.erase(e.unknowns.begin(), e.unknowns.begin() + 2);
  EXPECT_TRUE(check(rule, e).empty());
}

TEST(LintConfig, PatternsApplyInOrder) {
  LintConfig config;
  EXPECT_TRUE(config.enabled("roofcheck-claim"));
  config.rules = {"*", "-roofcheck-*-access", "roofcheck-uncoalesced-access"};
  EXPECT_TRUE(config.enabled("roofcheck-uncoalesced-access"));
  config.rules = {"-*", "roofcheck-claim"};
  EXPECT_FALSE(config.enabled("roofcheck-fp64-promotion"));
  EXPECT_TRUE(config.enabled("roofcheck-claim"));
  EXPECT_EQ(testing::errorOf([&] { applyRulePatterns(config, "roofcheck-claim, -nothing-like-it"); }),
            "--rules: '-nothing-like-it' matches no rule (roofcheck lint --list-rules shows them)");
}

TEST(Suppressions, LineNextLineAndKernelScopes) {
  std::vector<std::string> warnings;
  std::vector<Suppression> found = findSuppressions("a; // roofcheck-ignore\n"
                                                    "// roofcheck-ignore-next-line( roofcheck-claim ,roofcheck-fp64-promotion)\n"
                                                    "b;\n"
                                                    "// roofcheck-ignore-kernel(roofcheck-typo)\n"
                                                    "/* roofcheck-ignore is only read in line comments */\n",
                                                    "k.cu", warnings);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].scope, Suppression::Scope::Line);
  EXPECT_TRUE(found[0].rules.empty());
  EXPECT_EQ(found[1].scope, Suppression::Scope::NextLine);
  EXPECT_EQ(found[1].rules, (std::set<std::string>{"roofcheck-claim", "roofcheck-fp64-promotion"}));
  EXPECT_EQ(found[2].scope, Suppression::Scope::Kernel);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "k.cu:4:4: roofcheck-ignore names no rule 'roofcheck-typo' (roofcheck lint --list-rules shows them)");

  StaticKernel first, second;
  first.name = "first";
  first.file = second.file = "k.cu";
  first.line = 2;
  second.name = "second";
  second.line = 6;
  Finding inFirst{"roofcheck-claim", Severity::Error, {"k.cu", 3, 1, 2}, "m", "first", {}, {}};
  Finding inSecond{"roofcheck-claim", Severity::Error, {"k.cu", 7, 1, 2}, "m", "second", {}, {}};
  std::vector<Finding> findings = {inFirst, inSecond};
  Suppression kernelWide{Suppression::Scope::Kernel, "k.cu", 5, {}};
  EXPECT_EQ(applySuppressions(findings, {kernelWide}, {first, second}), 1);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kernel, "first");
}

TEST(SarifLog, FingerprintsFollowTheTextNotTheLine) {
  testing::TempDir dir;
  std::string file = dir.file("k.cu");
  auto fingerprintWith = [&](const std::string &text, int line) {
    std::ofstream(file) << text;
    SourceLines sources;
    Finding f{"roofcheck-fp64-promotion", Severity::Warning, {file, line, 5, 8}, "m", "k", {}, {}};
    Json log = sarifLog({f}, {findRule("roofcheck-fp64-promotion")}, dir.file(""), sources);
    const Json &result = log["runs"][0]["results"][0];
    EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "k.cu");
    return result["partialFingerprints"]["roofcheck/v1"].get<std::string>();
  };
  std::string before = fingerprintWith("x = y * 0.5;\n", 1);
  EXPECT_EQ(fingerprintWith("\n\n  x = y * 0.5;\n", 3), before);
  EXPECT_NE(fingerprintWith("x = y * 0.25;\n", 1), before);
}

TEST(SarifLog, ColumnsCountCodePointsNotBytes) {
  testing::TempDir dir;
  std::string file = dir.file("k.cu");
  // "é" is two bytes: clang's byte columns 13-16 of `0.5` are code points 12-15.
  std::ofstream(file) << "/* é */ y * 0.5;\n";
  SourceLines sources;
  Finding f{"roofcheck-fp64-promotion", Severity::Warning, {file, 1, 13, 16}, "m", "k", {}, {}};
  Json log = sarifLog({f}, {findRule("roofcheck-fp64-promotion")}, dir.file(""), sources);
  const Json &region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startColumn"], 12);
  EXPECT_EQ(region["endColumn"], 15);
  EXPECT_EQ(log["runs"][0]["columnKind"], "unicodeCodePoints");
}

} // namespace
} // namespace roofcheck::lint
