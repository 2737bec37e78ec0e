#include "LintOutput.h"
#include "ParameterTests.h"
#include "rules/Rule.h"

#include "roofcheck/Version.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace roofcheck::lint {
namespace {

/// One kernel's quantities. A formula longer than a document holds is written as unknown (the contract
/// reads no longer text); the kernel's unknowns then say which quantity and why.
/// A formula that the bindings bind completely and that still has no value (a division by zero, an overflow,
/// a negative count) is a warning naming the reason: the user's launch, not the analysis, is at fault.
class KernelQuantities {
public:
  KernelQuantities(const Bindings &bindings, const KernelSource &source, std::vector<Unknown> &unknowns,
                   std::vector<std::string> *warnings)
      : bindings_(bindings), source_(source), unknowns_(unknowns), warnings_(warnings) {}

  Quantity operator()(const char *field, const std::optional<Expr> &e, const std::optional<Expr> &knownWhen = {}) {
    if (!e)
      return Quantity::unknown();
    Quantity q = Quantity::of(*e, bindings_, knownWhen);
    if (!q.known()) {
      unknowns_.push_back({std::string("the formula for ") + field + " has " +
                               std::to_string(e->simplified().str().size()) + " characters, more than the " +
                               std::to_string(Expr::MaxTextLength) + " a document holds",
                           source_.file, source_.line, source_.column, UnknownCause::Analysis, "", ""});
      return q;
    }
    std::string why;
    auto bound = [&](const std::optional<Expr> &formula) {
      return !formula || formula->substituted(bindings_).symbols().empty();
    };
    if (!q.value && warnings_ && bound(e) && bound(knownWhen) && !q.evaluate(bindings_, &why) && !why.empty())
      warnings_->push_back("kernel '" + source_.name + "': " + field + " = " + q.expr +
                           " has no value for the given launch: " + why);
    return q;
  }

  /// FLOP per byte of a byte count; none for a kernel that moves no global memory, which is a fact of the
  /// kernel, not a limit of the analysis (no unknown).
  Quantity intensity(const char *field, const std::optional<Expr> &flops, const std::optional<Expr> &bytes,
                     const std::optional<Expr> &knownWhen) {
    if (!flops || !bytes || bytes->simplified() == Expr::integer(0))
      return Quantity::unknown();
    Quantity q = (*this)(field, Expr::ratio(*flops, *bytes), knownWhen);
    // The factors cancelled leave a value where a launch moves no bytes (every thread fails the guard);
    // such a launch has no intensity.
    if (q.value && bytes->substituted(bindings_).symbols().empty()) {
      std::string why;
      std::optional<double> moved = Quantity::of(*bytes).evaluate(bindings_, &why);
      if (!moved || *moved == 0) {
        q.value.reset();
        if (warnings_)
          warnings_->push_back("kernel '" + source_.name + "': " + field + " = " + q.expr +
                               " has no value for the given launch: " +
                               (moved ? std::string("it moves no bytes") : "its bytes have none (" + why + ")"));
      }
    }
    return q;
  }

private:
  const Bindings &bindings_;
  const KernelSource &source_;
  std::vector<Unknown> &unknowns_;
  std::vector<std::string> *warnings_;
};

void line(std::ostringstream &out, const char *label, const Quantity &q) {
  char padded[32];
  std::snprintf(padded, sizeof padded, "  %-19s ", label);
  out << padded;
  if (!q.known()) {
    out << "unknown\n";
    return;
  }
  out << q.expr;
  if (!q.knownWhen.empty())
    out << " where " << q.knownWhen;
  if (q.value && q.expr != formatNumber(*q.value))
    out << " = " << formatNumber(*q.value);
  out << "\n";
}

/// Keeps, of each parameter's members, those the kernel's formulas and divisions name: what the join must
/// bind.
void keepNamedFields(StaticKernel &k) {
  std::set<std::string> named = namedSymbols(k);
  for (const MagicDivision &d : k.divisions)
    named.insert({d.multiplier, d.shift, d.divisor});
  for (KernelParam &p : k.params)
    std::erase_if(p.fields, [&](const ParamField &f) { return !named.count(f.name); });
}

} // namespace

