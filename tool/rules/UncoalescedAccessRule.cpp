#include "Rules.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <tuple>

namespace roofcheck::lint {
namespace {

// A stride that depends on sizes (4 * n) is judged at this size for every unbound symbol: any realistic
// row length puts neighbouring threads in different sectors.
constexpr int64_t NominalSize = 1024;

/// The subscript whose index produced an access: same file and line, same pointer, nearest column.
const IndexExpression *indexOf(const KernelSource &source, const GlobalAccess &access) {
  const IndexExpression *best = nullptr;
  for (const IndexExpression &index : source.indexes)
    if (index.where.line == access.line && index.pointer == access.pointer && index.where.file == access.file &&
        (!best || std::abs(index.where.column - access.column) < std::abs(best->where.column - access.column)))
      best = &index;
  return best;
}

/// Whether every symbol of a stride is a parameter that none of the kernel's known counts hold: an argument
/// that only places data (a tensor's element stride), not a size. A row length bounds the threads, so it is in
/// every count under its guard: the known ones suffice where one direction of bytes is known (ggml's
/// broadcast ops, whose other input's index is a modulo the engine cannot follow). No byte count known for every
/// launch: false (a count on one side of a test of parameters leaves out what the other side reads).
bool onlyLayoutArguments(const Expr &stride, const KernelContext &context) {
  const KernelEstimate &e = context.estimate;
  const std::optional<Expr> read = e.readKnownWhen ? std::nullopt : e.read;
  const std::optional<Expr> write = e.writeKnownWhen ? std::nullopt : e.write;
  if (!read && !write)
    return false;
  std::set<std::string> sizes;
  for (const std::optional<Expr> *count : {&e.total, &e.special, &read, &write})
    if (*count)
      for (const std::string &symbol : (*count)->symbols())
        sizes.insert(symbol);
  std::set<std::string> symbols = stride.symbols();
  return std::none_of(symbols.begin(), symbols.end(), [&](const std::string &symbol) {
    // blockDim.x is no argument; a struct's member (view.stride) is one.
    return sizes.count(symbol) || symbol.starts_with("blockDim.") || symbol.starts_with("gridDim.");
  });
}

/// A byte stride passed as an argument, possibly turned into elements and back by the source
/// (`w[tid * (nb1 / sizeof(float))]` is 4 * (nb1 / 4) bytes): the caller's layout.
bool isArgumentStride(const Expr &stride) {
  if (stride.kind() == Expr::Kind::Symbol)
    return true;
  return stride.kind() == Expr::Kind::Mul && stride.lhs().kind() == Expr::Kind::Integer &&
         stride.rhs().kind() == Expr::Kind::Div && stride.rhs().lhs().kind() == Expr::Kind::Symbol &&
         stride.rhs().rhs() == stride.lhs();
}

} // namespace

std::string UncoalescedAccessRule::summary() const {
  return "A global load or store whose stride along threadIdx.x makes each warp request move more 32-byte "
         "sectors than the data it uses.";
}

std::vector<RuleOption> UncoalescedAccessRule::options() const {
  return {{"min-traffic-factor", 2.0,
           "report accesses whose sectors per warp request are at least this many times those of a "
           "contiguous access of the same width"}};
}


void UncoalescedAccessRule::check(const KernelContext &context, const RuleSettings &settings,
                                  std::vector<Finding> &out) const {
  const double threshold = settings.option(id(), options().front());
  // One finding per pointer, kind and line: vector lanes split by the compiler, two fields of one struct.
  std::set<std::tuple<std::string, int, std::string, std::string>> seen;
  for (const CountedAccess &counted : context.estimate.accesses) {
    const GlobalAccess &access = counted.access;
    if (!counted.strideExpr || counted.elementBytes <= 0 ||
        seen.count({access.file, access.line, access.pointer, access.kind}))
      continue;
    // An access on one side of a test of parameters: not where the launch takes the other side.
    if (counted.when && valueUnder(*counted.when, context.bindings) == 0.0)
      continue;
    std::optional<double> stride = valueUnder(*counted.strideExpr, context.bindings);
    bool symbolic = !stride;
    if (symbolic) {
      // A record of several fields read side by side whose width is a parameter (`in[i * channels + 0..2]`):
      // the parameter counts fields, as many as the thread reads, not a row length.
      std::set<std::string> symbols = counted.strideExpr->symbols();
      int64_t fields = counted.runBytes / counted.elementBytes;
      const Expr &s = *counted.strideExpr;
      bool fieldCount = fields > 1 && s.kind() == Expr::Kind::Mul && s.lhs() == Expr::integer(counted.elementBytes) &&
                        s.rhs().kind() == Expr::Kind::Symbol;
      Bindings nominal = context.bindings;
      for (const std::string &symbol : symbols)
        nominal.emplace(symbol, Number(fieldCount ? fields : NominalSize));
      stride = valueUnder(*counted.strideExpr, nominal);
    }
    if (!stride)
      continue;
    // A stride that is itself an argument (ggml's nb0, a tensor's byte stride) is a layout the caller picks,
    // contiguous in the common case: nothing the source says. So is an element stride made of parameters
    // that bound nothing (ggml's sx0: no guard, loop or count has it), unlike a row length (rows in
    // out[x * rows + y], which the counts hold).
    if (symbolic && (isArgumentStride(*counted.strideExpr) || onlyLayoutArguments(*counted.strideExpr, context)))
      continue;
    // An address contiguous along threadIdx.y: the kernel makes y its fast axis (blocks of 1 x N threads),
    // which the launch, not the source, decides; a launch given with blockDim.x > 1 has decided otherwise.
    auto blockX = context.bindings.find("blockDim.x");
    bool xIsWide = blockX != context.bindings.end() && blockX->second.toDouble() > 1;
    if (counted.strideYExpr && !xIsWide) {
      std::optional<double> strideY = valueUnder(*counted.strideYExpr, context.bindings);
      if (strideY && *strideY != 0 && std::abs(*strideY) <= counted.elementBytes)
        continue;
    }
    int64_t strideBytes = std::llabs(static_cast<long long>(*stride));
    // Each thread's contiguous run (a loop over consecutive elements, accesses side by side) is what the
    // warp's requests tile: runs as long as the stride leave no gap, and L1 serves the rest of each sector.
    int64_t run = std::max(counted.elementBytes, counted.runBytes);
    // A thread that walks a row of symbolic length uses every sector of it over the loop (a row per
    // thread): judged at the nominal length, as a symbolic stride is.
    if (counted.runExpr) {
      Bindings nominal = context.bindings;
      for (const std::string &symbol : counted.runExpr->symbols())
        nominal.emplace(symbol, Number(NominalSize));
      if (std::optional<double> symbolicRun = valueUnder(*counted.runExpr, nominal))
        run = std::max(run, static_cast<int64_t>(*symbolicRun));
    }
    double sectors = sectorsPerRequest(strideBytes, run);
    double contiguous = sectorsPerRequest(run, run);
    double factor = sectors / contiguous;
    if (factor < threshold)
      continue;
    seen.emplace(access.file, access.line, access.pointer, access.kind);
    std::string strideText = symbolic ? counted.strideExpr->str() : formatNumber(static_cast<double>(strideBytes));
    std::string message = "uncoalesced " + access.kind + " " + (access.kind == "load" ? "from" : "to") + " '" +
                          access.pointer + "'" + (counted.when ? " (where " + counted.when->str() + ")" : "") +
                          ": neighbouring threads are " + strideText + " B apart, so a warp " +
                          "request moves " + formatNumber(sectors) + " sectors instead of " + formatNumber(contiguous) +
                          " (" + formatNumber(factor) + "x the traffic" + (symbolic ? " at realistic sizes" : "") + ")";
    Finding f = finding({access.file, access.line, access.column, access.column + 1}, message, context);
    std::string advice = "make threadIdx.x move the last index, or stage the tile through shared memory "
                         "so that both the load and the store are contiguous";
    if (const IndexExpression *index = indexOf(context.estimate.source, access))
      f.notes.push_back({index->where, "the index '" + index->text + "' moves " + counted.strideExpr->str() +
                                           " bytes per threadIdx.x; " + advice});
    else
      f.notes.push_back({f.where, advice});
    out.push_back(std::move(f));
  }
}

} // namespace roofcheck::lint
