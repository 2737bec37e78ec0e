#include "roofcheck/Claims.h"

#include "roofcheck/Bindings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

namespace roofcheck {

const char *toString(Relation relation) {
  switch (relation) {
  case Relation::Equal:
    return "==";
  case Relation::AtLeast:
    return ">=";
  case Relation::AtMost:
    return "<=";
  case Relation::Greater:
    return ">";
  case Relation::Less:
    return "<";
  }
  return "?";
}

const char *toString(Verdict verdict) {
  switch (verdict) {
  case Verdict::Held:
    return "held";
  case Verdict::Failed:
    return "failed";
  case Verdict::NotCheckable:
    return "not checkable";
  }
  return "?";
}

// ------------------------------------------------------------------------------------ parsing

namespace {

// Short names an author may write, and the canonical subject each stands for.
const std::map<std::string, std::string> &subjectAliases() {
  static const std::map<std::string, std::string> aliases = {
      {"intensity", "intensity.ideal"}, {"intensity.ideal", "intensity.ideal"},
      {"intensity.predicted", "intensity.predicted"},
      {"flops", "flops.total"},         {"flops.total", "flops.total"},
      {"flops.fp64", "flops.fp64"},     {"flops.fp32", "flops.fp32"},
      {"flops.fp16", "flops.fp16"},     {"flops.bf16", "flops.bf16"},
      {"flops.tensor", "flops.tensor"}, {"flops.special", "flops.special"},
      {"bytes", "bytes.ideal"},         {"bytes.ideal", "bytes.ideal"},
      {"bytes.read", "bytes.read"},     {"bytes.write", "bytes.write"},
      {"bytes.predicted", "bytes.predicted"},
      {"bound", "bound"}};
  return aliases;
}

std::string located(const ClaimSource &at, int column, const std::string &message) {
  return at.file + ":" + std::to_string(at.line) + ":" + std::to_string(column) + ": " + message;
}

size_t skipSpace(std::string_view text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
    ++i;
  return i;
}

size_t trimEnd(std::string_view text, size_t end) {
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
    --end;
  return end;
}

Claim parseOne(std::string_view text, size_t begin, size_t end, const ClaimSource &source) {
  auto column = [&](size_t offset) { return source.column + static_cast<int>(offset); };
  begin = skipSpace(text, begin);
  end = trimEnd(text, end);
  std::string_view claimText = text.substr(begin, end - begin);

  // The relation is the first comparison operator in the claim.
  size_t at = claimText.find_first_of("=<>");
  if (at == std::string_view::npos)
    throw ClaimError(located(source, column(begin), "claim '" + std::string(claimText) +
                                                        "' has no comparison (==, >=, <=, >, <)"));
  Relation relation;
  size_t width = 2;
  std::string_view op = claimText.substr(at, 2);
  if (op == "==")
    relation = Relation::Equal;
  else if (op == ">=")
    relation = Relation::AtLeast;
  else if (op == "<=")
    relation = Relation::AtMost;
  else if (claimText[at] == '>')
    relation = Relation::Greater, width = 1;
  else if (claimText[at] == '<')
    relation = Relation::Less, width = 1;
  else
    throw ClaimError(located(source, column(begin + at), "'=' is not a comparison; write '=='"));

  std::string subject(claimText.substr(0, trimEnd(claimText, at)));
  auto alias = subjectAliases().find(subject);
  if (alias == subjectAliases().end())
    throw ClaimError(located(source, column(begin),
                             "unknown claim subject '" + subject +
                                 "' (intensity, flops, bytes, bound, or a field such as flops.fp32, bytes.read, "
                                 "intensity.predicted)"));

  Claim claim;
  claim.text = std::string(claimText);
  claim.subject = alias->second;
  claim.relation = relation;
  claim.source = {claim.text, source.file, source.line, column(begin)};

  size_t valueBegin = skipSpace(text, begin + at + width);
  std::string value(text.substr(valueBegin, end - valueBegin));
  if (claim.subject == "bound") {
    if (relation != Relation::Equal)
      throw ClaimError(located(source, column(begin + at), "a bound claim is 'bound == memory' or 'bound == compute'"));
    if (value == "memory")
      claim.boundClass = Bound::Memory;
    else if (value == "compute")
      claim.boundClass = Bound::Compute;
    else
      throw ClaimError(located(source, column(valueBegin), "a bound is 'memory' or 'compute', not '" + value + "'"));
    return claim;
  }
  try {
    claim.expected = Expr::parse(value);
  } catch (const ParseError &e) {
    int where = column(valueBegin) + static_cast<int>(e.column()) - 1;
    std::string message = e.what();
    message = message.substr(message.find(": ") + 2); // drop the expression-relative column
    throw ClaimError(located(source, where, message));
  }
  return claim;
}

} // namespace

std::vector<Claim> parseClaims(std::string_view text, const ClaimSource &source) {
  std::vector<Claim> claims;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(';', begin);
    if (end == std::string_view::npos)
      end = text.size();
    if (skipSpace(text, begin) < trimEnd(text, end))
      claims.push_back(parseOne(text, begin, end, source));
    begin = end + 1;
  }
  if (claims.empty())
    throw ClaimError(located(source, source.column, "empty claim comment"));
  return claims;
}

