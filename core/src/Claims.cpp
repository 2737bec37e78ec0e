#include "roofcheck/Claims.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/Metrics.h"

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
  return ": " + u.reason + " at " + u.file + ":" + std::to_string(u.line);
}

/// The FLOP bucket with the most FLOPs, and the roofline of the ceilings for it and DRAM.
struct RoofChoice {
  std::optional<Roofline> roofline;
  std::string whyNot;
};

RoofChoice roofFor(const std::map<std::string, double> &flopsByBucket, const CeilingsDocument *ceilings) {
  if (!ceilings)
    return {std::nullopt, "needs a ceilings file (--ceilings)"};
  std::string bucket;
  double most = 0;
  for (const auto &[name, flops] : flopsByBucket)
    if (flops > most)
      most = flops, bucket = name;
  if (bucket.empty())
    return {std::nullopt, "the kernel does no FLOPs, so it has no bound class"};
  const ComputeCeiling *compute = ceilings->bestCompute(bucket);
  const MemoryCeiling *dram = ceilings->bestMemory("dram");
  if (!compute)
    return {std::nullopt, "the ceilings have no " + bucket + " compute ceiling"};
  if (!dram)
    return {std::nullopt, "the ceilings have no dram bandwidth ceiling"};
  return {Roofline({bucket, compute->flopsPerSecond}, {"dram", dram->bytesPerSecond}), ""};
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
    std::map<std::string, double> byBucket;
    const std::pair<const char *, const Quantity *> buckets[] = {{"fp64", &kernel.flops.fp64},
                                                                 {"fp32", &kernel.flops.fp32},
                                                                 {"fp16", &kernel.flops.fp16},
                                                                 {"bf16", &kernel.flops.bf16},
                                                                 {"tensor", &kernel.flops.tensor}};
    for (const auto &[name, q] : buckets) {
      std::optional<double> v = q->evaluate(bindings);
      if (!v)
        return {Verdict::NotCheckable, std::string("the ") + name + " FLOP estimate needs every symbol bound" +
                                           (q->known() ? " (--arg NAME=VALUE, --grid, --block)" : unknownBecause(kernel))};
      byBucket[name] = *v;
    }
    RoofChoice roof = roofFor(byBucket, ceilings);
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

ClaimResult checkAgainstMeasurement(const Claim &claim, const StaticKernel &kernel,
                                    const std::vector<const Launch *> &launches, const CeilingsDocument *ceilings,
                                    double tolerance) {
  if (launches.empty())
    return {Verdict::NotCheckable, "no profiled launch of " + kernel.name + " in the measured files"};
  int held = 0;
  std::string lastDetail;
  // Profiled launches alternate counter sets (roofcheck run's traffic set counts time and DRAM bytes only):
  // a launch without what the claim needs is passed over, and the claim is checked on those that have it.
  std::vector<std::string> lacking;
  for (const Launch *launch : launches) {
    auto metric = [&](const char *name) -> std::optional<double> {
      auto it = launch->metrics.find(name);
      return it == launch->metrics.end() ? std::nullopt : std::optional<double>(it->second);
    };
    MeasuredFlops flops = measuredFlops(launch->metrics);
    std::optional<double> read = metric(metrics::DramRead), write = metric(metrics::DramWrite);
    std::optional<double> dram;
    if (read && write)
      dram = *read + *write;
    std::optional<double> intensity;
    if (flops.total() && dram && *dram > 0)
      intensity = *flops.total() / *dram;
    std::string where = "launch " + std::to_string(launch->index);
    // A total that leaves a precision out for want of its counters decides nothing that depends on it.
    std::vector<std::string> uncounted = flops.uncounted();
    bool needsTotal = claim.subject == "bound" || claim.subject == "flops.total" ||
                      claim.subject.rfind("intensity", 0) == 0;
    if (needsTotal && !uncounted.empty())
      return {Verdict::NotCheckable, where + " lacks the counters for " + uncounted.front() + ", part of the FLOPs " +
                                         (claim.subject == "flops.total" ? "total" : "that " + claim.subject +
                                                                                          " needs")};

    if (claim.subject == "bound") {
      if (!intensity) {
        lacking.push_back(where + " has no FLOP or DRAM byte counters");
        continue;
      }
      RoofChoice roof = roofFor({{"fp64", flops.fp64.value_or(0)}, {"fp32", flops.fp32.value_or(0)},
                                 {"fp16", flops.fp16.value_or(0)}},
                                ceilings);
      if (!roof.roofline)
        return {Verdict::NotCheckable, roof.whyNot};
      ClaimResult r = boundVerdict(*claim.boundClass, *roof.roofline, *intensity, where + ": the measured");
      if (r.verdict == Verdict::Failed)
        return r;
      lastDetail = r.detail;
      ++held;
      continue;
    }

    std::optional<double> measured;
    const std::string &s = claim.subject;
    if (s == "flops.total")
      measured = flops.total();
    else if (s == "flops.fp64")
      measured = flops.fp64;
    else if (s == "flops.fp32")
      measured = flops.fp32;
    else if (s == "flops.fp16")
      measured = flops.fp16;
    else if (s == "flops.bf16" || s == "flops.tensor" || s == "flops.special")
      return {Verdict::NotCheckable, s + " is not measured by the SASS FLOP counters"};
    else if (s == "bytes.read")
      measured = read;
    else if (s == "bytes.write")
      measured = write;
    else if (s == "bytes.ideal" || s == "bytes.predicted")
      measured = dram;
    else
      measured = intensity;
    if (!measured) {
      lacking.push_back(where + " lacks the counters for " + s);
      continue;
    }

    Bindings bindings = launchBindings(kernel, *launch);
    double wanted;
    try {
      wanted = claim.expected->evaluate(bindings).toDouble();
    } catch (const Error &e) {
      return {Verdict::NotCheckable, where + ": " + e.what()};
    }
    std::string comparison = "measured " + format(*measured) + " " + toString(claim.relation) + " " + format(wanted);
    if (!holds(*measured, claim.relation, wanted, tolerance))
      return {Verdict::Failed, where + ": " + comparison + " does not hold (tolerance " +
                                   format(tolerance * 100) + "%)"};
    lastDetail = comparison;
    ++held;
  }
  if (held == 0)
    return {Verdict::NotCheckable, lacking.front()};
  std::string skipped = lacking.empty() ? ""
                                        : "; " + std::to_string(lacking.size()) + " other profiled launch" +
                                              (lacking.size() == 1 ? "" : "es") + " had another counter set (first: " +
                                              lacking.front() + ")";
  return {Verdict::Held, "held on " + std::to_string(held) + " profiled launch" + (held == 1 ? "" : "es") +
                             " (last: " + lastDetail + ")" + skipped};
}

} // namespace roofcheck