StaticDocument buildStaticDocument(const std::vector<KernelEstimate> &estimates, const Bindings &bindings,
                                   const std::string &arch, std::vector<std::string> *warnings) {
  StaticDocument doc;
  doc.generator = std::string("roofcheck-lint ") + Version;
  doc.arch = arch;
  for (const KernelEstimate &e : estimates) {
    StaticKernel k;
    k.name = e.source.name;
    k.mangled = e.source.symbol;
    k.file = e.source.file;
    k.line = e.source.line;
    k.params = e.source.params;
    k.unknowns = e.unknowns;
    KernelQuantities quantity(bindings, e.source, k.unknowns, warnings);
    k.flops = {quantity("flops.total", e.total),   quantity("flops.fp64", e.fp64), quantity("flops.fp32", e.fp32),
               quantity("flops.fp16", e.fp16),     quantity("flops.bf16", e.bf16), quantity("flops.tensor", e.tensor),
               quantity("flops.special", e.special), {}, {}};
    for (const auto &[operation, count] : e.specialByOperation)
      k.flops.specialByOperation.emplace(operation, quantity(("flops.special." + operation).c_str(), count));
    for (const auto &[type, count] : e.tensorBySourceType)
      k.flops.tensorByType.emplace(type, quantity(("flops.tensor_by_type." + type).c_str(), count));
    std::optional<Expr> ideal, predicted;
    if (e.read && e.write)
      ideal = *e.read + *e.write;
    if (e.predictedRead && e.predictedWrite)
      predicted = *e.predictedRead + *e.predictedWrite;
    // A sum holds where each of its terms does: both directions' tests, in their shortest form.
    std::optional<Expr> bothKnownWhen = e.readKnownWhen ? e.readKnownWhen : e.writeKnownWhen;
    if (e.readKnownWhen && e.writeKnownWhen) {
      Expr both = *e.readKnownWhen * *e.writeKnownWhen;
      std::optional<Where> where = whereHolds(both);
      if (!where)
        bothKnownWhen = both;
      else if (where->kind == Where::Kind::When)
        bothKnownWhen = where->when;
      else
        bothKnownWhen.reset();
      if (where && where->kind == Where::Kind::Never) // each direction unknown where the other is known
        ideal = predicted = std::nullopt;
    }
    k.bytes = {quantity("bytes.read", e.read, e.readKnownWhen), quantity("bytes.write", e.write, e.writeKnownWhen),
               quantity("bytes.ideal", ideal, bothKnownWhen), quantity("bytes.predicted", predicted, bothKnownWhen)};
    k.intensity.ideal = quantity.intensity("intensity.ideal", e.total, ideal, bothKnownWhen);
    k.intensity.predicted = quantity.intensity("intensity.predicted", e.total, predicted, bothKnownWhen);
    for (const CountedAccess &counted : e.accesses) {
      GlobalAccess a = counted.access;
      if (counted.strideExpr) {
        std::string why;
        if (std::optional<double> stride = valueUnder(*counted.strideExpr, bindings, &why)) {
          int64_t s = static_cast<int64_t>(std::llabs(static_cast<long long>(*stride)));
          a.strideBytes = static_cast<int64_t>(*stride);
          a.sectorsPerRequest = sectorsPerRequest(s, counted.elementBytes);
          a.coalesced = s <= counted.elementBytes;
        } else if (!why.empty() && warnings) {
          warnings->push_back(a.file + ":" + std::to_string(a.line) + ":" + std::to_string(a.column) + ": kernel '" +
                              e.source.name + "': the stride of '" + a.pointer + "' (" + counted.strideExpr->str() +
                              ") has no value for the given launch: " + why);
        }
      }
      // A vector access split into lanes by the compiler shows up once.
      bool repeated = false;
      for (const GlobalAccess &seen : k.accesses)
        repeated = repeated || (seen.pointer == a.pointer && seen.kind == a.kind && seen.file == a.file &&
                                seen.line == a.line && seen.column == a.column && seen.strideBytes == a.strideBytes);
      if (!repeated)
        k.accesses.push_back(a);
    }
    k.library = e.source.library;
    k.divisions = e.divisions;
    // Values bound to a multiplier and shift that do not divide by the divisor make every formula that
    // writes their quotient as a division wrong: no value then.
    std::string failed;
    std::set<std::string> broken = failedDivisionSymbols(k.divisions, bindings, &failed);
    bool lost = false;
    for (Quantity *q : broken.empty() ? std::vector<Quantity *>{} : quantitiesOf(k)) {
      if (!q->value) // a quantity with a value is known: its expression parses
        continue;
      std::set<std::string> named = Expr::parse(q->expr).symbols();
      if (std::any_of(named.begin(), named.end(), [&](const std::string &s) { return broken.count(s); })) {
        q->value.reset();
        lost = true;
      }
    }
    if (lost && warnings)
      warnings->push_back(k.file + ":" + std::to_string(k.line) + ": kernel '" + k.name + "': " + failed +
                          ", so the counts that divide by it have no value for the given launch");
    keepNamedFields(k);
    doc.kernels.push_back(std::move(k));
  }
  return doc;
}