std::vector<ClaimSource> findClaimComments(std::string_view sourceText, const std::string &file) {
  std::vector<ClaimSource> found;
  size_t lineStart = 0;
  int line = 1;
  bool inBlockComment = false;
  while (lineStart <= sourceText.size()) {
    size_t lineEnd = sourceText.find('\n', lineStart);
    if (lineEnd == std::string_view::npos)
      lineEnd = sourceText.size();
    std::string_view lineText = sourceText.substr(lineStart, lineEnd - lineStart);
    // Where comments are on this line: after "//", or inside "/* ... */" (possibly from an earlier line).
    size_t i = 0;
    while (i < lineText.size()) {
      if (inBlockComment) {
        size_t close = lineText.find("*/", i);
        size_t stop = close == std::string_view::npos ? lineText.size() : close;
        size_t marker = lineText.substr(0, stop).find(ClaimMarker, i);
        if (marker != std::string_view::npos) {
          size_t textBegin = skipSpace(lineText, marker + ClaimMarker.size());
          found.push_back({std::string(lineText.substr(textBegin, trimEnd(lineText, stop) - textBegin)), file, line,
                           static_cast<int>(textBegin) + 1});
        }
        if (close == std::string_view::npos)
          break;
        inBlockComment = false;
        i = close + 2;
        continue;
      }
      size_t lineComment = lineText.find("//", i);
      size_t blockComment = lineText.find("/*", i);
      if (lineComment != std::string_view::npos && (blockComment == std::string_view::npos || lineComment < blockComment)) {
        size_t marker = lineText.find(ClaimMarker, lineComment);
        if (marker != std::string_view::npos) {
          size_t textBegin = skipSpace(lineText, marker + ClaimMarker.size());
          found.push_back({std::string(lineText.substr(textBegin, trimEnd(lineText, lineText.size()) - textBegin)), file,
                           line, static_cast<int>(textBegin) + 1});
        }
        break;
      }
      if (blockComment == std::string_view::npos)
        break;
      inBlockComment = true;
      i = blockComment + 2;
    }
    ++line;
    lineStart = lineEnd + 1;
    if (lineEnd == sourceText.size())
      break;
  }
  return found;
}

std::vector<std::string> attachClaimComments(StaticDocument &doc) {
  std::vector<std::string> unread;
  std::map<std::string, std::vector<StaticKernel *>> byFile;
  for (StaticKernel &k : doc.kernels)
    byFile[k.file].push_back(&k);
  for (auto &[file, kernels] : byFile) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    if (in)
      text << in.rdbuf();
    if (!in || in.bad()) {
      unread.push_back(file);
      continue;
    }
    std::vector<ClaimSource> comments = findClaimComments(text.str(), file);
    std::set<int> kernelLines;
    for (StaticKernel *k : kernels)
      kernelLines.insert(k->line);
    for (StaticKernel *k : kernels) {
      auto previous = kernelLines.find(k->line);
      int after = previous == kernelLines.begin() ? 0 : *std::prev(previous);
      k->claims.clear();
      for (const ClaimSource &c : comments)
        if (c.line > after && c.line <= k->line) {
          parseClaims(c.text, c);
          k->claims.push_back(c);
        }
    }
  }
  return unread;
}

