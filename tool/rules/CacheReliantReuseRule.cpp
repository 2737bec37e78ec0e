#include "Rules.h"

#include "roofcheck/Bindings.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace roofcheck::lint {

std::string CacheReliantReuseRule::summary() const {
  return "A kernel whose threads load the same global data again and again inside a loop, so that it requests "
         "many times its ideal bytes and relies on L1/L2 for reuse that shared-memory tiling would make explicit.";
}

std::vector<RuleOption> CacheReliantReuseRule::options() const {
  return {{"min-reuse-factor", 8.0,
           "with the launch bound (--grid/--block/--arg), report only kernels whose requested bytes are at "
           "least this many times their ideal bytes"}};
}

namespace {

/// requested / ideal at a probe launch where the user bound nothing: up to 256 x 256 blocks of 32 x 8 threads
/// and 4096 for every other size, large enough that a factor which grows with the sizes (a naive matrix
/// product: hundreds) stands apart from one that does not (a matrix-vector product: about 2). A launch
/// dimension the footprint does not move with is 1: the kernel would only repeat its work along it. A pointer
/// the formulas test is given (1).
std::optional<double> factorAtProbeLaunch(const Expr &requested, const Expr &ideal, const Bindings &bound,
                                          const std::vector<KernelParam> &params) {
  static const std::map<std::string, int64_t> launch = {{"blockDim.x", 32}, {"blockDim.y", 8}, {"blockDim.z", 1},
                                                        {"gridDim.x", 256}, {"gridDim.y", 256}, {"gridDim.z", 1}};
  std::set<std::string> moving = ideal.symbols();
  Bindings probe = bound;
  for (const KernelParam &p : params) {
    if (isPointerType(p.type))
      probe.try_emplace(p.name, int64_t{1});
    for (const ParamField &f : p.fields)
      if (isPointerType(f.type))
        probe.try_emplace(f.name, int64_t{1});
  }
  for (const Expr *e : {&requested, &ideal})
    for (const std::string &name : e->symbols())
      if (!probe.count(name))
        probe[name] = Number(!launch.count(name) ? int64_t{4096} : moving.count(name) ? launch.at(name) : int64_t{1});
  std::optional<double> r = valueUnder(requested, probe), i = valueUnder(ideal, probe);
  if (!r || !i || *i <= 0)
    return std::nullopt;
  return *r / *i;
}

} // namespace

void CacheReliantReuseRule::check(const KernelContext &context, const RuleSettings &settings,
                                  std::vector<Finding> &out) const {
  const KernelEstimate &e = context.estimate;
  // Bytes known for some launches only are no footprint to judge reuse against.
  if (!e.read || !e.write || e.readKnownWhen || e.writeKnownWhen)
    return;
  // The thread dimensions the block spans: those some access moves with.
  std::array<bool, 3> spanned{false, false, false};
  for (const CountedAccess &counted : e.accesses)
    if (counted.dependsOnThread)
      for (int d = 0; d < 3; ++d)
        spanned[d] = spanned[d] || (*counted.dependsOnThread)[d];

  // Loads in a loop that every thread along a spanned dimension repeats: what shared memory would serve.
  std::vector<std::pair<const CountedAccess *, int>> repeated; // access, the dimension it ignores
  std::set<std::tuple<int, int, std::string>> seen;
  // A load that a guard leaves to a few threads along d (threadIdx.x == 0, a global index == 0) is not
  // repeated along d, however wide the block.
  for (const CountedAccess &counted : e.accesses) {
    if (counted.access.kind != "load" || !counted.dependsOnThread || counted.loopLine == 0)
      continue;
    // A fixed table that each warp walks once, its lanes on different entries (a constant-trip loop the
    // address moves with, and threadIdx.x): only the block's rows along y or z read it again, as they would
    // a load outside any loop. L1 serves them; shared memory would save nothing. (An n-body loop, every
    // lane on the same entry, stays reported.)
    if (counted.walksFixedLoop && (*counted.dependsOnThread)[0])
      continue;
    for (int d = 0; d < 3; ++d)
      if (spanned[d] && !(*counted.dependsOnThread)[d] && !counted.fewThreads[d] &&
          seen.emplace(counted.access.line, counted.access.column, counted.access.pointer).second) {
        repeated.emplace_back(&counted, d);
        break;
      }
  }
  if (repeated.empty())
    return;

  Expr requested = Expr::integer(0);
  for (const CountedAccess &counted : e.accesses) {
    if (!counted.requested)
      return; // an access executed an unknown number of times: no factor to judge
    requested = requested + *counted.requested;
  }
  Expr ideal = *e.read + *e.write;
  std::string failure;
  std::optional<double> requestedBytes = valueUnder(requested, context.bindings, &failure);
  std::optional<double> idealBytes = valueUnder(ideal, context.bindings, &failure);
  std::string amount;
  if (requestedBytes && idealBytes && *idealBytes > 0) {
    double factor = *requestedBytes / *idealBytes;
    if (factor < settings.option(id(), options().front()))
      return;
    amount = formatNumber(std::round(factor)) + "x its ideal bytes (" + formatBytes(*requestedBytes) + " for " +
             formatBytes(*idealBytes) + ")";
  } else if (requestedBytes && idealBytes) {
    return; // no thread of this launch does the work
  } else if (!failure.empty()) {
    amount = "a multiple of its ideal bytes that the given launch cannot evaluate (" + failure + ")";
  } else if (std::optional<double> factor = factorAtProbeLaunch(requested, ideal, context.bindings, e.source.params);
             factor && *factor < settings.option(id(), options().front())) {
    return; // reuse that stays small however large the sizes (x read once per row of a matrix-vector product)
  } else {
    amount = "a multiple of its ideal bytes that grows with the launch (bind --grid, --block and --arg for the "
             "factor)";
  }
  const KernelSource &source = e.source;
  Finding f = finding({source.file, source.line, source.column, source.column + 1},
                      "kernel '" + source.name + "' requests " + amount +
                          " from global memory and relies on L1/L2 to reuse it; stage the reused tiles in "
                          "shared memory",
                      context);
  for (const auto &[counted, d] : repeated) {
    const char axis = "xyz"[d];
    f.notes.push_back(note({counted->access.file, counted->access.line, counted->access.column,
                            counted->access.column + 1},
                           "every threadIdx." + std::string(1, axis) + " of a block loads the same '" +
                               counted->access.pointer + "' element, at each iteration of the loop at line " +
                               std::to_string(counted->loopLine),
                           context));
  }
  out.push_back(std::move(f));
}

} // namespace roofcheck::lint