std::string renderText(const StaticDocument &document, bool withLibraryKernels) {
  std::ostringstream out;
  for (const StaticKernel &k : document.kernels) {
    if (k.library && !withLibraryKernels)
      continue;
    out << k.file << ":" << k.line << ": kernel " << k.name << " (" << k.mangled << ")\n";
    line(out, "flops.total", k.flops.total);
    line(out, "flops.fp64", k.flops.fp64);
    line(out, "flops.fp32", k.flops.fp32);
    line(out, "flops.fp16", k.flops.fp16);
    line(out, "flops.bf16", k.flops.bf16);
    line(out, "flops.tensor", k.flops.tensor);
    line(out, "flops.special", k.flops.special);
    line(out, "bytes.read", k.bytes.read);
    line(out, "bytes.write", k.bytes.write);
    line(out, "bytes.ideal", k.bytes.ideal);
    line(out, "bytes.predicted", k.bytes.predicted);
    line(out, "intensity.ideal", k.intensity.ideal);
    line(out, "intensity.predicted", k.intensity.predicted);
    for (const GlobalAccess &a : k.accesses) {
      out << "  " << a.file << ":" << a.line << ":" << a.column << ": " << a.kind << " " << a.pointer;
      if (a.strideBytes) {
        out << ": stride " << *a.strideBytes << " B, " << formatNumber(*a.sectorsPerRequest) << " sectors/request, "
            << (*a.coalesced ? "coalesced" : "uncoalesced");
      } else {
        out << ": stride unknown";
      }
      out << "\n";
    }
    for (const MagicDivision &d : k.divisions)
      out << "  " << d.file << ":" << d.line << ":" << d.column << ": assumes: (umulhi(n, " << d.multiplier
          << ") + n) >> " << d.shift << " is n / " << d.divisor << "\n";
    for (const Unknown &u : k.unknowns)
      out << "  " << u.file << ":" << u.line << ":" << u.column << ": unknown: " << describeUnknown(u) << "\n";
  }
  return out.str();
}

std::string renderUnknownNotes(const StaticDocument &document) {
  std::ostringstream out;
  for (const StaticKernel &k : document.kernels)
    for (const Unknown &u : k.unknowns)
      out << u.file << ":" << u.line << ":" << u.column << ": note: kernel '" << k.name << "': " << describeUnknown(u)
          << " [unknown: " << unknownCauseName(u.cause) << "]\n";
  return out.str();
}

} // namespace roofcheck::lint