// ----------------------------------------------------------------------------------- checking

namespace {

std::string format(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

const Quantity *estimateOf(const StaticKernel &k, const std::string &subject) {
  if (subject == "intensity.ideal")
    return &k.intensity.ideal;
  if (subject == "intensity.predicted")
    return &k.intensity.predicted;
  if (subject == "flops.total")
    return &k.flops.total;
  if (subject == "flops.fp64")
    return &k.flops.fp64;
  if (subject == "flops.fp32")
    return &k.flops.fp32;
  if (subject == "flops.fp16")
    return &k.flops.fp16;
  if (subject == "flops.bf16")
    return &k.flops.bf16;
  if (subject == "flops.tensor")
    return &k.flops.tensor;
  if (subject == "flops.special")
    return &k.flops.special;
  if (subject == "bytes.ideal")
    return &k.bytes.ideal;
  if (subject == "bytes.read")
    return &k.bytes.read;
  if (subject == "bytes.write")
    return &k.bytes.write;
  if (subject == "bytes.predicted")
    return &k.bytes.predicted;
  return nullptr;
}

/// Whether `actual RELATION expected` holds, allowing a relative slack (0 for exact comparisons, where
/// only rounding of doubles is forgiven).
bool holds(double actual, Relation relation, double expected, double slack) {
  double margin = std::max(slack * std::fabs(expected), 1e-9 * std::max(std::fabs(actual), std::fabs(expected)));
  switch (relation) {
  case Relation::Equal:
    return std::fabs(actual - expected) <= margin;
  case Relation::AtLeast:
    return actual >= expected - margin;
  case Relation::AtMost:
    return actual <= expected + margin;
  case Relation::Greater:
    return actual > expected - margin;
  case Relation::Less:
    return actual < expected + margin;
  }
  return false;
}

bool isPolynomial(const Expr &e) {
  switch (e.kind()) {
  case Expr::Kind::Integer:
  case Expr::Kind::Real:
  case Expr::Kind::Symbol:
    return true;
  case Expr::Kind::Neg:
    return isPolynomial(e.lhs());
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
  case Expr::Kind::Mul:
    return isPolynomial(e.lhs()) && isPolynomial(e.rhs());
  default:
    return false;
  }
}

std::string joined(const std::set<std::string> &names) {
  std::string out;
  for (const auto &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string unknownBecause(const StaticKernel &k) {
  if (k.unknowns.empty())
    return "";
  const Unknown &u = k.unknowns.front();
  return ": " + describeUnknown(u) + " at " + u.file + ":" + std::to_string(u.line);
}

/// The roofline of the ceilings for a kernel's FLOP bucket, or why there is none.
struct RoofChoice {
  std::optional<Roofline> roofline;
  std::string whyNot;
};

/// dtype: of the bucket's ceiling, where the counters or the estimate tell it (Tally::roofDtype,
/// dominantTensorType); "" for the bucket's fastest.
RoofChoice roofFor(const std::optional<FlopBucket> &bucket, const CeilingsDocument *ceilings,
                   const std::string &dtype = "") {
  if (!ceilings)
    return {std::nullopt, "needs a ceilings file (--ceilings)"};
  if (!bucket)
    return {std::nullopt, "the kernel does no FLOPs, so it has no bound class"};
  if (!ceilings->bestCompute(toString(*bucket), dtype)) {
    std::string ceiling = std::string(toString(*bucket)) + (dtype.empty() ? "" : " " + dtype);
    return {std::nullopt, "the ceilings have no " + ceiling + " compute ceiling"};
  }
  if (!ceilings->bestMemory("dram"))
    return {std::nullopt, "the ceilings have no dram bandwidth ceiling"};
  return {ceilings->roofline(*bucket, dtype), ""};
}

ClaimResult boundVerdict(Bound claimed, const Roofline &roofline, double intensity, const std::string &what) {
  Classification c = roofline.classify(intensity);
  std::string detail = what + " intensity " + format(intensity) + " FLOP/B is " +
                       (c.bound == Bound::Memory ? "below" : "at or above") + " the ridge " + format(c.ridge) +
                       " of " + roofline.compute().name + " over dram: " + toString(c.bound) + "-bound";
  return {c.bound == claimed ? Verdict::Held : Verdict::Failed, detail};
}

} // namespace

ClaimResult checkAgainstEstimate(const Claim &claim, const StaticKernel &kernel, const Bindings &bindings,
                                 const CeilingsDocument *ceilings) {
  if (claim.subject == "bound") {
    if (!ceilings)
      return {Verdict::NotCheckable, "needs a ceilings file (--ceilings)"};
    BucketFlops byBucket;
    const Quantity *buckets[] = {&kernel.flops.fp64, &kernel.flops.fp32, &kernel.flops.fp16, &kernel.flops.bf16,
                                 &kernel.flops.tensor};
    for (size_t i = 0; i < byBucket.size(); ++i) {
      byBucket[i] = buckets[i]->evaluate(bindings);
      if (!byBucket[i])
        return {Verdict::NotCheckable, std::string("the ") + toString(static_cast<FlopBucket>(i)) +
                                           " FLOP estimate needs every symbol bound" +
                                           (buckets[i]->known() ? " (--arg NAME=VALUE, --grid, --block)"
                                                                : unknownBecause(kernel))};
    }
    std::map<std::string, double> tensorByType;
    for (const auto &[type, flops] : kernel.flops.tensorByType)
      if (std::optional<double> value = flops.evaluate(bindings))
        tensorByType[type] = *value;
    std::optional<FlopBucket> bucket = dominantBucket(byBucket);
    RoofChoice roof = roofFor(bucket, ceilings, bucket == FlopBucket::Tensor ? dominantTensorType(tensorByType) : "");
    if (!roof.roofline)
      return {Verdict::NotCheckable, roof.whyNot};
    std::optional<double> intensity = kernel.intensity.predicted.evaluate(bindings);
    const char *which = "predicted";
    if (!intensity) {
      intensity = kernel.intensity.ideal.evaluate(bindings);
      which = "ideal";
    }
    if (!intensity)
      return {Verdict::NotCheckable, "the intensity estimate needs every symbol bound" + unknownBecause(kernel)};
    return boundVerdict(*claim.boundClass, *roof.roofline, *intensity, std::string("the ") + which);
  }

  const Quantity *q = estimateOf(kernel, claim.subject);
  if (!q || !q->known())
    return {Verdict::NotCheckable, "the estimate of " + claim.subject + " is unknown" + unknownBecause(kernel)};
  // A formula that holds for some launches only is checked at one that it holds for.
  if (!q->knownWhen.empty()) {
    std::string why;
    Quantity test{q->knownWhen, std::nullopt, ""};
    std::optional<double> holds = test.evaluate(bindings, &why);
    if (!holds)
      return {Verdict::NotCheckable, "the estimate of " + claim.subject + " holds only where " + q->knownWhen +
                                         ", which " + why + " (--arg NAME=VALUE)"};
    if (*holds == 0)
      return {Verdict::NotCheckable, "the estimate of " + claim.subject + " is unknown where " + q->knownWhen +
                                         " is 0, as for this launch" + unknownBecause(kernel)};
  }
  Expr estimate = Expr::parse(q->expr);
  const Expr &expected = *claim.expected;
  std::string relation = std::string(" ") + toString(claim.relation) + " ";
  try {
    Number actual = estimate.evaluate(bindings);
    Number wanted = expected.evaluate(bindings);
    bool ok = holds(actual.toDouble(), claim.relation, wanted.toDouble(), 0);
    return {ok ? Verdict::Held : Verdict::Failed,
            "estimate " + format(actual.toDouble()) + (ok ? relation : " is not" + relation) +
                format(wanted.toDouble())};
  } catch (const UnboundSymbolsError &) {
    // Decided below, symbolically where possible.
  } catch (const Error &e) {
    return {Verdict::NotCheckable, e.what()};
  }
  Expr difference = (estimate - expected).substituted(bindings);
  std::string estimateText = estimate.substituted(bindings).str();
  if (difference.isConstant()) {
    double d = difference.kind() == Expr::Kind::Integer ? static_cast<double>(difference.integerValue())
                                                         : difference.realValue();
    bool ok = holds(d, claim.relation, 0, 0);
    return {ok ? Verdict::Held : Verdict::Failed,
            "estimate " + estimateText + (ok ? " matches the claim for every size" : " differs from the claim by " +
                                                                                          difference.str())};
  }
  if (claim.relation == Relation::Equal && isPolynomial(difference))
    return {Verdict::Failed, "estimate " + estimateText + " is not " + expected.str() + " (they differ by " +
                                 difference.str() + ")"};
  std::set<std::string> unbound = estimate.symbols();
  for (const auto &name : expected.symbols())
    unbound.insert(name);
  for (const auto &[name, value] : bindings)
    unbound.erase(name);
  return {Verdict::NotCheckable,
          "estimate " + estimateText + "; bind " + joined(unbound) + " to compare (--arg NAME=VALUE, --grid, --block)"};
}

namespace {

/// What one signature's profiled launches measured for a claim's subject, a launch on average, or why
/// they cannot say.
struct SignatureMeasure {
  std::optional<double> value;
  std::string lacking;  ///< why there is no value
  std::string adjusted; ///< how the traffic was read, where not as counted
};

SignatureMeasure measureSignature(const Claim &claim, const join::JoinedKernel &kernel, const join::Signature &sig,
                                  const CeilingsDocument *ceilings, double tolerance) {
  const join::Tally &t = sig.tally;
  double launches = static_cast<double>(t.profiled);
  auto perLaunch = [&](const std::optional<double> &total) {
    return total ? std::optional<double>(*total / launches) : std::nullopt;
  };
  const std::string &s = claim.subject;
  if (s == "flops.total")
    return {perLaunch(t.total(t.flops)), "", ""};
  if (s == "flops.fp64")
    return {perLaunch(t.total(t.fp64)), "", ""};
  if (s == "flops.fp32")
    return {perLaunch(t.total(t.fp32)), "", ""};
  if (s == "flops.fp16")
    return {perLaunch(t.total(t.fp16)), "", ""};
  if (s == "flops.tensor")
    return {perLaunch(t.total(t.tensor)), "", ""};

  join::CausedTraffic caused = join::causedTraffic(join::factsOf(kernel, t, ceilings), tolerance);
  bool usesRead = s != "bytes.write", usesWrite = s != "bytes.read";
  std::vector<std::string> notes;
  if (usesWrite && caused.dirtyWriteBack)
    notes.push_back("writes less " + format(*caused.dirtyWriteBack / launches) +
                    " B of earlier launches' dirty lines written back during it (dirty-lines-written-back)");
  if (usesWrite && caused.writesHeldInL2)
    notes.push_back("writes taken as the kernel's " + format(*caused.write / launches) + " B (DRAM counted " +
                    format(*perLaunch(t.total(t.dramWrite))) +
                    "): the rest was still in the write-back L2 when it ended (outputs-held-in-l2)");
  if (usesRead && caused.readsServedFromL2)
    notes.push_back("reads taken as the kernel's " + format(*caused.read / launches) + " B (DRAM counted " +
                    format(*perLaunch(t.total(t.dramRead))) +
                    "): L2 served the rest from lines an earlier launch left (inputs-served-from-l2)");
  std::string adjusted;
  for (const std::string &n : notes)
    adjusted += (adjusted.empty() ? "" : "; ") + n;

  std::optional<double> dram;
  if (caused.read && caused.write)
    dram = *caused.read + *caused.write;
  if (s == "bytes.read")
    return {perLaunch(caused.read), "", adjusted};
  if (s == "bytes.write")
    return {perLaunch(caused.write), "", adjusted};
  if (s == "bytes.ideal" || s == "bytes.predicted")
    return {perLaunch(dram), "", adjusted};
  // intensity.* and bound: FLOPs over the DRAM bytes
  std::optional<double> flops = t.total(t.flops);
  if (!flops || !dram || *dram <= 0)
    return {std::nullopt, "no FLOP or DRAM byte counters", ""};
  return {*flops / *dram, "", adjusted};
}

} // namespace

ClaimResult checkAgainstMeasurement(const Claim &claim, const join::JoinedKernel &kernel,
                                    const CeilingsDocument *ceilings, double tolerance) {
  const std::string &s = claim.subject;
  if (s == "flops.bf16" || s == "flops.special")
    return {Verdict::NotCheckable, s + " is not measured by the SASS FLOP counters"};
  int64_t heldLaunches = 0;
  std::string lastDetail;
  std::vector<std::string> lacking;
  for (const join::Signature &sig : kernel.signatures) {
    const join::Tally &t = sig.tally;
    if (t.profiled == 0)
      continue;
    bool one = t.profiled == 1;
    std::string where = (one ? std::string("the profiled launch") : "the " + std::to_string(t.profiled) +
                                                                       " profiled launches") +
                        " at grid " + dimText(sig.grid) + " block " + dimText(sig.block);
    std::string lack = one ? " lacks" : " lack", have = one ? " has " : " have ";
    // A total that leaves a precision out for want of its counters decides nothing that depends on it.
    bool needsTotal = s == "bound" || s == "flops.total" || s.rfind("intensity", 0) == 0;
    if (needsTotal && !t.uncountedPrecisions.empty())
      return {Verdict::NotCheckable, where + lack + " the counters for " + *t.uncountedPrecisions.begin() +
                                         ", part of the FLOPs " +
                                         (s == "flops.total" ? "total" : "that " + s + " needs")};
    SignatureMeasure m = measureSignature(claim, kernel, sig, ceilings, tolerance);
    if (!m.value) {
      lacking.push_back(where + (m.lacking.empty() ? lack + " the counters for " + s : have + m.lacking));
      continue;
    }
    std::string adjusted = m.adjusted.empty() ? "" : " (" + m.adjusted + ")";
    if (s == "bound") {
      RoofChoice roof = roofFor(t.roofBucket(), ceilings, t.roofDtype());
      if (!roof.roofline)
        return {Verdict::NotCheckable, roof.whyNot};
      ClaimResult r = boundVerdict(*claim.boundClass, *roof.roofline, *m.value, where + ": the measured");
      r.detail += adjusted;
      if (r.verdict == Verdict::Failed)
        return r;
      lastDetail = r.detail;
      heldLaunches += t.profiled;
      continue;
    }
    double wanted;
    try {
      wanted = claim.expected->evaluate(sig.bindings).toDouble();
    } catch (const Error &e) {
      return {Verdict::NotCheckable, where + ": " + e.what()};
    }
    std::string comparison = "measured " + format(*m.value) + " " + toString(claim.relation) + " " + format(wanted);
    if (!holds(*m.value, claim.relation, wanted, tolerance))
      return {Verdict::Failed, where + ": " + comparison + " does not hold (tolerance " + format(tolerance * 100) +
                                   "%)" + adjusted};
    lastDetail = comparison + adjusted;
    heldLaunches += t.profiled;
  }
  if (heldLaunches == 0)
    return {Verdict::NotCheckable,
            lacking.empty() ? "no profiled launch of " + kernel.name + " in the measured files" : lacking.front()};
  std::string skipped = lacking.empty() ? ""
                                        : "; " + std::to_string(lacking.size()) + " other signature" +
                                              (lacking.size() == 1 ? "" : "s") + " could not say (first: " +
                                              lacking.front() + ")";
  return {Verdict::Held, "held on " + std::to_string(heldLaunches) + " profiled launch" +
                             (heldLaunches == 1 ? "" : "es") + " (last: " + lastDetail + ")" + skipped};
}

} // namespace roofcheck
