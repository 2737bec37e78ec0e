#include "KernelCounter.h"
#include "FlopClassifier.h"
#include "InlinePtx.h"
#include "PassManagers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <set>

namespace roofcheck::lint {
namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

/// NVPTX address spaces (the NVPTX back end's numbering).
namespace AddressSpace {
constexpr unsigned Shared = 3, Constant = 4, Local = 5, Param = 101;
} // namespace AddressSpace

/// Whether a load reads a kernel parameter: a field of a struct passed by value (CUTLASS's Params), which
/// is a launch argument, not data.
bool readsParameter(const llvm::LoadInst *load) {
  const llvm::Value *pointer = load->getPointerOperand();
  if (pointer->getType()->getPointerAddressSpace() == AddressSpace::Param)
    return true;
  auto *arg = dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(pointer, 0));
  return arg && arg->hasByValAttr();
}

/// Whether a load reads the data the kernel works on: not a parameter (a launch argument), not a local
/// variable the optimiser left in memory (a struct it did not split, which holds what the thread computed).
bool readsData(const llvm::LoadInst *load) {
  return !readsParameter(load) && !isa<llvm::AllocaInst>(llvm::getUnderlyingObject(load->getPointerOperand(), 0));
}

/// Whether `value` is, or is computed from, a value that `leaf` accepts, looking at most `maxDepth` operands
/// deep; `leaf` answers for the values it recognises (nullopt: look at the operands).
bool reaches(const llvm::Value *value, const std::function<std::optional<bool>(const llvm::Value *)> &leaf,
             std::set<const llvm::Value *> &seen, int depth, int maxDepth) {
  if (depth > maxDepth || !seen.insert(value).second)
    return false;
  if (std::optional<bool> known = leaf(value))
    return *known;
  if (auto *inst = dyn_cast<llvm::Instruction>(value))
    for (const llvm::Value *op : inst->operands())
      if (reaches(op, leaf, seen, depth + 1, maxDepth))
        return true;
  return false;
}

bool dependsOnMemory(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth) {
  auto loaded = [](const llvm::Value *v) -> std::optional<bool> {
    if (auto *load = dyn_cast<llvm::LoadInst>(v))
      return readsData(load);
    if (isa<llvm::AtomicRMWInst>(v) || isa<llvm::AtomicCmpXchgInst>(v))
      return true;
    return std::nullopt;
  };
  return reaches(value, loaded, seen, depth, 12);
}

/// The thread coordinates a value is computed from: which threadIdx dimensions (the lane id is x's low
/// bits) and whether blockIdx takes part.
struct CoordinateUse {
  std::array<bool, 3> thread{false, false, false};
  bool block = false;
  bool any() const { return block || thread[0] || thread[1] || thread[2]; }
};

void collectCoordinates(const llvm::Value *value, CoordinateUse &use, std::set<const llvm::Value *> &seen, int depth) {
  if (depth > 16 || !seen.insert(value).second)
    return;
  if (auto *call = dyn_cast<llvm::CallInst>(value))
    if (const llvm::Function *callee = call->getCalledFunction()) {
      llvm::StringRef name = callee->getName();
      if (name.consume_front("llvm.nvvm.read.ptx.sreg.tid.") && name.size() == 1 && name[0] >= 'x' && name[0] <= 'z')
        use.thread[name[0] - 'x'] = true;
      else if (name.starts_with("llvm.nvvm.read.ptx.sreg.laneid"))
        use.thread[0] = true;
      else if (name.starts_with("llvm.nvvm.read.ptx.sreg.ctaid."))
        use.block = true;
    }
  if (auto *inst = dyn_cast<llvm::Instruction>(value))
    for (const llvm::Value *op : inst->operands())
      collectCoordinates(op, use, seen, depth + 1);
}

bool dependsOnThread(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth) {
  CoordinateUse use;
  collectCoordinates(value, use, seen, depth);
  return use.any();
}

// ------------------------------------------------------------------------------------------------ Poly

/// A polynomial with integer coefficients over atoms (parameters, launch dimensions, thread coordinates,
/// loop iteration numbers, opaque invariant expressions). Addresses and bounds are affine in the variable
/// atoms, with coefficients that are polynomials in the invariant ones.
using Monomial = std::vector<int>; // sorted atom ids

struct Poly {
  std::map<Monomial, int64_t> terms;

  static Poly constant(int64_t c) {
    Poly p;
    if (c != 0)
      p.terms[{}] = c;
    return p;
  }
  static Poly atom(int id) {
    Poly p;
    p.terms[{id}] = 1;
    return p;
  }
  bool isZero() const { return terms.empty(); }
  std::optional<int64_t> asConstant() const {
    if (terms.empty())
      return 0;
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }
  Poly operator+(const Poly &o) const {
    Poly r = *this;
    for (const auto &[m, c] : o.terms)
      if ((r.terms[m] += c) == 0)
        r.terms.erase(m);
    return r;
  }
  Poly scaled(int64_t k) const {
    Poly r;
    if (k == 0)
      return r;
    for (const auto &[m, c] : terms)
      r.terms[m] = c * k;
    return r;
  }
  Poly operator-(const Poly &o) const { return *this + o.scaled(-1); }
  Poly operator*(const Poly &o) const {
    Poly r;
    for (const auto &[ma, ca] : terms)
      for (const auto &[mb, cb] : o.terms) {
        Monomial m = ma;
        m.insert(m.end(), mb.begin(), mb.end());
        std::sort(m.begin(), m.end());
        if ((r.terms[m] += ca * cb) == 0)
          r.terms.erase(m);
      }
    return r;
  }
  bool operator==(const Poly &o) const { return terms == o.terms; }
};

/// k with a == k * b, if there is one.
std::optional<int64_t> ratio(const Poly &a, const Poly &b) {
  if (b.isZero())
    return std::nullopt;
  const auto &[m, cb] = *b.terms.begin();
  auto found = a.terms.find(m);
  if (found == a.terms.end() || found->second % cb != 0)
    return std::nullopt;
  int64_t k = found->second / cb;
  if (!(a == b.scaled(k)))
    return std::nullopt;
  return k;
}

/// q with a == q * b where b is one term (c · monomial): every term of a holds b's atoms and a multiple of c.
std::optional<Poly> divideByTerm(const Poly &a, const Poly &b) {
  if (b.terms.size() != 1)
    return std::nullopt;
  const auto &[bm, bc] = *b.terms.begin();
  Poly q;
  for (const auto &[m, c] : a.terms) {
    if (c % bc != 0)
      return std::nullopt;
    Monomial rest = m;
    for (int atom : bm) {
      auto at = std::find(rest.begin(), rest.end(), atom);
      if (at == rest.end())
        return std::nullopt;
      rest.erase(at);
    }
    q.terms[rest] = c / bc;
  }
  return q;
}

/// A thread axis: a threadIdx coordinate, a blockIdx coordinate, or the global index
/// blockIdx.e * width + threadIdx.d (width is blockDim.d or a constant tile size), possibly over a grid
/// flattened in two dimensions: (blockIdx.f * gridDim.e + blockIdx.e) * width + threadIdx.d.
struct AxisKey {
  int tid = -1, cta = -1;
  int outer = -1; ///< the outer block dimension f of a flattened grid; -1 when none
  bool operator<(const AxisKey &o) const { return std::tie(tid, cta, outer) < std::tie(o.tid, o.cta, o.outer); }
  bool operator==(const AxisKey &o) const { return tid == o.tid && cta == o.cta && outer == o.outer; }
};

enum class AtomKind { Param, LaunchDim, ThreadIdx, BlockIdx, LoopIter, HalvingIV, Quotient, Opaque, Unknown };

struct Atom {
  AtomKind kind = AtomKind::Unknown;
  int dim = -1;
  const llvm::Loop *loop = nullptr;
  Expr expr;
  std::string reason;
  UnknownCause cause = UnknownCause::Analysis;
  const llvm::Instruction *where = nullptr;
  // Quotient: axis / divisor (row = i / cols), the axis being the global or block index `quotientAxis`.
  AxisKey quotientAxis;
  std::shared_ptr<const Poly> quotientWidth, divisor;
};

Atom makeAtom(AtomKind kind, int dim, const llvm::Loop *loop, Expr expr) {
  Atom atom;
  atom.kind = kind;
  atom.dim = dim;
  atom.loop = loop;
  atom.expr = std::move(expr);
  return atom;
}

bool isVariable(AtomKind kind) {
  return kind == AtomKind::ThreadIdx || kind == AtomKind::BlockIdx || kind == AtomKind::LoopIter ||
         kind == AtomKind::HalvingIV || kind == AtomKind::Quotient;
}

/// An affine form: Σ coefficient·axis + Σ coefficient·iteration + invariant.
struct Linear {
  std::map<AxisKey, Poly> axes;
  std::map<AxisKey, Poly> widths;
  std::map<int, Poly> iters; ///< LoopIter / HalvingIV atom -> coefficient
  Poly invariant;
  bool known = true;
  std::string reason;
  UnknownCause cause = UnknownCause::Analysis;
  const llvm::Instruction *where = nullptr;
};

struct Constraint {
  AxisKey axis;
  Poly width;
  std::optional<Poly> lower, upper; ///< lower <= axis < upper
  int halvingAtom = -1;             ///< threadIdx < (halving loop variable)
  /// A bound on one digit of the flat index `axis` (i = idx % n, j = idx / n) rather than on the index: the
  /// digit (idx / digitBelow) % (the next divisor / digitBelow). guards() keeps these apart (digitGuards_).
  std::optional<Poly> digitBelow;
  std::vector<int> digitAtoms; ///< the quotient atoms the digit is written with (idx / n)
};

/// A test on the digits of one thread index that repeats every `period` threads (lane == 0 with
/// lane = threadIdx.x % 32; (threadIdx.x & 24) == 8): which remainders threadIdx.dim % period pass.
struct DigitTest {
  int dim = 0;
  int64_t period = 1;
  std::vector<bool> passes; ///< by remainder
};

struct LoopModel {
  enum Kind { Counted, Cover, Strided, Halving, Unknown } kind = Unknown;
  Poly trips;       ///< Counted; Halving: the trip count where it has one (else zero)
  AxisKey axis;     ///< Cover: the loop walks scale * (axis + k * extent(axis)) from base up to bound
  Poly width, base, bound;
  int64_t scale = 1;
  int64_t step = 0; ///< Strided: as Cover, with a constant step in place of the axis's extent
  Poly halvingStart; ///< Halving: s = start, start/2, ..., 1
  int iterAtom = -1;
  std::string reason;
  UnknownCause cause = UnknownCause::Analysis;
  const llvm::Instruction *where = nullptr;
  const llvm::DILocation *start = nullptr; ///< the loop statement, from the loop's metadata
};

struct Count {
  std::optional<Expr> value;
  std::string reason;
  UnknownCause cause = UnknownCause::Analysis;
  const llvm::Instruction *where = nullptr;
  const llvm::DILocation *at = nullptr;
};

/// Whether a debug location's file is `file` as the command line named it (debug info may spell it
/// relative to its compilation directory).
bool isFile(const llvm::DILocation *loc, const std::string &file) {
  if (file.empty())
    return false;
  if (loc->getFilename() == llvm::StringRef(file))
    return true;
  llvm::SmallString<256> located(loc->getFilename());
  if (llvm::sys::path::is_relative(located)) {
    located = loc->getDirectory();
    llvm::sys::path::append(located, loc->getFilename());
  }
  llvm::SmallString<256> named(file);
  llvm::sys::fs::make_absolute(named);
  llvm::sys::path::remove_dots(located, true);
  llvm::sys::path::remove_dots(named, true);
  return located == named;
}

/// A debug location's place; code inlined from another file (a CUDA or clang header) is reported at its
/// call site in `preferredFile`, where the user wrote it, and named as the user named it.
std::string locate(const llvm::DILocation *loc, int *line, int *column, const std::string &preferredFile) {
  while (loc->getInlinedAt() && !isFile(loc, preferredFile))
    loc = loc->getInlinedAt();
  *line = static_cast<int>(loc->getLine());
  *column = static_cast<int>(loc->getColumn());
  return isFile(loc, preferredFile) ? preferredFile : loc->getFilename().str();
}

/// The source location of an instruction (see locate).
std::string locationOf(const llvm::Instruction *inst, int *line, int *column, const std::string &preferredFile = "") {
  *line = 0;
  *column = 0;
  if (!inst || !inst->getDebugLoc())
    return {};
  return locate(inst->getDebugLoc().get(), line, column, preferredFile);
}

// ------------------------------------------------------------------------------------------ analysis

/// One arithmetic progression of byte offsets: stride * k for k in [0, count).
struct Progression {
  Poly stride;
  Expr count;
  bool threadLoop = false; ///< the iterations of a loop each thread runs (not a thread or block axis)
  /// A global index without a guard (blockIdx.x * width + threadIdx.x): the thread and block dimensions and
  /// the width, so that it can be taken apart like one whose threads a guard picks (FootprintGroup).
  int pairedTid = -1, pairedCta = -1;
  Poly pairedWidth{};
  bool guardedGlobal = false; ///< a global index whose range a guard on it bounds (i < n): not taken apart
  bool blockOnly = false;     ///< blockIdx alone (the address of a block's thread 0, tid folded to 0)
};

class KernelAnalysis {
public:
  KernelAnalysis(llvm::Function &function, const KernelSource &source, llvm::FunctionAnalysisManager &fam)
      : f_(function), source_(source), se_(fam.getResult<llvm::ScalarEvolutionAnalysis>(function)),
        dt_(fam.getResult<llvm::DominatorTreeAnalysis>(function)), li_(fam.getResult<llvm::LoopAnalysis>(function)),
        dl_(function.getParent()->getDataLayout()) {}

  KernelEstimate run();

private:
  // atoms
  int intern(const std::string &key, Atom atom) {
    auto found = atomIds_.find(key);
    if (found != atomIds_.end())
      return found->second;
    atoms_.push_back(std::move(atom));
    return atomIds_[key] = static_cast<int>(atoms_.size()) - 1;
  }
  Poly launchDim(const char *what, int dim) {
    std::string name = std::string(what) + "." + "xyz"[dim];
    Atom atom = makeAtom(AtomKind::LaunchDim, dim, nullptr, Expr::symbol(name));
    return Poly::atom(intern("launch:" + name, atom));
  }
  Poly unknownAtom(const std::string &reason, const llvm::Value *value,
                   UnknownCause cause = UnknownCause::Analysis) {
    Atom atom;
    atom.kind = AtomKind::Unknown;
    atom.reason = reason;
    atom.cause = cause;
    atom.where = dyn_cast_or_null<llvm::Instruction>(value);
    char key[64];
    std::snprintf(key, sizeof key, "unknown:%p", static_cast<const void *>(value));
    return Poly::atom(intern(key + reason, atom));
  }
  Poly opaque(const Expr &expr) {
    Expr simple = expr.simplified();
    if (simple.kind() == Expr::Kind::Integer)
      return Poly::constant(simple.integerValue());
    Atom atom = makeAtom(AtomKind::Opaque, -1, nullptr, simple);
    return Poly::atom(intern("opaque:" + simple.str(), atom));
  }
  Poly iterAtom(const llvm::Loop *loop) {
    char key[64];
    std::snprintf(key, sizeof key, "iter:%p", static_cast<const void *>(loop));
    Atom atom = makeAtom(AtomKind::LoopIter, -1, loop, Expr());
    return Poly::atom(intern(key, atom));
  }

  bool invariant(const Poly &p) const {
    for (const auto &[m, c] : p.terms)
      for (int id : m)
        if (atoms_[id].kind != AtomKind::Param && atoms_[id].kind != AtomKind::LaunchDim &&
            atoms_[id].kind != AtomKind::Opaque)
          return false;
    return true;
  }
  Expr toExpr(const Poly &p) const {
    Expr sum;
    bool first = true;
    for (const auto &[m, c] : p.terms) {
      Expr term = Expr::integer(c);
      for (int id : m)
        term = term * atoms_[id].expr;
      sum = first ? term : sum + term;
      first = false;
    }
    return sum.simplified();
  }

  Poly toPoly(const llvm::SCEV *scev);
  Poly valueAtom(const llvm::Value *value);
  /// The progressions of index·i + Σ coefficient·(i / divisor) over i in [0, range): i's digits in the mixed
  /// radix of the divisors (each dividing the next), each with its byte stride. Guards on digits (if (col >
  /// 0)) narrow theirs, and `shift` takes the bytes by which the first position moves. nullopt when the
  /// divisors do not nest, or a guard is on none of the digits.
  std::optional<std::vector<Progression>> mixedRadix(const Poly &index, const std::map<int, Poly> &quotients,
                                                     const Expr &range,
                                                     const std::vector<const Constraint *> &digitGuards,
                                                     Poly &shift) const;
  /// The quotient atom numerator / den, where numerator is a thread index (or such a quotient) and den is
  /// invariant; nullopt otherwise.
  std::optional<Poly> quotientOf(const Poly &numerator, const Poly &den);
  /// numerator / den for one axis (or a quotient of one) with coefficient 1.
  std::optional<Poly> axisQuotient(const Poly &numerator, const Poly &den);
  /// numerator / den for a thread index flattened over dimensions, taken apart into per-dimension quotients.
  std::optional<Poly> flattenedQuotient(const Poly &numerator, const Poly &den);
  /// numerator / den for a constant den, where the numerator's variable terms divide exactly or are block
  /// coordinates with sizes for coefficients; nullopt otherwise.
  std::optional<Poly> scaledQuotient(const Poly &numerator, int64_t den);
  /// `k = n / c; if (k == 0) k = 1;` as a select of invariant values: max(n / c, 1); nullopt otherwise.
  std::optional<Poly> atLeastOneQuotient(const llvm::SelectInst *select);
  /// numerator / den as the source divides it (a division or a right shift): a formula of sizes, a
  /// quotient of a thread index, or a scaled block offset.
  std::optional<Poly> divided(const Poly &numerator, const Poly &den);
  /// The value of narrow arithmetic over truncated operands (16 * trunc(y) + trunc(x)) at full width, before
  /// it wraps; nullopt for anything else.
  std::optional<Poly> untruncated(const llvm::SCEV *narrow);
  Linear decompose(const Poly &p);
  Poly extent(const AxisKey &axis, const Poly &width) {
    if (axis.tid >= 0 && axis.cta >= 0 && axis.outer >= 0)
      return launchDim("gridDim", axis.outer) * launchDim("gridDim", axis.cta) * width;
    if (axis.tid >= 0 && axis.cta >= 0)
      return launchDim("gridDim", axis.cta) * width;
    if (axis.tid >= 0)
      return launchDim("blockDim", axis.tid);
    return launchDim("gridDim", axis.cta);
  }

  /// A branch condition the guards cannot express: why, and whose doing it is.
  struct Unmodelled {
    std::string reason;
    UnknownCause cause = UnknownCause::Analysis;
    bool threadTest = false; ///< it tests thread coordinates (not data, not parameters)
  };
  void conditionConstraints(const llvm::Value *cond, bool truth, std::vector<Constraint> &out, bool *parameterTest,
                            std::optional<Unmodelled> &unmodelled, int depth = 0);
  /// Why a condition that gave no constraint still decides which threads run: it tests values loaded from
  /// memory, or thread coordinates in a form the guards cannot express; empty when it does neither.
  std::optional<Unmodelled> unmodelledTest(const llvm::Value *cond) const;
  /// A bound on a thread coordinate that moves with a loop (`t + tx < n` in a tiled loop): taken to trim
  /// only the last, partial tile, so not a guard of its own (the count is exact when the size is a whole
  /// number of tiles, as for the ragged ends elsewhere).
  bool movesWithLoop(const llvm::ICmpInst *cmp);
  void compareConstraint(const llvm::ICmpInst *cmp, bool truth, std::vector<Constraint> &out);
  /// One digit of a flat global index as an affine form holds it: k * (idx / below - (above / below) * (idx /
  /// above)), the top digit without the second term, the lowest with idx itself for idx / 1.
  struct FlatDigit {
    AxisKey axis;
    Poly below, coeff, width;
    std::vector<int> atoms;
  };
  std::optional<FlatDigit> flatDigit(const Linear &lin) const;
  const std::vector<Constraint> &guards(const llvm::BasicBlock *block);
  /// Adds an unmodelled branch condition of block to threadTests_.
  void recordThreadTest(const llvm::BasicBlock *block, const llvm::Value *cond, bool threadTest);
  /// Whether the footprint of an address with these thread dependences is the same whichever threads of a
  /// block the block's unmodelled branches let through: they test only threadIdx dimensions the address does
  /// not move with (`if (lane == 0) y[row] = s`, `if (tx == 0 && ty == 0) out[blockIdx.x] = s`).
  bool footprintIgnoresThreadTests(const llvm::BasicBlock *block, const std::array<bool, 3> &addressMovesWith) const;
  /// A condition computed from parameters and launch sizes only (if (flag), if (mode == 2)).
  bool parameterOnly(const llvm::Value *value, int depth) const;
  /// The branch that skips a loop when it would run zero times (its trip count already says so).
  bool guardsLoop(const llvm::BranchInst *branch) const;
  /// Whether a branch in front of loop is the test that skips it when it would run zero times: a test of
  /// parameters alone, or one that shares the loop's bound (`if (ib >= n) return;` of a thread in front of
  /// `for (l = 0; l < 4; ++l)` is not).
  bool testsLoopBound(const llvm::BranchInst *branch, const llvm::Loop *loop) const;
  /// An early exit: the block only returns.
  static bool returnsAtOnce(const llvm::BasicBlock *block);
  /// The lane test a branch condition is, on the side `truth`; nullopt for anything else.
  std::optional<DigitTest> digitTest(const llvm::Value *cond, bool truth);
  /// How many of a block's threads along a dimension of `extent` threads pass all of `tests`, as an
  /// expression; nullopt where their periods together are too long to list.
  static std::optional<Expr> digitCount(const Expr &extent, const std::vector<DigitTest> &tests);
  /// Whether `block` runs only where its loop goes round again: a guard that is the loop's own continuation
  /// test (`do { k += 8; if (k < K) prefetch(k); ... } while (k < K);`, the next tile of a pipelined loop).
  bool skipsLastTrip(const llvm::BasicBlock *block, const llvm::Loop *loop) const;
  /// The trips of a counted loop on which `block` runs.
  Expr tripsReaching(const llvm::BasicBlock *block, const llvm::Loop *loop) {
    Poly trips = loopModel(loop).trips;
    return toExpr(skipsLastTrip(block, loop) ? trips - Poly::constant(1) : trips);
  }
  const LoopModel &loopModel(const llvm::Loop *loop);
  /// How many values a Cover loop visits over all threads of its axis.
  Expr coverSpan(const LoopModel &walk) const {
    Expr span = toExpr(walk.bound - walk.base);
    return walk.scale == 1 ? span : Expr::ceilDiv(span, Expr::integer(walk.scale)).simplified();
  }
  Expr rangeCount(const AxisKey &axis, const Poly &width, const std::vector<const Constraint *> &constraints);
  Count countBlock(const llvm::BasicBlock *block);
  void addUnknown(const std::string &reason, const llvm::Instruction *where, const llvm::DILocation *at = nullptr,
                  UnknownCause cause = UnknownCause::Analysis);

  struct Access {
    const llvm::Instruction *inst;
    std::string kind; // load, store, atomic
    const llvm::Value *address;
    int64_t bytes;
    std::string unknown; ///< why the access cannot be counted; empty when it can
  };
  std::vector<Access> accessesOf(const llvm::Instruction &inst);
  /// The address's offset in bytes from the object it points into (a parameter, a global), through address
  /// space casts (__ldg reads through a global-space cast of a generic pointer, which ScalarEvolution treats
  /// as a new base).
  const llvm::SCEV *byteOffset(const llvm::Value *pointer);
  /// Whether a pointer addresses on-chip memory (shared, constant, local, a by-value parameter).
  static bool onChip(const llvm::Value *pointer);
  /// The name of a pointer loaded from a fixed place in a struct passed by value (a lambda's captures, a
  /// functor's members, CUTLASS's Params): the parameter and the field's byte offset, "f+8". Fields are
  /// distinct arrays, as distinct pointer parameters are. nullopt when the load is not such a field.
  std::optional<std::string> parameterField(const llvm::LoadInst *load) const;
  /// A parameter's name in the source; argN for one without a name.
  std::string paramName(unsigned index) const {
    return index < source_.params.size() && !source_.params[index].name.empty() ? source_.params[index].name
                                                                                : "arg" + std::to_string(index);
  }
  /// Which threadIdx dimensions an affine address moves with, directly or through a quotient (row = i / n).
  std::array<bool, 3> threadDependence(const Linear &lin) const;
  void countMemory(KernelEstimate &estimate);
  void splitGlobalIndices(std::map<std::string, struct FootprintGroup> &groups);
  /// Adds group to groups under its key, joining the group with the same progressions.
  void regroup(std::map<std::string, struct FootprintGroup> &groups, struct FootprintGroup group) const;
  /// Boxes of one array that differ along one progression each from a centre box (the neighbours of a
  /// stencil, each guarded to stay inside the grid) become one footprint: their union.
  void uniteShiftedBoxes(std::map<std::string, struct FootprintGroup> &groups) const;
  std::optional<struct FieldPattern> fieldPattern(const struct FootprintGroup &group) const;
  /// The least value of a stride: a constant, or a positive multiple of launch dimensions (8 * blockDim.x,
  /// the step from one block to the next), which are at least 1; nullopt for anything else.
  std::optional<int64_t> leastStride(const Poly &stride) const {
    if (std::optional<int64_t> c = stride.asConstant())
      return c;
    if (stride.terms.size() != 1 || stride.terms.begin()->second <= 0)
      return std::nullopt;
    for (int id : stride.terms.begin()->first)
      if (atoms_[id].kind != AtomKind::LaunchDim)
        return std::nullopt;
    return stride.terms.begin()->second;
  }
  /// Sorts the progressions, so that accesses with the same ones share a footprint group: the group key's part.
  std::string progressionSignature(std::vector<Progression> &progressions) const;

  llvm::Function &f_;
  const KernelSource &source_;
  llvm::ScalarEvolution &se_;
  llvm::DominatorTree &dt_;
  llvm::LoopInfo &li_;
  const llvm::DataLayout &dl_;
  std::vector<Atom> atoms_;
  std::map<std::string, int> atomIds_;
  std::map<const llvm::SCEV *, Poly> polys_;
  std::map<const llvm::Loop *, LoopModel> loops_;
  std::map<const llvm::BasicBlock *, std::vector<Constraint>> guards_;
  /// Blocks reached only on one side of a branch the guards cannot express (a test of parameter values, of
  /// data, of thread coordinates in an unmodelled form): their counts are unknown, with the branch's reason.
  std::map<const llvm::BasicBlock *, std::pair<const llvm::Instruction *, Unmodelled>> unmodelledBranches_;
  /// For those blocks: the threadIdx dimensions their unmodelled branches test, where every one of them
  /// tests threadIdx alone (which threads of a block run the block, not which blocks or what data);
  /// nullopt where one tests anything else.
  std::map<const llvm::BasicBlock *, std::optional<std::array<bool, 3>>> threadTests_;
  /// For those blocks: the lane tests among their unmodelled branches (DigitTest), which the counts can
  /// take; a block in `uncountable_` has another unmodelled branch too, and its counts stay unknown.
  std::map<const llvm::BasicBlock *, std::vector<DigitTest>> digitTests_;
  std::set<const llvm::BasicBlock *> uncountable_;
  /// Guards on digits of a flat index (if (i % n > 0)), by block, and the first branch that makes one.
  std::map<const llvm::BasicBlock *, std::vector<Constraint>> digitGuards_;
  std::map<const llvm::BasicBlock *, const llvm::Instruction *> digitGuardBranches_;
  std::map<const llvm::PHINode *, const llvm::Loop *> halvingPhis_;
  std::set<const llvm::PHINode *> visitingPhis_;
  std::vector<Unknown> unknowns_;
};

void KernelAnalysis::addUnknown(const std::string &reason, const llvm::Instruction *where,
                                const llvm::DILocation *at, UnknownCause cause) {
  Unknown unknown;
  unknown.reason = reason;
  unknown.cause = cause;
  unknown.file = locationOf(where, &unknown.line, &unknown.column, source_.file);
  if (at)
    unknown.file = locate(at, &unknown.line, &unknown.column, source_.file);
  if (unknown.file.empty()) {
    unknown.file = source_.file;
    unknown.line = source_.line;
  }
  for (const Unknown &u : unknowns_)
    if (u.reason == unknown.reason && u.line == unknown.line && u.column == unknown.column && u.file == unknown.file)
      return;
  unknowns_.push_back(unknown);
}

std::optional<std::vector<Progression>> KernelAnalysis::mixedRadix(const Poly &index,
                                                                    const std::map<int, Poly> &quotients,
                                                                    const Expr &range,
                                                                    const std::vector<const Constraint *> &digitGuards,
                                                                    Poly &shift) const {
  // Divisors from the smallest: each one a single term that divides the next.
  std::vector<std::pair<Poly, Poly>> levels; // divisor, coefficient
  for (const auto &[id, coeff] : quotients)
    levels.emplace_back(*atoms_[id].divisor, coeff);
  std::sort(levels.begin(), levels.end(), [](const auto &a, const auto &b) {
    const auto &[ma, ca] = *a.first.terms.begin();
    const auto &[mb, cb] = *b.first.terms.begin();
    return ma.size() != mb.size() ? ma.size() < mb.size() : ca < cb;
  });
  std::vector<Poly> sizes{Poly::constant(1)}; // D_0 = 1, D_1, ..., D_k
  for (const auto &[divisor, coeff] : levels) {
    if (divisor.terms.size() != 1 || !divideByTerm(divisor, sizes.back()))
      return std::nullopt;
    sizes.push_back(divisor);
  }
  std::vector<Progression> digits;
  size_t placed = 0; // digit guards on one of the digits
  for (size_t j = 0; j < sizes.size(); ++j) {
    // Digit j moves the index by D_j and quotient k (k <= j) by D_j / D_k.
    Poly stride = index * sizes[j];
    for (size_t k = 1; k <= j; ++k)
      stride = stride + levels[k - 1].second * *divideByTerm(sizes[j], sizes[k]);
    Expr reach = Expr::ceilDiv(range, toExpr(sizes[j]));
    Expr count = j + 1 < sizes.size() ? Expr::min(toExpr(*divideByTerm(sizes[j + 1], sizes[j])), reach) : reach;
    for (const Constraint *guard : digitGuards) {
      if (!(*guard->digitBelow == sizes[j]))
        continue;
      ++placed;
      if (guard->upper)
        count = Expr::min(count, toExpr(*guard->upper));
      if (guard->lower) {
        count = count - toExpr(*guard->lower);
        shift = shift + *guard->lower * stride;
      }
    }
    if (!stride.isZero())
      digits.push_back({stride, count.simplified()});
  }
  if (placed != digitGuards.size())
    return std::nullopt;
  return digits;
}

std::optional<Poly> KernelAnalysis::quotientOf(const Poly &numerator, const Poly &den) {
  if (!invariant(den) || den.isZero())
    return std::nullopt;
  if (std::optional<Poly> q = axisQuotient(numerator, den))
    return q;
  return flattenedQuotient(numerator, den);
}

std::optional<Poly> KernelAnalysis::flattenedQuotient(const Poly &numerator, const Poly &den) {
  // (d * x + i) / d = x + i / d, for integer x: a thread index flattened over two dimensions
  // (threadIdx.y * 16 + threadIdx.x) / 2 is threadIdx.y * 8 + threadIdx.x / 2.
  if (den.terms.size() == 1) {
    Poly whole, rest;
    for (const auto &[m, c] : numerator.terms) {
      Poly term;
      term.terms[m] = c;
      if (std::optional<Poly> q = divideByTerm(term, den))
        whole = whole + *q;
      else
        rest = rest + term;
    }
    if (!whole.isZero() && !rest.isZero()) {
      std::optional<Poly> q = quotientOf(rest, den);
      return q ? std::optional<Poly>(whole + *q) : std::nullopt;
    }
  }
  // (threadIdx.x + w * threadIdx.y) / (w * k) = threadIdx.y / k, as threadIdx.x < w: w is blockDim.x, or a
  // constant row of threads (tid = threadIdx.y * 16 + threadIdx.x) whose threads, as everywhere in the
  // counting, do not overlap the next row's.
  // The same for the digits of thread indices: (threadIdx.x / 8 + 2 * threadIdx.y) / 4 is threadIdx.y / 2.
  auto threadDim = [&](int id) {
    const Atom &atom = atoms_[id];
    if (atom.kind == AtomKind::ThreadIdx)
      return atom.dim;
    return atom.kind == AtomKind::Quotient && atom.quotientAxis.cta < 0 ? atom.quotientAxis.tid : -1;
  };
  if (numerator.terms.size() == 2) {
    std::optional<int> inner, outer;
    Poly rowWidth;
    for (const auto &[m, c] : numerator.terms) {
      std::vector<int> threads;
      for (int id : m)
        if (threadDim(id) >= 0)
          threads.push_back(id);
      if (threads.size() != 1)
        return std::nullopt;
      if (m.size() == 1 && c == 1 && !inner) {
        inner = threads[0];
        continue;
      }
      Poly term;
      term.terms[m] = c;
      outer = threads[0];
      rowWidth = *divideByTerm(term, Poly::atom(threads[0]));
    }
    if (!inner || !outer || threadDim(*inner) == threadDim(*outer) || !invariant(rowWidth))
      return std::nullopt;
    bool exact = atoms_[*inner].kind == AtomKind::ThreadIdx && rowWidth == launchDim("blockDim", threadDim(*inner));
    if (!exact && !rowWidth.asConstant())
      return std::nullopt;
    if (std::optional<Poly> rows = divideByTerm(den, rowWidth); rows && invariant(*rows))
      return quotientOf(Poly::atom(*outer), *rows);
  }
  return std::nullopt;
}

std::optional<Poly> KernelAnalysis::axisQuotient(const Poly &numerator, const Poly &den) {
  Linear num = decompose(numerator);
  if (!num.known || !num.invariant.isZero())
    return std::nullopt;
  AxisKey axis;
  Poly width, divisor = den;
  if (num.axes.size() == 1 && num.iters.empty() && num.axes.begin()->second == Poly::constant(1)) {
    axis = num.axes.begin()->first;
    width = num.widths.count(axis) ? num.widths[axis] : Poly();
  } else if (num.axes.empty() && num.iters.size() == 1 && num.iters.begin()->second == Poly::constant(1) &&
             atoms_[num.iters.begin()->first].kind == AtomKind::Quotient) {
    // (i / a) / b is i / (a * b) for the non-negative indices of a launch.
    const Atom &inner = atoms_[num.iters.begin()->first];
    axis = inner.quotientAxis;
    width = *inner.quotientWidth;
    divisor = *inner.divisor * den;
  } else {
    return std::nullopt;
  }
  Atom atom;
  atom.kind = AtomKind::Quotient;
  atom.quotientAxis = axis;
  atom.quotientWidth = std::make_shared<Poly>(width);
  atom.divisor = std::make_shared<Poly>(divisor);
  // One atom per (axis, divisor): i / n in a division and in the remainder i % n are the same quotient.
  std::string key = "quotient:" + std::to_string(axis.tid) + ":" + std::to_string(axis.cta) + ":" +
                    std::to_string(axis.outer) + ":" + toExpr(width).str() + ":" + toExpr(divisor).str();
  return Poly::atom(intern(key, atom));
}

std::optional<Poly> KernelAnalysis::scaledQuotient(const Poly &numerator, int64_t den) {
  if (den <= 1)
    return std::nullopt;
  Poly exact, sizes;
  std::map<int, Poly> blocks; // blockIdx atom -> its coefficient
  for (const auto &[m, c] : numerator.terms) {
    if (c % den == 0) {
      exact.terms[m] = c / den;
      continue;
    }
    std::vector<int> variables;
    Monomial rest;
    for (int id : m)
      (isVariable(atoms_[id].kind) ? variables : rest).push_back(id);
    if (variables.empty()) {
      sizes.terms[m] = c;
    } else if (variables.size() == 1 && atoms_[variables[0]].kind == AtomKind::BlockIdx && !rest.empty()) {
      Poly coefficient;
      coefficient.terms[rest] = c;
      blocks[variables[0]] = blocks[variables[0]] + coefficient;
    } else {
      return std::nullopt;
    }
  }
  // floor((den * x + s) / den) = x + floor(s / den): what divides exactly is exact.
  // A block's offset in a wider element type ((blockIdx.x * d) >> 2, rows of d floats read as float4):
  // blockIdx.x * (d / 4). Where d is not a multiple of 4 each block's start rounds down by less than one
  // element; its row keeps its length and the rows stay apart, so the footprint does not change.
  Expr divisor = Expr::integer(den);
  Poly result = exact;
  for (const auto &[id, coefficient] : blocks)
    result = result + Poly::atom(id) * opaque(toExpr(coefficient) / divisor);
  if (!sizes.isZero())
    result = result + opaque(toExpr(sizes) / divisor);
  return result;
}

std::optional<Poly> KernelAnalysis::divided(const Poly &numerator, const Poly &den) {
  // n / d, both invariant (a size over a tile width): the quotient as a formula. Expr divides by
  // flooring; C's signed division truncates, which is the same for the non-negative sizes of a launch.
  if (invariant(numerator) && invariant(den) && !den.isZero())
    return opaque(toExpr(numerator) / toExpr(den));
  // i / d with i a thread index and d invariant: a variable of its own whose range is the index range / d.
  if (std::optional<Poly> q = quotientOf(numerator, den))
    return q;
  if (std::optional<int64_t> constant = den.asConstant())
    return scaledQuotient(numerator, *constant);
  return std::nullopt;
}

std::optional<Poly> KernelAnalysis::atLeastOneQuotient(const llvm::SelectInst *select) {
  for (bool floorWhenTrue : {true, false}) {
    auto *floor = dyn_cast<llvm::ConstantInt>(floorWhenTrue ? select->getTrueValue() : select->getFalseValue());
    auto *quotient = dyn_cast<llvm::BinaryOperator>(floorWhenTrue ? select->getFalseValue() : select->getTrueValue());
    auto *cmp = dyn_cast<llvm::ICmpInst>(select->getCondition());
    if (!floor || floor->getValue().ugt(1) || !quotient || !cmp)
      continue;
    auto *den = dyn_cast<llvm::ConstantInt>(quotient->getOperand(1));
    if (!den || den->getValue().isNonPositive() || den->getValue().getActiveBits() > 62)
      continue;
    int64_t divisor = 0;
    switch (quotient->getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
      divisor = den->getSExtValue();
      break;
    case llvm::Instruction::AShr:
    case llvm::Instruction::LShr:
      divisor = int64_t{1} << den->getZExtValue();
      break;
    default:
      continue;
    }
    // Which values of the tested operand take the floor's side. The test is on the quotient (k == 0) or,
    // folded, on the dividend shifted by a constant ((n + 31) <u 63 for n / 32 == 0).
    bool constantFirst = isa<llvm::ConstantInt>(cmp->getOperand(0));
    auto *bound = dyn_cast<llvm::ConstantInt>(cmp->getOperand(constantFirst ? 0 : 1));
    const llvm::Value *tested = cmp->getOperand(constantFirst ? 1 : 0);
    if (!bound)
      continue;
    llvm::CmpInst::Predicate pred = constantFirst ? cmp->getSwappedPredicate() : cmp->getPredicate();
    if (!floorWhenTrue)
      pred = llvm::CmpInst::getInversePredicate(pred);
    llvm::ConstantRange region = llvm::ConstantRange::makeExactICmpRegion(pred, bound->getValue());
    const llvm::Value *dividend = quotient->getOperand(0);
    int64_t zeroUpTo = 1; // the tested values, from 0, for which the quotient is 0
    if (tested == dividend) {
      zeroUpTo = divisor;
    } else if (auto *shifted = dyn_cast<llvm::BinaryOperator>(tested); shifted &&
               shifted->getOpcode() == llvm::Instruction::Add && shifted->getOperand(0) == dividend &&
               isa<llvm::ConstantInt>(shifted->getOperand(1))) {
      region = region.subtract(cast<llvm::ConstantInt>(shifted->getOperand(1))->getValue());
      zeroUpTo = divisor;
    } else if (tested != quotient) {
      continue;
    }
    unsigned bits = bound->getBitWidth();
    // On the non-negative sizes of a launch the floor's side must be exactly where the quotient is 0.
    llvm::ConstantRange nonNegative(llvm::APInt::getZero(bits), llvm::APInt::getSignedMinValue(bits));
    if (region.intersectWith(nonNegative) != llvm::ConstantRange(llvm::APInt::getZero(bits), llvm::APInt(bits, zeroUpTo)))
      continue;
    Poly value = toPoly(se_.getSCEV(const_cast<llvm::BinaryOperator *>(quotient)));
    if (!invariant(value))
      continue;
    // 0 or 1 where the quotient is 0, the quotient (at least 1) elsewhere: max(quotient, floor).
    return opaque(Expr::max(toExpr(value), Expr::integer(floor->getSExtValue())));
  }
  return std::nullopt;
}

Poly KernelAnalysis::valueAtom(const llvm::Value *value) {
  if (auto *arg = dyn_cast<llvm::Argument>(value)) {
    std::string name = paramName(arg->getArgNo());
    Atom atom = makeAtom(AtomKind::Param, -1, nullptr, Expr::symbol(name));
    return Poly::atom(intern("param:" + name, atom));
  }
  if (auto *call = dyn_cast<llvm::CallInst>(value)) {
    if (const llvm::Function *callee = call->getCalledFunction()) {
      llvm::StringRef name = callee->getName();
      if (name.consume_front("llvm.nvvm.read.ptx.sreg.")) {
        auto [what, axis] = name.split('.');
        int dim = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
        if (dim >= 0) {
          if (what == "tid" || what == "ctaid") {
            AtomKind kind = what == "tid" ? AtomKind::ThreadIdx : AtomKind::BlockIdx;
            std::string symbol = std::string(what == "tid" ? "threadIdx." : "blockIdx.") + "xyz"[dim];
            Atom atom = makeAtom(kind, dim, nullptr, Expr::symbol(symbol));
            return Poly::atom(intern("coord:" + symbol, atom));
          }
          if (what == "ntid")
            return launchDim("blockDim", dim);
          if (what == "nctaid")
            return launchDim("gridDim", dim);
        }
      }
    }
  }
  if (auto *phi = dyn_cast<llvm::PHINode>(value)) {
    auto found = halvingPhis_.find(phi);
    if (found != halvingPhis_.end()) {
      char key[64];
      std::snprintf(key, sizeof key, "halving:%p", static_cast<const void *>(found->second));
      Atom atom = makeAtom(AtomKind::HalvingIV, -1, found->second, Expr());
      return Poly::atom(intern(key, atom));
    }
  }
  // A division, or a right shift by a constant k: a division by 2^k that rounds down, as Expr's does.
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value)) {
    std::optional<Poly> den;
    if (bin->getOpcode() == llvm::Instruction::SDiv || bin->getOpcode() == llvm::Instruction::UDiv)
      den = toPoly(se_.getSCEV(bin->getOperand(1)));
    auto *amount = dyn_cast<llvm::ConstantInt>(bin->getOperand(1));
    if ((bin->getOpcode() == llvm::Instruction::AShr || bin->getOpcode() == llvm::Instruction::LShr) && amount &&
        amount->getZExtValue() < 62)
      den = Poly::constant(int64_t{1} << amount->getZExtValue());
    if (den)
      if (std::optional<Poly> q = divided(toPoly(se_.getSCEV(bin->getOperand(0))), *den))
        return *q;
  }
  // An or of operands with no bit in common is their sum (row | i, a row a multiple of 4 and i < 4).
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value); bin && bin->getOpcode() == llvm::Instruction::Or) {
    const llvm::SCEV *a = se_.getSCEV(bin->getOperand(0)), *b = se_.getSCEV(bin->getOperand(1));
    auto below = [&](const llvm::SCEV *small, const llvm::SCEV *aligned) {
      return se_.getUnsignedRangeMax(small).getActiveBits() <= se_.getMinTrailingZeros(aligned);
    };
    if (cast<llvm::PossiblyDisjointInst>(bin)->isDisjoint() || below(a, b) || below(b, a))
      return toPoly(a) + toPoly(b);
  }
  if (auto *select = dyn_cast<llvm::SelectInst>(value))
    if (std::optional<Poly> atLeastOne = atLeastOneQuotient(select))
      return *atLeastOne;
  // i % d = i - d * (i / d), for the thread indices and quotients i / d handles (the column of a flat index).
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value);
      bin && (bin->getOpcode() == llvm::Instruction::SRem || bin->getOpcode() == llvm::Instruction::URem)) {
    Poly numerator = toPoly(se_.getSCEV(bin->getOperand(0)));
    Poly den = toPoly(se_.getSCEV(bin->getOperand(1)));
    if (std::optional<Poly> q = quotientOf(numerator, den))
      return numerator - den * *q;
  }
  // A phi whose incoming values are all the same quantity (blockDim.x read on two paths) is that quantity.
  if (auto *phi = dyn_cast<llvm::PHINode>(value); phi && se_.isSCEVable(phi->getType()) && !visitingPhis_.count(phi)) {
    visitingPhis_.insert(phi);
    std::optional<Poly> same;
    bool agree = true;
    for (const llvm::Value *incoming : phi->incoming_values()) {
      Poly p = toPoly(se_.getSCEV(const_cast<llvm::Value *>(incoming)));
      if (same && !(p == *same))
        agree = false;
      same = p;
    }
    visitingPhis_.erase(phi);
    if (agree && same)
      return *same;
  }
  if (auto *load = dyn_cast<llvm::LoadInst>(value); load && readsParameter(load))
    return unknownAtom("a field of a struct parameter, which the expressions cannot name", value);
  if (auto *load = dyn_cast<llvm::LoadInst>(value); (load && readsData(load)) || isa<llvm::AtomicRMWInst>(value))
    return unknownAtom("indirect index (depends on a value loaded from memory)", value, UnknownCause::IndirectAccess);
  if (isa<llvm::CallInst>(value))
    return unknownAtom("index depends on a call result", value);
  // Named by what computes it (a remainder, a select, a phi of different values), so that a reader of the
  // unknowns knows which construct to look at.
  if (auto *inst = dyn_cast<llvm::Instruction>(value))
    return unknownAtom(std::string("index it cannot follow (") + inst->getOpcodeName() + ")", value);
  return unknownAtom("index it cannot follow", value);
}

Poly KernelAnalysis::toPoly(const llvm::SCEV *scev) {
  auto cached = polys_.find(scev);
  if (cached != polys_.end())
    return cached->second;
  Poly result;
  switch (scev->getSCEVType()) {
  case llvm::scConstant: {
    const llvm::APInt &value = cast<llvm::SCEVConstant>(scev)->getAPInt();
    result = Poly::constant(value.getBitWidth() <= 64 ? value.getSExtValue() : 0);
    break;
  }
  case llvm::scTruncate: {
    auto *cast_ = cast<llvm::SCEVCastExpr>(scev);
    // Truncation to a narrow type is a modulo (x & 31 becomes zext(trunc x to i5)). A few bits less than 32
    // come from shifting an index and back ((i << 2) >> 2, an int index scaled by 4 and divided again): the
    // identity, under the same no-overflow assumption as the extensions below.
    unsigned bits = cast_->getType()->getIntegerBitWidth();
    if (bits >= 24) {
      result = toPoly(cast_->getOperand());
      break;
    }
    // The low bits of a thread index (lane = threadIdx.x & 31) are its remainder by 2^bits.
    Poly operand = toPoly(cast_->getOperand());
    Poly modulus = Poly::constant(int64_t{1} << bits);
    if (std::optional<Poly> q = quotientOf(operand, modulus))
      result = operand - modulus * *q;
    else
      result = unknownAtom("non-affine index (bit masking)", nullptr);
    break;
  }
  case llvm::scZeroExtend: {
    // (tid & 31) with tid = threadIdx.y * 16 + threadIdx.x: ScalarEvolution moves the truncation into the
    // sum, zext(16 * trunc(threadIdx.y) + trunc(threadIdx.x)), whose narrow arithmetic wraps. The sum at
    // full width, reduced modulo 2^bits.
    const llvm::SCEV *operand = cast<llvm::SCEVCastExpr>(scev)->getOperand();
    unsigned bits = operand->getType()->getIntegerBitWidth();
    if (bits < 24 && !isa<llvm::SCEVTruncateExpr>(operand) && !isa<llvm::SCEVUnknown>(operand)) {
      Poly modulus = Poly::constant(int64_t{1} << bits);
      std::optional<Poly> full = untruncated(operand);
      std::optional<Poly> q = full ? quotientOf(*full, modulus) : std::nullopt;
      result = q ? *full - modulus * *q : unknownAtom("non-affine index (bit masking)", nullptr);
      break;
    }
    result = toPoly(operand);
    break;
  }
  case llvm::scPtrToInt:
  case llvm::scSignExtend:
    // Index arithmetic is assumed not to overflow, as the source's int indices do in every valid launch.
    result = toPoly(cast<llvm::SCEVCastExpr>(scev)->getOperand());
    break;
  case llvm::scAddExpr:
    for (const llvm::SCEV *op : cast<llvm::SCEVAddExpr>(scev)->operands())
      result = result + toPoly(op);
    break;
  case llvm::scMulExpr:
    result = Poly::constant(1);
    for (const llvm::SCEV *op : cast<llvm::SCEVMulExpr>(scev)->operands())
      result = result * toPoly(op);
    break;
  case llvm::scUDivExpr: {
    auto *div = cast<llvm::SCEVUDivExpr>(scev);
    Poly lhs = toPoly(div->getLHS()), rhs = toPoly(div->getRHS());
    std::optional<int64_t> divisor = rhs.asConstant();
    bool exact = divisor && *divisor != 0;
    if (exact)
      for (const auto &[m, c] : lhs.terms)
        exact = exact && c % *divisor == 0;
    if (exact) {
      for (auto &[m, c] : lhs.terms)
        c /= *divisor;
      result = lhs;
    } else if (std::optional<Poly> q = divided(lhs, rhs)) {
      result = *q;
    } else {
      result = unknownAtom("non-affine index (division)", nullptr);
    }
    break;
  }
  case llvm::scAddRecExpr: {
    auto *rec = cast<llvm::SCEVAddRecExpr>(scev);
    if (!rec->isAffine()) {
      result = unknownAtom("non-affine recurrence", nullptr);
      break;
    }
    result = toPoly(rec->getStart()) + toPoly(rec->getStepRecurrence(se_)) * iterAtom(rec->getLoop());
    break;
  }
  case llvm::scUMaxExpr:
  case llvm::scSMaxExpr:
  case llvm::scUMinExpr:
  case llvm::scSMinExpr:
  case llvm::scSequentialUMinExpr: {
    auto *nary = cast<llvm::SCEVNAryExpr>(scev);
    bool isMax = scev->getSCEVType() == llvm::scUMaxExpr || scev->getSCEVType() == llvm::scSMaxExpr;
    std::optional<Expr> folded;
    bool allInvariant = true;
    for (const llvm::SCEV *op : nary->operands()) {
      Poly p = toPoly(op);
      if (!invariant(p)) {
        allInvariant = false;
        break;
      }
      Expr e = toExpr(p);
      folded = !folded ? e : isMax ? Expr::max(*folded, e) : Expr::min(*folded, e);
    }
    result = allInvariant && folded ? opaque(*folded) : unknownAtom("non-affine index (min/max)", nullptr);
    break;
  }
  case llvm::scUnknown:
    result = valueAtom(cast<llvm::SCEVUnknown>(scev)->getValue());
    break;
  default:
    result = unknownAtom("expression it cannot follow", nullptr);
    break;
  }
  polys_[scev] = result;
  return result;
}

std::optional<Poly> KernelAnalysis::untruncated(const llvm::SCEV *narrow) {
  switch (narrow->getSCEVType()) {
  case llvm::scConstant: // a narrow constant's bits, unsigned (16 in 5 bits is not -16)
    return Poly::constant(static_cast<int64_t>(cast<llvm::SCEVConstant>(narrow)->getAPInt().getZExtValue()));
  case llvm::scTruncate:
    return toPoly(cast<llvm::SCEVTruncateExpr>(narrow)->getOperand());
  case llvm::scAddRecExpr: {
    auto *rec = cast<llvm::SCEVAddRecExpr>(narrow);
    std::optional<Poly> start = untruncated(rec->getStart());
    std::optional<Poly> step = rec->isAffine() ? untruncated(rec->getStepRecurrence(se_)) : std::nullopt;
    if (!start || !step)
      return std::nullopt;
    return *start + *step * iterAtom(rec->getLoop());
  }
  case llvm::scAddExpr:
  case llvm::scMulExpr: {
    bool add = narrow->getSCEVType() == llvm::scAddExpr;
    Poly result = add ? Poly() : Poly::constant(1);
    for (const llvm::SCEV *op : cast<llvm::SCEVNAryExpr>(narrow)->operands()) {
      std::optional<Poly> p = untruncated(op);
      if (!p)
        return std::nullopt;
      result = add ? result + *p : result * *p;
    }
    return result;
  }
  default:
    return std::nullopt;
  }
}

Linear KernelAnalysis::decompose(const Poly &p) {
  Linear lin;
  std::map<int, Poly> coefficients; // variable atom -> coefficient
  for (const auto &[m, c] : p.terms) {
    int variable = -1, variables = 0;
    for (int id : m) {
      if (atoms_[id].kind == AtomKind::Unknown) {
        if (lin.known) {
          lin.known = false;
          lin.reason = atoms_[id].reason;
          lin.cause = atoms_[id].cause;
          lin.where = atoms_[id].where;
        }
      } else if (isVariable(atoms_[id].kind)) {
        variable = id;
        ++variables;
      }
    }
    if (variables > 1 && lin.known) {
      lin.known = false;
      lin.reason = "non-affine index (product of thread or loop variables)";
    }
    if (variables == 1) {
      Monomial rest = m;
      rest.erase(std::find(rest.begin(), rest.end(), variable));
      Poly term;
      term.terms[rest] = c;
      coefficients[variable] = coefficients[variable] + term;
    } else if (variables == 0) {
      Poly term;
      term.terms[m] = c;
      lin.invariant = lin.invariant + term;
    }
  }
  std::map<int, Poly> tids, ctas; // dim -> coefficient
  for (const auto &[id, coeff] : coefficients) {
    if (coeff.isZero())
      continue;
    const Atom atom = atoms_[id];
    if (atom.kind == AtomKind::ThreadIdx)
      tids[atom.dim] = coeff;
    else if (atom.kind == AtomKind::BlockIdx)
      ctas[atom.dim] = coeff;
    else
      lin.iters[id] = coeff;
  }
  // Pair threadIdx.d with the blockIdx whose coefficient is blockDim.d (or a constant tile) times larger:
  // together they are one global index.
  for (auto &[d, ct] : tids) {
    int paired = -1;
    Poly width;
    for (int pass = 0; pass < 2 && paired < 0; ++pass)
      for (const auto &[e, cc] : ctas) {
        if ((pass == 0) != (e == d))
          continue;
        if (cc == ct * launchDim("blockDim", d)) {
          paired = e;
          width = launchDim("blockDim", d);
          break;
        }
        if (std::optional<int64_t> k = ratio(cc, ct); k && *k > 1) {
          paired = e;
          width = Poly::constant(*k);
          break;
        }
      }
    if (paired >= 0) {
      ctas.erase(paired);
      // A grid flattened in two dimensions (THREADID = (gridDim.x * blockIdx.y + blockIdx.x) * blockDim.x +
      // threadIdx.x): blockIdx.f steps over whole rows of gridDim.e blocks.
      int outer = -1;
      for (const auto &[f, cf] : ctas)
        if (cf == ct * width * launchDim("gridDim", paired)) {
          outer = f;
          break;
        }
      if (outer >= 0)
        ctas.erase(outer);
      lin.axes[{d, paired, outer}] = ct;
      lin.widths[{d, paired, outer}] = width;
    } else {
      lin.axes[{d, -1}] = ct;
    }
  }
  for (const auto &[e, cc] : ctas)
    lin.axes[{-1, e}] = cc;
  return lin;
}

std::optional<KernelAnalysis::FlatDigit> KernelAnalysis::flatDigit(const Linear &lin) const {
  if (lin.iters.empty())
    return std::nullopt;
  FlatDigit digit;
  std::vector<std::pair<Poly, Poly>> terms; // divisor (1 for the index itself), coefficient
  for (const auto &[id, coeff] : lin.iters) {
    const Atom &atom = atoms_[id];
    if (atom.kind != AtomKind::Quotient || (!terms.empty() && !(atom.quotientAxis == digit.axis)))
      return std::nullopt;
    digit.axis = atom.quotientAxis;
    digit.width = *atom.quotientWidth;
    digit.atoms.push_back(id);
    terms.emplace_back(*atom.divisor, coeff);
  }
  for (const auto &[axis, coeff] : lin.axes) {
    if (!(axis == digit.axis))
      return std::nullopt;
    terms.emplace_back(Poly::constant(1), coeff);
  }
  // Tests on the digits of a thread index alone (lane == 0) are lane tests (DigitTest), counted as such.
  if (terms.size() > 2 || digit.axis.cta < 0)
    return std::nullopt;
  if (terms.size() == 2) {
    if (!divideByTerm(terms[1].first, terms[0].first))
      std::swap(terms[0], terms[1]);
    std::optional<Poly> radix = divideByTerm(terms[1].first, terms[0].first);
    if (!radix || !(terms[1].second == (terms[0].second * *radix).scaled(-1)))
      return std::nullopt;
  }
  digit.below = terms[0].first;
  digit.coeff = terms[0].second;
  return digit;
}

void KernelAnalysis::compareConstraint(const llvm::ICmpInst *cmp, bool truth, std::vector<Constraint> &out) {
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()))
    return;
  llvm::CmpInst::Predicate pred = truth ? cmp->getPredicate() : cmp->getInversePredicate();
  Linear lhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(0))));
  Linear rhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(1))));
  if (!lhs.known || !rhs.known)
    return;
  if (lhs.axes.empty() && (!rhs.axes.empty() || (lhs.iters.empty() && !rhs.iters.empty()))) {
    std::swap(lhs, rhs);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  std::optional<FlatDigit> digit = rhs.axes.empty() && rhs.iters.empty() ? flatDigit(lhs) : std::nullopt;
  if (lhs.axes.size() != 1 && !digit)
    return;
  auto [axis, coeff] = digit ? std::pair<AxisKey, Poly>(digit->axis, digit->coeff)
                             : std::pair<AxisKey, Poly>(*lhs.axes.begin());
  // threadIdx.d < s, where s is the variable of a halving loop (tree reductions).
  if (lhs.iters.empty() && lhs.invariant.isZero() && coeff == Poly::constant(1) && axis.cta < 0 && rhs.axes.empty() &&
      rhs.iters.size() == 1 && rhs.invariant.isZero() && rhs.iters.begin()->second == Poly::constant(1) &&
      atoms_[rhs.iters.begin()->first].kind == AtomKind::HalvingIV &&
      (pred == llvm::CmpInst::ICMP_SLT || pred == llvm::CmpInst::ICMP_ULT)) {
    Constraint c;
    c.axis = axis;
    c.halvingAtom = rhs.iters.begin()->first;
    out.push_back(c);
    return;
  }
  if ((!lhs.iters.empty() && !digit) || !rhs.iters.empty() || !rhs.axes.empty())
    return;
  Poly width = digit ? digit->width : lhs.widths.count(axis) ? lhs.widths[axis] : Poly();
  Poly bound = rhs.invariant - lhs.invariant; // axis·k PRED bound
  Poly offset = lhs.invariant;
  // A scaled index (i = (blockIdx.x * blockDim.x + threadIdx.x) * 8; if (i < n)) bounds the axis by n / 8.
  std::optional<int64_t> k = coeff.asConstant();
  if (!k || *k == 0)
    return;
  if (*k < 0) {
    if (!llvm::CmpInst::isSigned(pred) && !llvm::CmpInst::isEquality(pred))
      return;
    bound = bound.scaled(-1);
    offset = offset.scaled(-1);
    k = -*k;
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  auto floorDiv = [&](const Poly &p) { return *k == 1 ? p : opaque(toExpr(p) / Expr::integer(*k)); };
  auto ceilDiv = [&](const Poly &p) { return *k == 1 ? p : opaque(Expr::ceilDiv(toExpr(p), Expr::integer(*k))); };
  Constraint c;
  c.axis = axis;
  c.width = width;
  if (digit) {
    c.digitBelow = digit->below;
    c.digitAtoms = digit->atoms;
  }
  switch (pred) {
  case llvm::CmpInst::ICMP_ULT:
  case llvm::CmpInst::ICMP_ULE:
    // (axis·k + c) <u bound also says axis·k + c >= 0 (range checks folded by instcombine)
    if (!offset.isZero())
      c.lower = ceilDiv(offset.scaled(-1));
    [[fallthrough]];
  case llvm::CmpInst::ICMP_SLT:
  case llvm::CmpInst::ICMP_SLE:
    c.upper = pred == llvm::CmpInst::ICMP_SLE || pred == llvm::CmpInst::ICMP_ULE ? floorDiv(bound) + Poly::constant(1)
                                                                                 : ceilDiv(bound);
    break;
  case llvm::CmpInst::ICMP_SGT:
  case llvm::CmpInst::ICMP_UGT:
    c.lower = floorDiv(bound) + Poly::constant(1);
    break;
  case llvm::CmpInst::ICMP_SGE:
  case llvm::CmpInst::ICMP_UGE:
    c.lower = ceilDiv(bound);
    break;
  case llvm::CmpInst::ICMP_EQ:
    c.lower = ceilDiv(bound);
    c.upper = floorDiv(bound) + Poly::constant(1);
    break;
  case llvm::CmpInst::ICMP_NE:
    // index != 0 on an index that starts at 0 (instcombine's form of index > 0)
    if (!bound.isZero())
      return;
    c.lower = Poly::constant(1);
    break;
  default:
    return;
  }
  out.push_back(c);
}

void KernelAnalysis::conditionConstraints(const llvm::Value *cond, bool truth, std::vector<Constraint> &out,
                                          bool *parameterTest, std::optional<Unmodelled> &unmodelled, int depth) {
  if (depth > 8)
    return;
  if (parameterOnly(cond, 0)) {
    *parameterTest = true;
    return;
  }
  auto note = [&](const llvm::Value *leaf) {
    if (!unmodelled)
      unmodelled = unmodelledTest(leaf);
  };
  if (auto *cmp = dyn_cast<llvm::ICmpInst>(cond)) {
    size_t before = out.size();
    compareConstraint(cmp, truth, out);
    if (out.size() == before && !movesWithLoop(cmp))
      note(cmp);
    return;
  }
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(cond)) {
    if ((bin->getOpcode() == llvm::Instruction::And && truth) || (bin->getOpcode() == llvm::Instruction::Or && !truth)) {
      conditionConstraints(bin->getOperand(0), truth, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(bin->getOperand(1), truth, out, parameterTest, unmodelled, depth + 1);
    } else if (auto *one = dyn_cast<llvm::ConstantInt>(bin->getOperand(1));
               bin->getOpcode() == llvm::Instruction::Xor && one && one->isOne()) {
      conditionConstraints(bin->getOperand(0), !truth, out, parameterTest, unmodelled, depth + 1);
    } else {
      note(bin); // one side of an || (or the negation of an &&): either may hold
    }
    return;
  }
  if (auto *select = dyn_cast<llvm::SelectInst>(cond)) {
    bool split = false;
    auto *constant = dyn_cast<llvm::ConstantInt>(select->getFalseValue());
    if (constant && constant->isZero() && truth) { // c1 && c2
      conditionConstraints(select->getCondition(), true, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(select->getTrueValue(), true, out, parameterTest, unmodelled, depth + 1);
      split = true;
    }
    constant = dyn_cast<llvm::ConstantInt>(select->getTrueValue());
    if (constant && constant->isOne() && !truth) { // !(c1 || c2)
      conditionConstraints(select->getCondition(), false, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(select->getFalseValue(), false, out, parameterTest, unmodelled, depth + 1);
      split = true;
    }
    if (!split)
      note(select);
    return;
  }
  note(cond);
}


bool KernelAnalysis::movesWithLoop(const llvm::ICmpInst *cmp) {
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()))
    return false;
  Linear lhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(0))));
  Linear rhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(1))));
  // A quotient of a thread index (row = i / cols, lane = tid % 32) is no loop's variable.
  auto loopVariable = [&](const Linear &side) {
    return std::any_of(side.iters.begin(), side.iters.end(),
                       [&](const auto &entry) { return atoms_[entry.first].kind != AtomKind::Quotient; });
  };
  if (lhs.known && rhs.known)
    return loopVariable(lhs) || loopVariable(rhs);
  // A test the expressions cannot write that still changes from trip to trip ((k + i) % 2 in a loop over k).
  const llvm::Loop *loop = li_.getLoopFor(cmp->getParent());
  return loop && (!se_.isLoopInvariant(se_.getSCEV(cmp->getOperand(0)), loop) ||
                  !se_.isLoopInvariant(se_.getSCEV(cmp->getOperand(1)), loop));
}

std::optional<KernelAnalysis::Unmodelled> KernelAnalysis::unmodelledTest(const llvm::Value *cond) const {
  std::set<const llvm::Value *> seen;
  if (dependsOnMemory(cond, seen, 0))
    return Unmodelled{"branch on values loaded from memory (the count depends on the data)",
                      UnknownCause::DataDependentBranch};
  seen.clear();
  if (dependsOnThread(cond, seen, 0))
    return Unmodelled{"guard on the thread coordinates it cannot express (a lane test, a rank over several "
                      "dimensions)",
                      UnknownCause::Analysis, true};
  return std::nullopt;
}

const std::vector<Constraint> &KernelAnalysis::guards(const llvm::BasicBlock *block) {
  auto cached = guards_.find(block);
  if (cached != guards_.end())
    return cached->second;
  std::vector<Constraint> out;
  llvm::DomTreeNode *node = dt_.getNode(block);
  for (llvm::DomTreeNode *up = node ? node->getIDom() : nullptr; up; up = up->getIDom()) {
    llvm::BasicBlock *from = up->getBlock();
    if (auto *select = dyn_cast<llvm::SwitchInst>(from->getTerminator())) {
      for (const llvm::BasicBlock *target : llvm::successors(from))
        if (llvm::BasicBlockEdge(from, target).isSingleEdge() && dt_.dominates(llvm::BasicBlockEdge(from, target), block) &&
            parameterOnly(select->getCondition(), 0)) {
          if (!unmodelledBranches_.count(block))
            unmodelledBranches_[block] = {select, {"branch on a parameter value (the count depends on which side runs)"}};
          threadTests_[block] = std::nullopt;
          uncountable_.insert(block);
        }
      continue;
    }
    auto *branch = dyn_cast<llvm::BranchInst>(from->getTerminator());
    if (!branch || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1))
      continue;
    // A loop's own exit test is the loop model's business, not a guard.
    const llvm::Loop *loop = li_.getLoopFor(from);
    bool loopExit = loop && loop->contains(block) && loop->isLoopExiting(from);
    for (unsigned s = 0; s < 2; ++s) {
      llvm::BasicBlockEdge edge(from, branch->getSuccessor(s));
      if (dt_.dominates(edge, block)) {
        bool parameterTest = false;
        std::optional<Unmodelled> unmodelled;
        size_t before = out.size();
        conditionConstraints(branch->getCondition(), s == 0, out, &parameterTest, unmodelled);
        if (std::any_of(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(),
                        [](const Constraint &c) { return c.digitBelow.has_value(); }))
          digitGuardBranches_.try_emplace(block, branch);
        if (parameterTest && !guardsLoop(branch) && !returnsAtOnce(branch->getSuccessor(1 - s))) {
          if (!unmodelledBranches_.count(block))
            unmodelledBranches_[block] = {branch, {"branch on a parameter value (the count depends on which side runs)"}};
          threadTests_[block] = std::nullopt;
          uncountable_.insert(block);
        }
        // The test that skips a loop it guards belongs to that loop (a data-dependent while loop is an unknown
        // of its own).
        if (unmodelled && !loopExit && !guardsLoop(branch)) {
          if (!unmodelledBranches_.count(block))
            unmodelledBranches_[block] = {branch, *unmodelled};
          recordThreadTest(block, branch->getCondition(), unmodelled->threadTest);
          if (std::optional<DigitTest> lane = digitTest(branch->getCondition(), s == 0))
            digitTests_[block].push_back(*lane);
          else
            uncountable_.insert(block);
        }
        break;
      }
    }
  }
  // Bounds on digits of a flat index narrow the footprint's digits (countMemory); the counts under them are
  // not modelled.
  auto digits = std::stable_partition(out.begin(), out.end(), [](const Constraint &c) { return !c.digitBelow; });
  if (digits != out.end()) {
    digitGuards_[block].assign(digits, out.end());
    out.erase(digits, out.end());
  }
  return guards_[block] = std::move(out);
}

void KernelAnalysis::recordThreadTest(const llvm::BasicBlock *block, const llvm::Value *cond, bool threadTest) {
  auto [entry, fresh] = threadTests_.try_emplace(block, std::array<bool, 3>{false, false, false});
  if (!entry->second)
    return;
  CoordinateUse use;
  std::set<const llvm::Value *> seen;
  collectCoordinates(cond, use, seen, 0);
  if (!threadTest || use.block) {
    entry->second = std::nullopt;
    return;
  }
  for (int d = 0; d < 3; ++d)
    (*entry->second)[d] = (*entry->second)[d] || use.thread[d];
}

bool KernelAnalysis::footprintIgnoresThreadTests(const llvm::BasicBlock *block,
                                                 const std::array<bool, 3> &addressMovesWith) const {
  auto tested = threadTests_.find(block);
  if (tested == threadTests_.end() || !tested->second)
    return false;
  for (int d = 0; d < 3; ++d)
    if ((*tested->second)[d] && addressMovesWith[d])
      return false;
  return true;
}

bool KernelAnalysis::parameterOnly(const llvm::Value *value, int depth) const {
  if (depth > 12)
    return false;
  if (isa<llvm::Argument>(value) || isa<llvm::Constant>(value))
    return true;
  if (auto *call = dyn_cast<llvm::CallInst>(value)) {
    const llvm::Function *callee = call->getCalledFunction();
    return callee && (callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.ntid.") ||
                      callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.nctaid."));
  }
  auto *inst = dyn_cast<llvm::Instruction>(value);
  if (!inst || isa<llvm::PHINode>(inst) || inst->mayReadFromMemory())
    return false;
  for (const llvm::Value *op : inst->operands())
    if (!parameterOnly(op, depth + 1))
      return false;
  return true;
}

bool KernelAnalysis::guardsLoop(const llvm::BranchInst *branch) const {
  for (const llvm::BasicBlock *successor : branch->successors())
    for (const llvm::Loop *loop : li_.getLoopsInPreorder())
      if ((loop->getLoopPreheader() == successor || loop->getHeader() == successor) &&
          !loop->contains(branch->getParent()))
        return testsLoopBound(branch, loop);
  return false;
}

bool KernelAnalysis::testsLoopBound(const llvm::BranchInst *branch, const llvm::Loop *loop) const {
  auto *guard = branch->isConditional() ? dyn_cast<llvm::ICmpInst>(branch->getCondition()) : nullptr;
  const llvm::BasicBlock *exiting = loop->getExitingBlock();
  auto *exit = exiting ? dyn_cast<llvm::BranchInst>(exiting->getTerminator()) : nullptr;
  auto *test = exit && exit->isConditional() ? dyn_cast<llvm::ICmpInst>(exit->getCondition()) : nullptr;
  // A test of parameters alone (`n / 16 > 0` folded to `n > 15`), of data (`nnz[row] > 0` in front of a loop
  // to nnz[row], whose trip count is the unknown to report), or nothing to compare it with: taken to be the
  // loop's own, as a rotated loop's guard is.
  std::set<const llvm::Value *> seen;
  if (!guard || !test || !se_.isSCEVable(guard->getOperand(0)->getType()) || parameterOnly(guard, 0) ||
      dependsOnMemory(guard, seen, 0))
    return true;
  auto stripped = [&](const llvm::Value *v) {
    const llvm::SCEV *s = se_.getSCEV(const_cast<llvm::Value *>(v));
    while (auto *cast = dyn_cast<llvm::SCEVIntegralCastExpr>(s))
      s = cast->getOperand();
    return s;
  };
  // The guard of `for (i = a; i < n; ...)` compares a with n (or n with 0): it shares the loop's bound.
  for (const llvm::Value *bound : test->operands())
    if (se_.isSCEVable(bound->getType()) && se_.isLoopInvariant(se_.getSCEV(const_cast<llvm::Value *>(bound)), loop))
      for (const llvm::Value *operand : guard->operands())
        if (stripped(operand) == stripped(bound))
          return true;
  return false;
}

bool KernelAnalysis::returnsAtOnce(const llvm::BasicBlock *block) {
  return isa<llvm::ReturnInst>(block->getTerminator()) && &*block->getFirstNonPHIOrDbg() == block->getTerminator();
}


bool KernelAnalysis::skipsLastTrip(const llvm::BasicBlock *block, const llvm::Loop *loop) const {
  const llvm::BasicBlock *latch = loop->getLoopLatch();
  auto *back = latch ? dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  if (!back || !back->isConditional() || block == latch)
    return false;
  unsigned stay = back->getSuccessor(0) == loop->getHeader() ? 0 : 1;
  llvm::DomTreeNode *node = dt_.getNode(block);
  for (llvm::DomTreeNode *up = node ? node->getIDom() : nullptr; up && loop->contains(up->getBlock());
       up = up->getIDom()) {
    auto *branch = dyn_cast<llvm::BranchInst>(up->getBlock()->getTerminator());
    if (branch && branch->isConditional() && branch != back && branch->getCondition() == back->getCondition() &&
        branch->getSuccessor(0) != branch->getSuccessor(1) &&
        dt_.dominates(llvm::BasicBlockEdge(up->getBlock(), branch->getSuccessor(stay)), block))
      return true;
  }
  return false;
}

const LoopModel &KernelAnalysis::loopModel(const llvm::Loop *loop) {
  auto cached = loops_.find(loop);
  if (cached != loops_.end())
    return cached->second;
  LoopModel model;
  for (const llvm::Instruction &inst : *loop->getHeader())
    if (inst.getDebugLoc()) {
      model.where = &inst;
      break;
    }
  model.iterAtom = iterAtom(loop).terms.begin()->first.front();
  model.start = loop->getStartLoc().get();

  // Tree reductions: for (s = start; s > 0; s >>= 1), first: ScalarEvolution counts the trips of a constant
  // start, but a `threadIdx < s` guard inside makes the work per trip shrink with s.
  if (llvm::BasicBlock *latch = loop->getLoopLatch()) {
    for (const llvm::PHINode &phi : loop->getHeader()->phis()) {
      auto *next = dyn_cast<llvm::BinaryOperator>(phi.getIncomingValueForBlock(latch));
      if (!next || next->getOperand(0) != &phi)
        continue;
      auto *amount = dyn_cast<llvm::ConstantInt>(next->getOperand(1));
      bool halves = amount && (((next->getOpcode() == llvm::Instruction::LShr || next->getOpcode() == llvm::Instruction::AShr) &&
                                amount->isOne()) ||
                               ((next->getOpcode() == llvm::Instruction::UDiv || next->getOpcode() == llvm::Instruction::SDiv) &&
                                amount->equalsInt(2)));
      if (!halves || phi.getNumIncomingValues() != 2)
        continue;
      unsigned entry = phi.getIncomingBlock(0) == latch ? 1 : 0;
      if (loop->contains(phi.getIncomingBlock(entry)))
        continue;
      Poly start = toPoly(se_.getSCEV(phi.getIncomingValue(entry)));
      if (!invariant(start))
        continue;
      halvingPhis_[&phi] = loop;
      polys_.clear(); // SCEVs that saw this phi as an unknown value must now see the halving variable
      model.kind = LoopModel::Halving;
      model.halvingStart = start;
      // Without a `threadIdx < s` guard every thread runs every trip: the trip count, where it has one.
      if (const llvm::SCEV *taken = se_.getBackedgeTakenCount(loop); !isa<llvm::SCEVCouldNotCompute>(taken))
        if (Poly trips = toPoly(taken) + Poly::constant(1); invariant(trips))
          model.trips = trips;
      char key[64];
      std::snprintf(key, sizeof key, "halving:%p", static_cast<const void *>(loop));
      Atom atom = makeAtom(AtomKind::HalvingIV, -1, loop, Expr());
      model.iterAtom = intern(key, atom);
      return loops_[loop] = model;
    }
  }

  const llvm::SCEV *taken = se_.getBackedgeTakenCount(loop);
  if (!isa<llvm::SCEVCouldNotCompute>(taken)) {
    Poly trips = toPoly(taken) + Poly::constant(1);
    // A rotated loop `for (k = 0; k < n; k += 16)` runs (n - 1) / 16 + 1 times once entered: ceil_div(n, 16).
    if (auto *div = dyn_cast<llvm::SCEVUDivExpr>(taken)) {
      auto *step = dyn_cast<llvm::SCEVConstant>(div->getRHS());
      Poly numerator = toPoly(div->getLHS()) + Poly::constant(1);
      if (step && !step->isZero() && invariant(numerator))
        trips = opaque(Expr::ceilDiv(toExpr(numerator), Expr::integer(step->getAPInt().getSExtValue())));
    }
    Linear lin = decompose(trips);
    if (lin.known && lin.axes.empty() && lin.iters.empty()) {
      model.kind = LoopModel::Counted;
      model.trips = trips;
      return loops_[loop] = model;
    }
  }

  // Block- and grid-stride loops: for (i = base + axis; i < bound; i += extent(axis)). Over all threads of
  // the axis they visit every value of [base, bound) exactly once.
  llvm::BasicBlock *exiting = loop->getExitingBlock();
  auto *branch = exiting ? dyn_cast<llvm::BranchInst>(exiting->getTerminator()) : nullptr;
  auto *cmp = branch && branch->isConditional() ? dyn_cast<llvm::ICmpInst>(branch->getCondition()) : nullptr;
  if (cmp && se_.isSCEVable(cmp->getOperand(0)->getType())) {
    for (int side = 0; side < 2 && model.kind == LoopModel::Unknown; ++side) {
      // `col < ncols` with an int column and an int64_t bound compares sext(col): look through the extension
      // (indices do not overflow in a valid launch, as everywhere else).
      const llvm::SCEV *tested = se_.getSCEV(cmp->getOperand(side));
      while (auto *cast = dyn_cast<llvm::SCEVIntegralCastExpr>(tested))
        tested = cast->getOperand();
      auto *rec = dyn_cast<llvm::SCEVAddRecExpr>(tested);
      const llvm::SCEV *other = se_.getSCEV(cmp->getOperand(1 - side));
      if (!rec || rec->getLoop() != loop || !rec->isAffine() || !se_.isLoopInvariant(other, loop))
        continue;
      // The exit test may compare the induction variable or its next value: start from the header phi.
      const llvm::SCEV *stepScev = rec->getStepRecurrence(se_);
      const llvm::SCEVAddRecExpr *phiRec = nullptr;
      for (llvm::PHINode &phi : loop->getHeader()->phis()) {
        if (!se_.isSCEVable(phi.getType()))
          continue;
        auto *candidate = dyn_cast<llvm::SCEVAddRecExpr>(se_.getSCEV(&phi));
        if (candidate && candidate->getLoop() == loop &&
            (candidate == rec || se_.getAddExpr(candidate, stepScev) == rec)) {
          phiRec = candidate;
          break;
        }
      }
      if (!phiRec)
        continue;
      Poly start = toPoly(phiRec->getStart()), step = toPoly(stepScev), bound = toPoly(other);
      if (!invariant(bound) || !invariant(step))
        continue;
      for (const Poly &first : {start}) {
        Linear lin = decompose(first);
        if (!lin.known || lin.axes.size() != 1 || !lin.iters.empty() || !invariant(lin.invariant))
          continue;
        auto [axis, coeff] = *lin.axes.begin();
        Poly width = lin.widths.count(axis) ? lin.widths[axis] : Poly();
        std::optional<int64_t> scale = coeff.asConstant();
        if (!scale || *scale <= 0)
          continue;
        // for (i = threadIdx.x; i < n; i += 256), launched with 256 threads or not: which values the threads
        // visit is known (the footprint), how many trips each makes depends on blockDim (the count is not).
        if (std::optional<int64_t> constantStep = step.asConstant(); *scale == 1 && constantStep &&
                                                                    *constantStep > 0 && axis.cta < 0 &&
                                                                    !(step == extent(axis, width))) {
          model.kind = LoopModel::Strided;
          model.step = *constantStep;
          model.reason = "block-stride loop with a constant step that need not be blockDim (the trip count depends "
                         "on both)";
        } else if (step == extent(axis, width).scaled(*scale)) {
          // Also scaled: for (y = 2 * threadIdx.x; y < n; y += 2 * blockDim.x), two values a thread a trip.
          model.kind = LoopModel::Cover;
          model.scale = *scale;
        } else {
          continue;
        }
        model.axis = axis;
        model.width = width;
        model.base = lin.invariant;
        model.bound = bound;
        return loops_[loop] = model;
      }
      // for (i = start; i < bound; i += step) with everything invariant, where ScalarEvolution gave up
      // proving that i cannot wrap: ceil_div(bound - start, step) trips (the loop is entered).
      llvm::CmpInst::Predicate pred = side == 0 ? cmp->getPredicate() : cmp->getSwappedPredicate();
      if (branch->getSuccessor(0) != loop->getHeader() && !loop->contains(branch->getSuccessor(0)))
        pred = llvm::CmpInst::getInversePredicate(pred); // the true edge leaves the loop
      Linear startLin = decompose(start);
      if (startLin.known && startLin.axes.empty() && startLin.iters.empty() && invariant(start)) {
        std::optional<Expr> trips;
        switch (pred) {
        case llvm::CmpInst::ICMP_SLT:
        case llvm::CmpInst::ICMP_ULT:
        case llvm::CmpInst::ICMP_NE:
          trips = Expr::ceilDiv(toExpr(bound - start), toExpr(step));
          break;
        case llvm::CmpInst::ICMP_SLE:
        case llvm::CmpInst::ICMP_ULE:
          trips = Expr::ceilDiv(toExpr(bound - start + Poly::constant(1)), toExpr(step));
          break;
        case llvm::CmpInst::ICMP_SGT:
        case llvm::CmpInst::ICMP_UGT:
          trips = Expr::ceilDiv(toExpr(start - bound), toExpr(step.scaled(-1)));
          break;
        case llvm::CmpInst::ICMP_SGE:
        case llvm::CmpInst::ICMP_UGE:
          trips = Expr::ceilDiv(toExpr(start - bound + Poly::constant(1)), toExpr(step.scaled(-1)));
          break;
        default:
          break;
        }
        if (trips) {
          model.kind = LoopModel::Counted;
          model.trips = opaque(*trips);
          return loops_[loop] = model;
        }
      }
    }
  }

  std::set<const llvm::Value *> seen;
  bool dataDependent = false;
  if (branch && branch->isConditional())
    dataDependent = dependsOnMemory(branch->getCondition(), seen, 0);
  model.kind = LoopModel::Unknown;
  model.cause = dataDependent ? UnknownCause::DataDependentLoop : UnknownCause::Analysis;
  model.reason = dataDependent ? "data-dependent loop (trip count depends on values loaded from memory)"
                               : "loop trip count it cannot determine";
  return loops_[loop] = model;
}

Expr KernelAnalysis::rangeCount(const AxisKey &axis, const Poly &width, const std::vector<const Constraint *> &constraints) {
  Poly full = extent(axis, width);
  std::optional<Expr> hi, lo;
  bool constantUpper = false;
  for (const Constraint *c : constraints) {
    if (c->upper) {
      Expr upper = toExpr(*c->upper);
      constantUpper = constantUpper || c->upper->asConstant().has_value();
      hi = hi ? Expr::min(*hi, upper) : upper;
    }
    if (c->lower) {
      Expr lower = toExpr(*c->lower);
      lo = lo ? Expr::max(*lo, lower) : lower;
    }
  }
  // A constant bound (tid == 0, tid < 32) is taken to lie inside the launch: no min with the extent.
  Expr upper = !hi ? toExpr(full) : constantUpper ? *hi : Expr::min(*hi, toExpr(full));
  return (lo ? upper - *lo : upper).simplified();
}

/// Lane tests repeat within a warp or a few: longer periods are not listed.
constexpr int64_t longestDigitPeriod = 4096;

std::optional<DigitTest> KernelAnalysis::digitTest(const llvm::Value *cond, bool truth) {
  auto *cmp = dyn_cast<llvm::ICmpInst>(cond);
  if (!cmp || !cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  Linear sides[2] = {decompose(toPoly(se_.getSCEV(cmp->getOperand(0)))),
                     decompose(toPoly(se_.getSCEV(cmp->getOperand(1))))};
  // Each side: a constant plus multiples of one threadIdx coordinate and of its quotients by constants.
  std::optional<int> dim;
  int64_t period = 1;
  for (const Linear &side : sides) {
    if (!side.known || !side.invariant.asConstant())
      return std::nullopt;
    for (const auto &[axis, coeff] : side.axes) {
      if (axis.tid < 0 || axis.cta >= 0 || axis.outer >= 0 || !coeff.asConstant() || (dim && *dim != axis.tid))
        return std::nullopt;
      dim = axis.tid;
    }
    for (const auto &[id, coeff] : side.iters) {
      const Atom &q = atoms_[id];
      std::optional<int64_t> divisor = q.kind == AtomKind::Quotient ? q.divisor->asConstant() : std::nullopt;
      if (!divisor || *divisor <= 0 || !coeff.asConstant() || q.quotientAxis.tid < 0 || q.quotientAxis.cta >= 0 ||
          q.quotientAxis.outer >= 0 || (dim && *dim != q.quotientAxis.tid))
        return std::nullopt;
      dim = q.quotientAxis.tid;
      period = std::lcm(period, *divisor);
      if (period > longestDigitPeriod)
        return std::nullopt;
    }
  }
  if (!dim)
    return std::nullopt;
  auto valueAt = [&](const Linear &side, int64_t t) {
    int64_t v = *side.invariant.asConstant();
    for (const auto &[axis, coeff] : side.axes)
      v += *coeff.asConstant() * t;
    for (const auto &[id, coeff] : side.iters)
      v += *coeff.asConstant() * (t / *atoms_[id].divisor->asConstant());
    return v;
  };
  // Only a test that repeats (the remainder of the index, not the index itself) is a lane test.
  for (const Linear &side : sides)
    if (valueAt(side, period) != valueAt(side, 0))
      return std::nullopt;
  DigitTest test{*dim, period, std::vector<bool>(static_cast<size_t>(period))};
  const unsigned bits = cmp->getOperand(0)->getType()->getIntegerBitWidth();
  llvm::CmpInst::Predicate pred = truth ? cmp->getPredicate() : cmp->getInversePredicate();
  for (int64_t r = 0; r < period; ++r) // compared as the instruction compares: at its width, signed or not
    test.passes[r] = llvm::ICmpInst::compare(llvm::APInt(bits, valueAt(sides[0], r), true, true),
                                             llvm::APInt(bits, valueAt(sides[1], r), true, true), pred);
  return test;
}

std::optional<Expr> KernelAnalysis::digitCount(const Expr &extent, const std::vector<DigitTest> &tests) {
  int64_t period = 1;
  for (const DigitTest &t : tests)
    if ((period = std::lcm(period, t.period)) > longestDigitPeriod)
      return std::nullopt;
  std::vector<bool> passes(static_cast<size_t>(period), true);
  for (const DigitTest &t : tests)
    for (int64_t r = 0; r < period; ++r)
      passes[r] = passes[r] && t.passes[r % t.period];
  // Whole periods each pass the same threads; the last, partial one passes those of each run of passing
  // remainders [lo, hi) that it reaches.
  Expr p = Expr::integer(period);
  Expr rounds = extent / p, rest = extent - p * rounds;
  int64_t perPeriod = std::count(passes.begin(), passes.end(), true);
  Expr total = rounds * Expr::integer(perPeriod);
  for (int64_t lo = 0; lo < period;) {
    if (!passes[lo]) {
      ++lo;
      continue;
    }
    int64_t hi = lo;
    while (hi < period && passes[hi])
      ++hi;
    total = total + Expr::min(Expr::max(rest - Expr::integer(lo), Expr::integer(0)), Expr::integer(hi - lo));
    lo = hi;
  }
  return total.simplified();
}

Count KernelAnalysis::countBlock(const llvm::BasicBlock *block) {
  Count count;
  const std::vector<Constraint> &constraints = guards(block);
  auto unmodelled = [&] {
    auto found = unmodelledBranches_.find(block);
    count.reason = found->second.second.reason;
    count.cause = found->second.second.cause;
    count.where = found->second.first;
    return count;
  };
  if (auto digitGuarded = digitGuardBranches_.find(block); digitGuarded != digitGuardBranches_.end()) {
    count.reason = "guard on a digit of a flat index (i % n, i / n) whose threads it does not count";
    count.where = digitGuarded->second;
    return count;
  }
  // Lane tests alone among the unmodelled branches (if (lane == 0) after a warp reduction) are counted below.
  std::map<int, std::vector<DigitTest>> lanes;
  if (unmodelledBranches_.count(block)) {
    if (uncountable_.count(block) || !digitTests_.count(block))
      return unmodelled();
    for (const DigitTest &test : digitTests_.at(block))
      lanes[test.dim].push_back(test);
  }
  Expr factor = Expr::integer(1);
  std::map<AxisKey, Expr> overrides;
  for (const llvm::Loop *loop = li_.getLoopFor(block); loop; loop = loop->getParentLoop()) {
    const LoopModel &model = loopModel(loop);
    switch (model.kind) {
    case LoopModel::Counted:
      factor = factor * tripsReaching(block, loop);
      break;
    case LoopModel::Cover:
      overrides[model.axis] = coverSpan(model);
      break;
    case LoopModel::Halving: {
      const Constraint *guard = nullptr;
      for (const Constraint &c : constraints)
        if (c.halvingAtom == model.iterAtom)
          guard = &c;
      if (!guard && model.trips.isZero()) {
        count.reason = "halving loop whose trip count has no closed form";
        count.where = model.where;
        count.at = model.start;
        return count;
      }
      if (!guard) {
        factor = factor * toExpr(model.trips);
        break;
      }
      // threadIdx < s for s = start, start/2, ..., 1: start + start/2 + ... + 1 = 2*start - 1 threads
      // (start a power of two no larger than the block, as tree reductions are written).
      overrides[guard->axis] = toExpr(model.halvingStart.scaled(2) - Poly::constant(1));
      break;
    }
    case LoopModel::Strided:
    case LoopModel::Unknown:
      count.reason = model.reason;
      count.cause = model.cause;
      count.where = model.where;
      count.at = model.start;
      return count;
    }
  }
  std::set<int> used; // thread coordinates: threadIdx.d = d, blockIdx.e = 3 + e
  auto coordinates = [](const AxisKey &axis) {
    std::vector<int> c;
    if (axis.tid >= 0)
      c.push_back(axis.tid);
    if (axis.cta >= 0)
      c.push_back(3 + axis.cta);
    if (axis.outer >= 0)
      c.push_back(3 + axis.outer);
    return c;
  };
  auto claim = [&](const AxisKey &axis) {
    for (int c : coordinates(axis))
      if (used.count(c))
        return false;
    for (int c : coordinates(axis))
      used.insert(c);
    return true;
  };
  Expr total = factor;
  for (const auto &[axis, value] : overrides)
    if (claim(axis))
      total = total * value;
  std::map<AxisKey, std::vector<const Constraint *>> byAxis;
  std::map<AxisKey, Poly> widths;
  for (const Constraint &c : constraints)
    if (c.halvingAtom < 0 && !overrides.count(c.axis)) {
      byAxis[c.axis].push_back(&c);
      widths[c.axis] = c.width;
    }
  for (const auto &[axis, list] : byAxis)
    if (claim(axis)) // a coordinate already bounded through another axis keeps that bound only
      total = total * rangeCount(axis, widths[axis], list);
  for (const auto &[dim, tests] : lanes) {
    std::optional<Expr> passing = digitCount(toExpr(launchDim("blockDim", dim)), tests);
    if (used.count(dim) || !passing) // a lane test beside another bound on the same coordinate
      return unmodelled();
    used.insert(dim);
    total = total * *passing;
  }
  for (int d = 0; d < 3; ++d) {
    if (!used.count(d))
      total = total * toExpr(launchDim("blockDim", d));
    if (!used.count(3 + d))
      total = total * toExpr(launchDim("gridDim", d));
  }
  count.value = total.simplified();
  return count;
}

/// The call argument behind asm operand $N: outputs and inputs are numbered together, clobbers are not, and
/// only inputs and indirect outputs are arguments of the call. Null for a direct output.
const llvm::Value *asmOperand(const llvm::CallInst &call, const llvm::InlineAsm &asm_, int number) {
  int operand = 0;
  unsigned argument = 0;
  for (const llvm::InlineAsm::ConstraintInfo &info : asm_.ParseConstraints()) {
    if (info.Type == llvm::InlineAsm::isClobber)
      continue;
    bool isArgument = info.Type == llvm::InlineAsm::isInput || info.isIndirect;
    if (operand == number)
      return isArgument && argument < call.arg_size() ? call.getArgOperand(argument) : nullptr;
    ++operand;
    argument += isArgument;
  }
  return nullptr;
}

std::vector<KernelAnalysis::Access> KernelAnalysis::accessesOf(const llvm::Instruction &inst) {
  std::vector<Access> out;
  auto add = [&](const char *kind, const llvm::Value *address, llvm::Type *type, int64_t bytes = 0) {
    out.push_back({&inst, kind, address, bytes ? bytes : static_cast<int64_t>(dl_.getTypeStoreSize(type)), ""});
  };
  auto unknown = [&](const char *kind, std::string reason) {
    out.push_back({&inst, kind, nullptr, 0, std::move(reason)});
  };
  if (auto *load = dyn_cast<llvm::LoadInst>(&inst))
    add("load", load->getPointerOperand(), load->getType());
  else if (auto *store = dyn_cast<llvm::StoreInst>(&inst))
    add("store", store->getPointerOperand(), store->getValueOperand()->getType());
  else if (auto *rmw = dyn_cast<llvm::AtomicRMWInst>(&inst))
    add("atomic", rmw->getPointerOperand(), rmw->getValOperand()->getType());
  else if (auto *xchg = dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    add("atomic", xchg->getPointerOperand(), xchg->getNewValOperand()->getType());
  else if (auto *transfer = dyn_cast<llvm::MemTransferInst>(&inst)) {
    if (auto *length = dyn_cast<llvm::ConstantInt>(transfer->getLength())) {
      add("load", transfer->getRawSource(), nullptr, length->getSExtValue());
      add("store", transfer->getRawDest(), nullptr, length->getSExtValue());
    } else if (!onChip(transfer->getRawSource()) || !onChip(transfer->getRawDest())) {
      unknown("load", "memcpy of a length it cannot follow");
      unknown("store", "memcpy of a length it cannot follow");
    }
  } else if (auto *set = dyn_cast<llvm::MemSetInst>(&inst)) {
    if (auto *length = dyn_cast<llvm::ConstantInt>(set->getLength()))
      add("store", set->getRawDest(), nullptr, length->getSExtValue());
    else if (!onChip(set->getRawDest()))
      unknown("store", "memset of a length it cannot follow");
  } else if (auto *call = dyn_cast<llvm::CallInst>(&inst)) {
    auto *asm_ = dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
    if (!asm_)
      return out;
    for (const PtxMemoryOp &op : readInlinePtx(asm_->getAsmString().str()).memory) {
      if (op.space != "global" && op.space != "generic")
        continue; // shared, local, const, param: on chip
      const char *kind = op.kind == PtxMemoryOp::Load ? "load" : op.kind == PtxMemoryOp::Store ? "store" : "atomic";
      const llvm::Value *address = asmOperand(*call, *asm_, op.addressOperand);
      // "l"(pointer) arrives as a pointer; "l"(__cvta_generic_to_global(p)) as an integer made from one.
      if (auto *cast = dyn_cast_or_null<llvm::PtrToIntOperator>(address))
        address = cast->getPointerOperand();
      int64_t bytes = op.bytes;
      if (!bytes && op.sizeOperand >= 0)
        if (auto *size = dyn_cast_or_null<llvm::ConstantInt>(asmOperand(*call, *asm_, op.sizeOperand)))
          bytes = size->getSExtValue();
      if (op.tensorMap)
        unknown(kind, "tensor-map copy in inline assembly (" + op.mnemonic + "): its box is in the tensor map");
      else if (!address || !address->getType()->isPointerTy())
        unknown(kind, "inline assembly address it cannot follow (" + op.mnemonic + ")");
      else if (!bytes)
        unknown(kind, "inline assembly of a size it cannot follow (" + op.mnemonic + ")");
      else if (op.space == "global" || !onChip(address))
        add(kind, address, nullptr, bytes);
    }
  }
  return out;
}

const llvm::SCEV *KernelAnalysis::byteOffset(const llvm::Value *pointer) {
  const llvm::SCEV *address = se_.getSCEV(const_cast<llvm::Value *>(pointer));
  const llvm::SCEV *base = se_.getPointerBase(address);
  const llvm::SCEV *offset = se_.getMinusSCEV(address, base);
  auto *unknown = dyn_cast<llvm::SCEVUnknown>(base);
  auto *cast = unknown ? dyn_cast<llvm::AddrSpaceCastOperator>(unknown->getValue()) : nullptr;
  if (!cast || isa<llvm::SCEVCouldNotCompute>(offset))
    return offset;
  const llvm::SCEV *inner = byteOffset(cast->getPointerOperand());
  if (isa<llvm::SCEVCouldNotCompute>(inner))
    return inner;
  llvm::Type *wide = se_.getWiderType(offset->getType(), inner->getType());
  return se_.getAddExpr(se_.getNoopOrSignExtend(offset, wide), se_.getNoopOrSignExtend(inner, wide));
}

std::optional<std::string> KernelAnalysis::parameterField(const llvm::LoadInst *load) const {
  if (!readsParameter(load))
    return std::nullopt;
  const llvm::Value *address = load->getPointerOperand();
  llvm::APInt offset(dl_.getIndexTypeSizeInBits(address->getType()), 0);
  const llvm::Value *object = address->stripAndAccumulateConstantOffsets(dl_, offset, true);
  auto *arg = dyn_cast<llvm::Argument>(object);
  if (!arg)
    return std::nullopt;
  return paramName(arg->getArgNo()) + "+" + std::to_string(offset.getSExtValue());
}

bool KernelAnalysis::onChip(const llvm::Value *pointer) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space == AddressSpace::Shared || space == AddressSpace::Constant || space == AddressSpace::Local ||
      space == AddressSpace::Param)
    return true;
  const llvm::Value *base = llvm::getUnderlyingObject(pointer, 0);
  if (isa<llvm::AllocaInst>(base))
    return true;
  if (auto *arg = dyn_cast<llvm::Argument>(base))
    return arg->hasByValAttr();
  if (auto *global = dyn_cast<llvm::GlobalVariable>(base))
    return global->getAddressSpace() == AddressSpace::Shared || global->getAddressSpace() == AddressSpace::Constant ||
           global->getAddressSpace() == AddressSpace::Local;
  return false;
}

std::array<bool, 3> KernelAnalysis::threadDependence(const Linear &lin) const {
  std::array<bool, 3> depends{false, false, false};
  for (const auto &[axis, coeff] : lin.axes)
    if (axis.tid >= 0 && !coeff.isZero())
      depends[axis.tid] = true;
  for (const auto &[id, coeff] : lin.iters)
    if (atoms_[id].kind == AtomKind::Quotient && atoms_[id].quotientAxis.tid >= 0)
      depends[atoms_[id].quotientAxis.tid] = true;
  return depends;
}


struct FootprintGroup {
  std::string pointer;
  bool write = false;
  std::vector<Progression> progressions;
  int64_t elementBytes = 0;
  std::vector<Poly> offsets;
  std::optional<Poly> strideX; ///< coefficient of threadIdx.x in bytes; empty: 0
  std::vector<size_t> members; ///< indices into KernelEstimate::accesses
  /// A guard on threadIdx alone picked the first threads of every block (if (threadIdx.x < RADIUS)): the
  /// global index is taken apart into a thread and a block progression.
  bool splitByThreadGuard = false;
  /// The union of several boxes around this one, the centre (uniteShiftedBoxes), where it is not one box.
  std::optional<Expr> unitedFootprint;
};

std::string KernelAnalysis::progressionSignature(std::vector<Progression> &progressions) const {
  std::sort(progressions.begin(), progressions.end(), [&](const Progression &a, const Progression &b) {
    return toExpr(a.stride).str() + "|" + a.count.str() < toExpr(b.stride).str() + "|" + b.count.str();
  });
  std::string signature;
  for (const Progression &p : progressions)
    signature += toExpr(p.stride).str() + "|" + p.count.str() + ";";
  return signature;
}

/// The fields of an array of structs that a group's accesses touch: one progression whose constant stride is
/// the struct, every access a constant offset whose bytes lie inside one struct. `key` names the array, the
/// direction and the rest of the offset; `intervals` are the bytes of one struct touched, [start, end).
struct FieldPattern {
  std::string key;
  std::vector<std::pair<int64_t, int64_t>> intervals;
  Expr count;
  bool write = false;
  bool holes = false; ///< the intervals leave bytes of their span untouched (pos and mass, not vel between)
};

std::optional<FieldPattern> KernelAnalysis::fieldPattern(const FootprintGroup &group) const {
  if (group.progressions.size() != 1 || group.offsets.empty())
    return std::nullopt;
  std::optional<int64_t> stride = group.progressions.front().stride.asConstant();
  if (!stride || *stride <= 0)
    return std::nullopt;
  Poly rest = group.offsets.front();
  if (auto constant = rest.terms.find({}); constant != rest.terms.end())
    rest.terms.erase(constant);
  FieldPattern pattern{group.pointer + (group.write ? " w " : " r ") + toExpr(rest).str() + " struct " +
                           std::to_string(*stride),
                       {},
                       group.progressions.front().count,
                       group.write};
  for (const Poly &offset : group.offsets) {
    std::optional<int64_t> start = (offset - rest).asConstant();
    if (!start || *start < 0 || *start + group.elementBytes > *stride)
      return std::nullopt;
    pattern.intervals.push_back({*start, *start + group.elementBytes});
  }
  std::sort(pattern.intervals.begin(), pattern.intervals.end());
  for (size_t i = 1, end = pattern.intervals.front().second; i < pattern.intervals.size(); ++i) {
    pattern.holes = pattern.holes || pattern.intervals[i].first > static_cast<int64_t>(end);
    end = std::max<size_t>(end, pattern.intervals[i].second);
  }
  return pattern;
}

/// The union of field patterns over one array: each byte of the struct counts once for every struct any
/// pattern touches it in. Every pattern's positions are a prefix of the array (the first `count` structs),
/// so a byte's structs are the longest of the prefixes that touch it.
Expr fieldUnion(const std::vector<FieldPattern> &patterns) {
  std::set<int64_t> cuts;
  for (const FieldPattern &p : patterns)
    for (const auto &[start, end] : p.intervals)
      cuts.insert({start, end});
  std::map<std::string, std::pair<int64_t, Expr>> bytesByCount;
  for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it) {
    int64_t start = *it, end = *std::next(it);
    std::optional<Expr> count;
    for (const FieldPattern &p : patterns)
      if (std::any_of(p.intervals.begin(), p.intervals.end(),
                      [&](const auto &in) { return in.first <= start && end <= in.second; }))
        count = count ? Expr::max(*count, p.count).simplified() : p.count;
    if (!count)
      continue;
    auto &entry = bytesByCount.try_emplace(count->str(), 0, *count).first->second;
    entry.first += end - start;
  }
  Expr total = Expr::integer(0);
  for (const auto &[text, entry] : bytesByCount)
    total = total + Expr::integer(entry.first) * entry.second;
  return total.simplified();
}

void KernelAnalysis::splitGlobalIndices(std::map<std::string, FootprintGroup> &groups) {
  // Where a guard took one access's global index apart, or an access walks the blocks alone (the tid == 0
  // side of a branch, where the compiler folded threadIdx.x to 0), the unguarded global indices of the same
  // pointer and direction are taken apart too: then a block's first threads and all of its threads are
  // boxes with the same block progression, which union. Not where a guarded global index (i < n) of that
  // pointer would then no longer union with the unguarded ones.
  std::set<std::string> split, guarded;
  for (const auto &[key, group] : groups) {
    std::string side = group.pointer + (group.write ? " w" : " r");
    if (group.splitByThreadGuard)
      split.insert(side);
    for (const Progression &p : group.progressions) {
      if (p.blockOnly)
        split.insert(side);
      if (p.guardedGlobal)
        guarded.insert(side);
    }
  }
  for (const std::string &side : guarded)
    split.erase(side);
  if (split.empty())
    return;
  std::map<std::string, FootprintGroup> regrouped;
  for (auto &[key, group] : groups) {
    if (split.count(group.pointer + (group.write ? " w" : " r"))) {
      std::vector<Progression> progressions;
      for (const Progression &p : group.progressions) {
        if (p.pairedTid < 0) {
          progressions.push_back(p);
          continue;
        }
        progressions.push_back({p.stride, toExpr(launchDim("blockDim", p.pairedTid))});
        progressions.push_back({p.stride * p.pairedWidth, toExpr(launchDim("gridDim", p.pairedCta))});
      }
      group.progressions = progressions;
    }
    regroup(regrouped, group);
  }
  groups = std::move(regrouped);
}

void KernelAnalysis::regroup(std::map<std::string, FootprintGroup> &groups, FootprintGroup group) const {
  std::string key = group.pointer + (group.write ? " w " : " r ") + std::to_string(group.elementBytes) + " " +
                    progressionSignature(group.progressions) + (group.unitedFootprint ? " united" : "");
  auto [it, fresh] = groups.try_emplace(key, group);
  if (!fresh) {
    it->second.offsets.insert(it->second.offsets.end(), group.offsets.begin(), group.offsets.end());
    it->second.members.insert(it->second.members.end(), group.members.begin(), group.members.end());
  }
}

/// A neighbour box beside `centre`: over the same progressions, differing from it along one of them only (in
/// its range, or shifted by a few positions). The dimension it differs along (none: the same box) and the
/// shift, in positions.
std::optional<std::pair<std::optional<size_t>, int64_t>> neighbourAlong(const FootprintGroup &centre,
                                                                       const FootprintGroup &box) {
  constexpr int64_t farthestShift = 16; // a stencil's reach: the ranges along the shift still meet
  std::vector<size_t> differing;
  for (size_t k = 0; k < centre.progressions.size(); ++k)
    if (centre.progressions[k].count.str() != box.progressions[k].count.str())
      differing.push_back(k);
  Poly delta = box.offsets.front() - centre.offsets.front();
  if (delta.isZero()) {
    if (differing.size() > 1)
      return std::nullopt;
    return std::make_pair(differing.empty() ? std::nullopt : std::optional<size_t>(differing.front()), int64_t(0));
  }
  for (size_t k = 0; k < centre.progressions.size(); ++k)
    if (std::optional<int64_t> shift = ratio(delta, centre.progressions[k].stride);
        shift && std::llabs(*shift) <= farthestShift &&
        (differing.empty() || (differing.size() == 1 && differing.front() == k)))
      return std::make_pair(std::optional<size_t>(k), *shift);
  return std::nullopt;
}

void KernelAnalysis::uniteShiftedBoxes(std::map<std::string, FootprintGroup> &groups) const {
  // Boxes of one array, direction and element over the same strides, each at one offset.
  std::map<std::string, std::vector<FootprintGroup>> sets;
  std::map<std::string, FootprintGroup> united;
  for (auto &[key, group] : groups) {
    if (group.offsets.size() != 1 || group.progressions.empty()) {
      united.emplace(key, std::move(group));
      continue;
    }
    std::string strides;
    for (const Progression &p : group.progressions)
      strides += toExpr(p.stride).str() + (p.threadLoop ? " loop;" : ";");
    sets[group.pointer + (group.write ? " w " : " r ") + std::to_string(group.elementBytes) + " " + strides]
        .push_back(std::move(group));
  }
  for (auto &[key, boxes] : sets) {
    // A centre every other box is a neighbour of: along each dimension, the neighbours' hull with the centre
    // is an arm; the arms meet in the centre alone, so the union is the arms' sum less the centre counted
    // once for each arm past the first (a five-point stencil whose guards keep it inside the grid).
    size_t centre = 0;
    std::vector<std::pair<std::optional<size_t>, int64_t>> along;
    for (; centre < boxes.size(); ++centre) {
      along.clear();
      for (const FootprintGroup &box : boxes)
        if (auto neighbour = neighbourAlong(boxes[centre], box))
          along.push_back(*neighbour);
      if (along.size() == boxes.size())
        break;
    }
    if (boxes.size() < 2 || centre == boxes.size()) {
      for (FootprintGroup &box : boxes)
        regroup(united, std::move(box));
      continue;
    }
    const FootprintGroup &middle = boxes[centre];
    // dimension -> first position and the candidates for the end, relative to the centre; of two candidates
    // a constant apart only the larger stays.
    std::map<size_t, std::pair<int64_t, std::vector<Expr>>> extents;
    for (size_t b = 0; b < boxes.size(); ++b) {
      if (!along[b].first)
        continue;
      size_t k = *along[b].first;
      int64_t shift = along[b].second;
      auto &[first, ends] =
          extents.try_emplace(k, 0, std::vector<Expr>{middle.progressions[k].count}).first->second;
      first = std::min(first, shift);
      Expr end = (Expr::integer(shift) + boxes[b].progressions[k].count).simplified();
      bool covered = false;
      for (Expr &known : ends)
        if (Expr gap = (known - end).simplified(); gap.kind() == Expr::Kind::Integer) {
          covered = true;
          if (gap.integerValue() < 0)
            known = end;
        }
      if (!covered)
        ends.push_back(end);
    }
    std::map<size_t, std::pair<int64_t, Expr>> arms; // dimension -> (first position, end)
    for (const auto &[k, extent] : extents) {
      Expr end = extent.second.front();
      for (size_t e = 1; e < extent.second.size(); ++e)
        end = Expr::max(end, extent.second[e]);
      arms.emplace(k, std::make_pair(extent.first, end.simplified()));
    }
    FootprintGroup merged = middle;
    for (size_t b = 0; b < boxes.size(); ++b)
      if (b != centre)
        merged.members.insert(merged.members.end(), boxes[b].members.begin(), boxes[b].members.end());
    auto volume = [&](std::optional<size_t> widened) {
      Expr v = Expr::integer(merged.elementBytes);
      for (size_t k = 0; k < middle.progressions.size(); ++k)
        v = v * (widened == k ? (arms.at(k).second - Expr::integer(arms.at(k).first)) : middle.progressions[k].count);
      return v;
    };
    if (arms.size() == 1) {
      // One arm: a box, which later steps may still unite with others.
      auto &[k, range] = *arms.begin();
      merged.progressions[k].count = (range.second - Expr::integer(range.first)).simplified();
      merged.offsets = {middle.offsets.front() + middle.progressions[k].stride.scaled(range.first)};
    } else if (arms.size() > 1) {
      Expr sum = Expr::integer(0);
      for (const auto &[k, range] : arms)
        sum = sum + volume(k);
      merged.unitedFootprint =
          (sum - Expr::integer(static_cast<int64_t>(arms.size()) - 1) * volume(std::nullopt)).simplified();
    }
    regroup(united, std::move(merged));
  }
  groups = std::move(united);
}

void KernelAnalysis::countMemory(KernelEstimate &estimate) {
  std::map<std::string, FootprintGroup> groups;
  // Where a guard bounds a digit of a flat index (if (idx % n < n - 1) u[idx + 1]), every access of that
  // array along the index is taken apart into the same digits: the guarded neighbours and the unguarded
  // centre are then boxes over the same progressions, which unite (uniteShiftedBoxes).
  std::map<std::pair<const llvm::Value *, AxisKey>, std::set<int>> digitsOfArray;
  for (llvm::BasicBlock &block : f_) {
    guards(&block);
    auto guarded = digitGuards_.find(&block);
    if (guarded == digitGuards_.end())
      continue;
    for (llvm::Instruction &inst : block)
      for (const Access &access : accessesOf(inst))
        if (access.address)
          for (const Constraint &c : guarded->second)
            digitsOfArray[{llvm::getUnderlyingObject(access.address, 0), c.axis}].insert(c.digitAtoms.begin(),
                                                                                        c.digitAtoms.end());
  }
  bool readKnown = true, writeKnown = true;
  for (llvm::BasicBlock &block : f_) {
    for (llvm::Instruction &inst : block) {
      // NVVM intrinsics that move data through a pointer (wmma/ldmatrix loads and stores, cp.async, ...)
      // are not modelled: when the pointer may be global, the bytes in that direction are unknown.
      if (auto *call = dyn_cast<llvm::CallInst>(&inst); call && call->getCalledFunction() &&
                                                        call->getCalledFunction()->getName().starts_with("llvm.nvvm.")) {
        for (const llvm::Value *arg : call->args()) {
          if (!arg->getType()->isPointerTy() || onChip(arg))
            continue;
          std::string name = call->getCalledFunction()->getName().str();
          addUnknown("memory intrinsic it does not model (" + name + ")", &inst);
          if (inst.mayReadFromMemory())
            readKnown = false;
          if (inst.mayWriteToMemory())
            writeKnown = false;
        }
      }
      for (Access &access : accessesOf(inst)) {
        auto unknownDirection = [&] {
          (access.kind == std::string("store") ? writeKnown : readKnown) = false;
          if (access.kind == std::string("atomic"))
            writeKnown = false;
        };
        if (!access.unknown.empty()) {
          addUnknown(access.unknown, &inst);
          unknownDirection();
          continue;
        }
        if (onChip(access.address))
          continue;
        const llvm::Value *base = llvm::getUnderlyingObject(access.address, 0);
        std::string pointer;
        auto *loaded = dyn_cast<llvm::LoadInst>(base);
        std::optional<std::string> field = loaded ? parameterField(loaded) : std::nullopt;
        if (auto *arg = dyn_cast<llvm::Argument>(base)) {
          pointer = paramName(arg->getArgNo());
        } else if (auto *global = dyn_cast<llvm::GlobalVariable>(base)) {
          pointer = global->getName().str();
        } else if (field) {
          pointer = *field;
        } else {
          // A pointer loaded from memory (an array of pointers) is the source's indirection, not a limit of ours;
          // one read from a struct parameter at a place that moves is a launch argument the expressions cannot name.
          if (loaded && readsParameter(loaded))
            addUnknown("pointer from a field of a struct parameter (" + std::string(access.kind) + ")", &inst);
          else
            addUnknown("pointer it cannot follow (" + std::string(access.kind) + ")", &inst, nullptr,
                       loaded && readsData(loaded) ? UnknownCause::IndirectAccess : UnknownCause::Analysis);
          unknownDirection();
          continue;
        }
        CountedAccess counted;
        counted.access.pointer = pointer;
        counted.access.kind = access.kind;
        counted.access.file = locationOf(&inst, &counted.access.line, &counted.access.column, source_.file);
        counted.elementBytes = access.bytes;

        const llvm::SCEV *offset = byteOffset(access.address);
        Linear lin = isa<llvm::SCEVCouldNotCompute>(offset) ? Linear{} : decompose(toPoly(offset));
        if (isa<llvm::SCEVCouldNotCompute>(offset)) {
          lin.known = false;
          lin.reason = "address it cannot follow";
        }
        bool known = lin.known;
        std::string reason = lin.reason;
        UnknownCause cause = lin.cause;
        const llvm::Instruction *where = &inst; // reported where the access is, whatever made it unknown
        const llvm::DILocation *whereLoop = nullptr;
        std::vector<Progression> progressions;
        std::optional<Poly> strideX, strideY;
        bool strideXUnknown = false;
        bool splitByThreadGuard = false;
        if (known && (guards(&block), unmodelledBranches_.count(&block)) &&
            !footprintIgnoresThreadTests(&block, threadDependence(lin))) {
          const auto &[branch, unmodelled] = unmodelledBranches_.at(&block);
          known = false;
          reason = unmodelled.reason;
          std::string::size_type count = reason.find("the count");
          if (count != std::string::npos)
            reason.replace(count, 9, "the footprint");
          cause = unmodelled.cause;
          where = branch;
        }
        if (known) {
          const std::vector<Constraint> &constraints = guards(&block);
          std::map<AxisKey, const LoopModel *> covers;
          for (const llvm::Loop *loop = li_.getLoopFor(&block); loop; loop = loop->getParentLoop()) {
            const LoopModel &model = loopModel(loop);
            if (model.kind == LoopModel::Cover || model.kind == LoopModel::Strided)
              covers[model.axis] = &model;
          }
          // An index and its quotients (row = i / cols, col = i % cols): digits of a mixed radix, one
          // progression each, over the index range the guards leave.
          std::map<AxisKey, std::map<int, Poly>> quotients;
          for (const auto &[id, coeff] : lin.iters)
            if (atoms_[id].kind == AtomKind::Quotient)
              quotients[atoms_[id].quotientAxis][id] = coeff;
          for (const auto &[axis, coeff] : lin.axes)
            if (auto digits = digitsOfArray.find({base, axis}); digits != digitsOfArray.end())
              for (int id : digits->second)
                quotients[axis].try_emplace(id, Poly());
          // threadIdx.x paired with blockIdx.x over a constant tile (256 * blockIdx.x + 32 * (tid % 8)) while
          // the thread's quotients stand apart: the thread index is a digit source of its own.
          for (const auto &[axis, byAtom] : quotients) {
            if (axis.cta >= 0)
              continue;
            for (auto it = lin.axes.begin(); it != lin.axes.end(); ++it) {
              const AxisKey global = it->first;
              if (global.tid != axis.tid || global.cta < 0 || global.outer >= 0 || !lin.widths[global].asConstant())
                continue;
              Poly coeff = it->second;
              lin.axes.erase(it);
              lin.axes[axis] = lin.axes[axis] + coeff;
              lin.axes[AxisKey{-1, global.cta}] = lin.axes[AxisKey{-1, global.cta}] + coeff * lin.widths[global];
              lin.widths.erase(global);
              break;
            }
          }
          // threadIdx.x paired with blockIdx.x (i = blockIdx.x * blockDim.x + threadIdx.x) under a guard that
          // picks the first threads of every block (if (threadIdx.x < RADIUS), tid == 0): the thread index and
          // the block index become progressions of their own, so that the guard counts. With a guard on the
          // global index as well, neither range holds alone: unknown.
          for (const Constraint &tested : constraints) {
            if (tested.halvingAtom >= 0 || tested.axis.tid < 0 || tested.axis.cta >= 0 || tested.axis.outer >= 0 ||
                std::any_of(constraints.begin(), constraints.end(), [&](const Constraint &c) {
                  return c.axis == tested.axis && c.lower && c.lower->asConstant() != 0;
                }))
              continue;
            for (auto it = lin.axes.begin(); it != lin.axes.end(); ++it) {
              const AxisKey global = it->first;
              if (global.tid != tested.axis.tid || global.cta < 0 || global.outer >= 0 || covers.count(global) ||
                  !lin.widths.count(global))
                continue;
              if (std::any_of(constraints.begin(), constraints.end(),
                              [&](const Constraint &c) { return c.axis == global; })) {
                known = false;
                reason = "guards on threadIdx and on the global index together";
                break;
              }
              Poly coeff = it->second;
              Poly width = lin.widths[global];
              lin.axes.erase(it);
              lin.widths.erase(global);
              lin.axes[tested.axis] = lin.axes[tested.axis] + coeff;
              lin.axes[AxisKey{-1, global.cta}] = lin.axes[AxisKey{-1, global.cta}] + coeff * width;
              splitByThreadGuard = true;
              break;
            }
          }
          const std::vector<Constraint> *digitGuards =
              digitGuards_.count(&block) ? &digitGuards_.at(&block) : nullptr;
          std::set<AxisKey> digitsTakenApart;
          for (auto &[axis, byAtom] : quotients) {
            std::vector<const Constraint *> list, onDigits;
            for (const Constraint &c : constraints)
              if (c.axis == axis && c.halvingAtom < 0)
                list.push_back(&c);
            if (digitGuards)
              for (const Constraint &c : *digitGuards)
                if (c.axis == axis)
                  onDigits.push_back(&c);
            Poly index = lin.axes.count(axis) ? lin.axes.at(axis) : Poly();
            const Poly &width = *atoms_[byAtom.begin()->first].quotientWidth;
            Poly shift;
            if (auto digits = mixedRadix(index, byAtom, rangeCount(axis, width, list), onDigits, shift); digits &&
                std::none_of(list.begin(), list.end(), [](const Constraint *c) { return c->lower.has_value(); })) {
              digitsTakenApart.insert(axis);
              lin.invariant = lin.invariant + shift;
              progressions.insert(progressions.end(), digits->begin(), digits->end());
              for (const auto &entry : byAtom)
                lin.iters.erase(entry.first);
              // Digits narrower than a warp along x (il = tid / 8, ir = tid % 8): a warp's threads step
              // through several strides, which one stride per access cannot describe.
              std::optional<int64_t> lowest = atoms_[byAtom.begin()->first].divisor->asConstant();
              for (const auto &entry : byAtom)
                if (auto d = atoms_[entry.first].divisor->asConstant(); d && (!lowest || *d < *lowest))
                  lowest = d;
              if (axis.tid == 0 && lowest && *lowest < 32)
                strideXUnknown = true;
              else if (axis.tid == 0 && !index.isZero())
                strideX = index;
              if (axis.tid == 1 && !index.isZero())
                strideY = index;
              lin.axes.erase(axis);
            }
          }
          // A guard on a digit the address does not take apart (out[idx] under if (idx % n > 0)).
          if (known && digitGuards && std::any_of(digitGuards->begin(), digitGuards->end(), [&](const Constraint &c) {
                return !digitsTakenApart.count(c.axis);
              })) {
            known = false;
            reason = "guard on a digit of a flat index (i % n, i / n) that the address does not follow";
            where = digitGuardBranches_.at(&block);
          }
          for (const auto &[axis, coeff] : lin.axes) {
            Poly width = lin.widths.count(axis) ? lin.widths.at(axis) : Poly();
            if (axis.tid == 0)
              strideX = coeff;
            if (axis.tid == 1)
              strideY = coeff;
            auto cover = covers.find(axis);
            if (cover != covers.end()) {
              const LoopModel &walk = *cover->second;
              auto iter = lin.iters.find(walk.iterAtom);
              Expr span = toExpr(walk.bound - walk.base);
              if (walk.kind == LoopModel::Cover && iter != lin.iters.end() && iter->second == coeff * extent(axis, width)) {
                lin.iters.erase(iter);
                progressions.push_back({coeff, coverSpan(walk)});
                continue;
              }
              // A constant step: rows of `step` values, of which the block's threads reach the first
              // min(step, blockDim) (all of them in the last, partial row, up to its end).
              if (walk.kind == LoopModel::Strided && iter != lin.iters.end() && iter->second == coeff.scaled(walk.step)) {
                lin.iters.erase(iter);
                Expr step = Expr::integer(walk.step);
                Expr reached = Expr::min(step, toExpr(extent(axis, width)));
                Expr rows = span / step;
                progressions.push_back({coeff, reached * rows + Expr::min(span - step * rows, reached)});
                continue;
              }
            }
            std::vector<const Constraint *> list;
            for (const Constraint &c : constraints)
              if (c.axis == axis && c.halvingAtom < 0)
                list.push_back(&c);
            // A global index over a constant tile (blockIdx.x * 32768 + threadIdx.x, a loop filling the rest):
            // a block's threads reach min(tile, blockDim.x) of its positions, not all of them.
            if (std::optional<int64_t> tile = width.asConstant(); tile && axis.tid >= 0 && axis.cta >= 0 && list.empty()) {
              progressions.push_back({coeff, Expr::min(Expr::integer(*tile), toExpr(launchDim("blockDim", axis.tid)))});
              progressions.push_back({coeff.scaled(*tile), toExpr(launchDim("gridDim", axis.cta))});
              if (axis.outer >= 0) // over a grid flattened in two dimensions
                progressions.push_back({coeff.scaled(*tile) * launchDim("gridDim", axis.cta),
                                        toExpr(launchDim("gridDim", axis.outer))});
              continue;
            }
            Progression p{coeff, rangeCount(axis, width, list)};
            if (axis.tid >= 0 && axis.cta >= 0 && axis.outer < 0 && list.empty()) {
              p.pairedTid = axis.tid;
              p.pairedCta = axis.cta;
              p.pairedWidth = width;
            }
            p.guardedGlobal = axis.tid >= 0 && axis.cta >= 0 && !list.empty();
            p.blockOnly = axis.tid < 0 && axis.cta >= 0 && axis.outer < 0;
            progressions.push_back(p);
          }
          for (const auto &[id, coeff] : lin.iters) {
            const Atom atom = atoms_[id];
            if (atom.kind == AtomKind::Quotient) {
              std::vector<const Constraint *> list;
              for (const Constraint &c : constraints)
                if (c.axis == atom.quotientAxis && c.halvingAtom < 0)
                  list.push_back(&c);
              Expr range = rangeCount(atom.quotientAxis, *atom.quotientWidth, list);
              progressions.push_back({coeff, Expr::ceilDiv(range, toExpr(*atom.divisor)).simplified()});
              continue;
            }
            const LoopModel &model = loopModel(atom.loop);
            if (atom.kind != AtomKind::LoopIter || model.kind != LoopModel::Counted) {
              known = false;
              reason = model.kind == LoopModel::Unknown ? model.reason : "index follows a loop it cannot bound";
              cause = model.kind == LoopModel::Unknown ? model.cause : UnknownCause::Analysis;
              where = model.where;
              whereLoop = model.start;
              break;
            }
            progressions.push_back({coeff, tripsReaching(&block, atom.loop), true});
          }
        }
        if (known) {
          for (const Progression &p : progressions)
            if (!invariant(p.stride))
              known = false;
        }
        if (!known) {
          addUnknown(reason.empty() ? "address it cannot follow" : reason, where, whereLoop, cause);
          if (access.kind != std::string("store"))
            readKnown = false;
          if (access.kind != std::string("load"))
            writeKnown = false;
          estimate.accesses.push_back(counted);
          continue;
        }
        if (strideX)
          counted.strideExpr = toExpr(*strideX);
        else if (!strideXUnknown)
          counted.strideExpr = Expr::integer(0);
        if (strideY)
          counted.strideYExpr = toExpr(*strideY);
        counted.dependsOnThread = threadDependence(lin);
        for (const Constraint &c : guards(&block))
          if (c.axis.tid >= 0 && c.halvingAtom < 0 && c.upper &&
              (*c.upper - c.lower.value_or(Poly())).asConstant())
            counted.fewThreads[c.axis.tid] = true;
        if (Count executions = countBlock(&block); executions.value)
          counted.requested = (*executions.value * Expr::integer(access.bytes)).simplified();
        if (const llvm::Loop *loop = li_.getLoopFor(&block)) {
          int column = 0;
          if (const llvm::DILocation *start = loopModel(loop).start)
            counted.loopLine = static_cast<int>(start->getLine());
          else if (loopModel(loop).where)
            locationOf(loopModel(loop).where, &counted.loopLine, &column, source_.file);
          counted.walksFixedLoop = loopModel(loop).kind == LoopModel::Counted && loopModel(loop).trips.asConstant() &&
                                   std::any_of(progressions.begin(), progressions.end(),
                                               [](const Progression &p) { return p.threadLoop; });
        }

        std::string signature = progressionSignature(progressions);
        for (bool write : {false, true}) {
          if ((write && access.kind == std::string("load")) || (!write && access.kind == std::string("store")))
            continue;
          std::string key = pointer + (write ? " w " : " r ") + std::to_string(access.bytes) + " " + signature;
          FootprintGroup &group = groups[key];
          group.pointer = pointer;
          group.write = write;
          group.progressions = progressions;
          group.elementBytes = access.bytes;
          group.offsets.push_back(lin.invariant);
          group.strideX = strideX;
          group.splitByThreadGuard = group.splitByThreadGuard || splitByThreadGuard;
          group.members.push_back(estimate.accesses.size());
        }
        estimate.accesses.push_back(counted);
      }
    }
  }
  splitGlobalIndices(groups);
  uniteShiftedBoxes(groups);

  std::optional<Expr> read = Expr::integer(0), write = Expr::integer(0);
  std::optional<Expr> predictedRead = Expr::integer(0), predictedWrite = Expr::integer(0);
  struct UnitedBox {
    bool write;
    Expr run, footprint, predicted;
  };
  std::map<std::string, UnitedBox> boxes;
  // Fields of an array of structs touched by several groups, or with untouched bytes between them: united
  // byte by byte (below), with each group's inflation of its predicted traffic added.
  std::map<std::string, std::vector<FieldPattern>> structFields;
  std::map<std::string, Expr> structInflation;
  {
    std::map<std::string, int> groupsPerStruct;
    std::map<std::string, bool> holesPerStruct;
    for (const auto &[key, group] : groups)
      if (auto pattern = fieldPattern(group)) {
        ++groupsPerStruct[pattern->key];
        holesPerStruct[pattern->key] = holesPerStruct[pattern->key] || pattern->holes;
      }
    for (const auto &[key, count] : groupsPerStruct)
      if (count > 1 || holesPerStruct[key])
        structFields[key];
  }
  // Each thread's contiguous stretches, by pointer, direction, the non-constant part of the offset and the
  // thread stride: [start, end) in bytes and the access.
  std::map<std::string, std::vector<std::tuple<int64_t, int64_t, size_t>>> stretches;
  for (auto &[key, group] : groups) {
    // Offsets that differ by whole steps of one progression widen that progression (stencil neighbours);
    // offsets that differ by less than the smallest stride form one wider element (the .x and .y of a
    // float2 loaded separately). Anything else counts as a footprint of its own.
    std::vector<Poly> pending = group.offsets;
    std::vector<Expr> footprints;
    int64_t element = group.elementBytes;
    int64_t elementStart = 0; // where a widened element begins, relative to the first offset
    bool singleBox = false;   // every offset is the same: the footprint is one box
    bool widenedElement = false; // the offsets are one element, elementStart past the first
    std::optional<int64_t> smallestStride;
    for (const Progression &p : group.progressions)
      if (auto s = leastStride(p.stride); s && *s > 0 && (!smallestStride || *s < *smallestStride))
        smallestStride = s;
    {
      std::vector<int64_t> deltas;
      bool allConstant = true;
      for (const Poly &o : pending) {
        auto d = (o - pending.front()).asConstant();
        if (!d)
          allConstant = false;
        else
          deltas.push_back(*d);
      }
      if (allConstant && pending.size() > 1 && smallestStride) {
        int64_t lo = *std::min_element(deltas.begin(), deltas.end());
        int64_t hi = *std::max_element(deltas.begin(), deltas.end());
        if (hi - lo + element <= *smallestStride) {
          element = hi - lo + element;
          elementStart = lo;
          pending = {pending.front()};
          widenedElement = true;
        }
      }
    }
    while (!pending.empty()) {
      Poly reference = pending.front();
      std::vector<std::map<size_t, int64_t>> shifts;
      std::vector<Poly> rest;
      for (const Poly &o : pending) {
        Poly delta = o - reference;
        std::map<size_t, int64_t> shift;
        bool placed = delta.isZero();
        // Along the coarsest progression the shift is a whole number of steps of: the fewest steps (a
        // quadrant 64 columns over is two steps of a 32-column digit, not sixteen of a 4-column one).
        for (size_t k = 0; k < group.progressions.size() && !delta.isZero(); ++k)
          if (std::optional<int64_t> m = ratio(delta, group.progressions[k].stride);
              m && (!placed || std::llabs(*m) < std::llabs(shift.begin()->second))) {
            shift = {{k, *m}};
            placed = true;
          }
        if (placed)
          shifts.push_back(shift);
        else
          rest.push_back(o);
      }
      std::map<size_t, std::pair<int64_t, int64_t>> spans; // progression -> (min, max) shift
      for (const auto &shift : shifts)
        for (const auto &[k, m] : shift) {
          auto &span = spans.emplace(k, std::make_pair(int64_t(0), int64_t(0))).first->second;
          span.first = std::min(span.first, m);
          span.second = std::max(span.second, m);
        }
      auto product = [&](std::optional<size_t> widened) {
        Expr e = Expr::integer(element);
        for (size_t k = 0; k < group.progressions.size(); ++k) {
          Expr c = group.progressions[k].count;
          if ((!widened || *widened == k) && spans.count(k))
            c = c + Expr::integer(spans[k].second - spans[k].first);
          e = e * c;
        }
        return e;
      };
      bool plus = spans.size() >= 2;
      for (const auto &shift : shifts)
        plus = plus && shift.size() <= 1;
      if (plus) {
        // A plus-shaped union (each neighbour shifted along one progression only): the boxes widened along
        // one progression each, minus the shared centre counted once too many.
        Expr sum = Expr::integer(0);
        for (const auto &[k, span] : spans)
          sum = sum + product(k);
        Expr centre = Expr::integer(element);
        for (const Progression &p : group.progressions)
          centre = centre * p.count;
        footprints.push_back(sum - Expr::integer(static_cast<int64_t>(spans.size()) - 1) * centre);
      } else {
        footprints.push_back(product(std::nullopt)); // one widened progression, or the bounding box
      }
      singleBox = footprints.size() == 1 && rest.empty() && spans.empty();
      pending = rest;
    }
    // Accesses merged into one wider element are one request pattern: report them with that width.
    for (size_t index : group.members)
      estimate.accesses[index].elementBytes = std::max(estimate.accesses[index].elementBytes, element);
    Expr footprint = Expr::integer(0);
    for (const Expr &e : footprints)
      footprint = footprint + e;
    footprint = footprint.simplified();
    if (group.unitedFootprint) {
      footprint = *group.unitedFootprint;
      singleBox = false;
    }
    // The contiguous run each thread covers: the element, widened by a progression that steps by exactly one
    // element (a loop over consecutive elements, the float4 lanes of a vector loop).
    Expr run = Expr::integer(element);
    std::optional<int64_t> constantRun = element;
    bool loopRun = false; // a symbolic run that a loop of the thread's own walks
    std::vector<Progression> outer;
    for (const Progression &p : group.progressions) {
      if (constantRun && p.stride.asConstant() == element && run.kind() == Expr::Kind::Integer) {
        run = (run * p.count).simplified();
        constantRun = run.kind() == Expr::Kind::Integer ? std::optional<int64_t>(run.integerValue()) : std::nullopt;
        loopRun = !constantRun && p.threadLoop;
        continue;
      }
      outer.push_back(p);
    }
    for (size_t index : group.members)
      if (constantRun)
        estimate.accesses[index].runBytes = std::max(estimate.accesses[index].runBytes, *constantRun);
      else if (loopRun)
        estimate.accesses[index].runExpr = run;
    // Each member's stretch of memory, for the runs below: a widened element is one stretch from the first
    // offset; otherwise each member's run starts at its own.
    if (group.offsets.size() == group.members.size())
      for (size_t m = 0; m < group.members.size(); ++m) {
        Poly rest = group.offsets[widenedElement ? 0 : m];
        int64_t start = widenedElement ? elementStart : 0;
        if (auto c = rest.terms.find({}); c != rest.terms.end()) {
          start += c->second;
          rest.terms.erase(c);
        }
        std::string side = group.pointer + (group.write ? " w " : " r ") + toExpr(rest).str() + " x " +
                           (group.strideX ? toExpr(*group.strideX).str() : "0");
        stretches[side].push_back({start, start + constantRun.value_or(element), group.members[m]});
      }
    // Predicted traffic: a warp request moves whole 32-byte sectors; with a stride s between neighbouring
    // threads larger than the run r each thread covers, each run drags min(s, 32) / r times its bytes along.
    Expr predicted = footprint;
    if (group.strideX && constantRun && *constantRun < 32) {
      std::optional<int64_t> s = group.strideX->asConstant();
      if (s && *s < 0)
        s = -*s;
      if (s && *s > *constantRun)
        predicted = (footprint * Expr::integer(std::min<int64_t>(*s, 32)) / Expr::integer(*constantRun)).simplified();
      else if (!s)
        predicted = (footprint * Expr::min(toExpr(*group.strideX), Expr::integer(32)) / Expr::integer(*constantRun))
                        .simplified();
    }
    if (std::optional<FieldPattern> pattern = fieldPattern(group); pattern && structFields.count(pattern->key)) {
      structFields[pattern->key].push_back(*pattern);
      Expr &inflation = structInflation.try_emplace(pattern->key, Expr::integer(0)).first->second;
      inflation = inflation + (predicted - footprint);
      continue;
    }
    if (!singleBox) {
      (group.write ? write : read) = *(group.write ? write : read) + footprint;
      (group.write ? predictedWrite : predictedRead) = *(group.write ? predictedWrite : predictedRead) + predicted;
      continue;
    }
    // One box: the same rows read in several passes, with another width or loop shape (a float4 pass and a
    // scalar pass), are one footprint. Boxes that start at the same offset and share their outer
    // progressions are unioned: the longer run covers the shorter.
    std::string boxKey = group.pointer + (group.write ? " w " : " r ") +
                         toExpr(group.offsets.front() + Poly::constant(elementStart)).str();
    for (const Progression &p : outer)
      boxKey += ";" + toExpr(p.stride).str() + "|" + p.count.str();
    Expr outerCount = Expr::integer(1);
    for (const Progression &p : outer)
      outerCount = outerCount * p.count;
    auto [box, fresh] = boxes.try_emplace(boxKey, UnitedBox{group.write, run, footprint, predicted});
    if (!fresh) {
      box->second.run = Expr::max(box->second.run, run).simplified();
      box->second.footprint = (box->second.run * outerCount).simplified();
      box->second.predicted = Expr::max(box->second.predicted, predicted).simplified();
    }
  }
  // Stretches of one thread that touch or overlap (the .x .y .z .w of a uchar4 loaded byte by byte, a row's
  // left and right neighbours, a q8_0 block's scale stored beside the loop over its 32 quants): one run,
  // which is what the warp's requests tile.
  for (auto &[side, list] : stretches) {
    std::sort(list.begin(), list.end());
    for (size_t first = 0; first < list.size();) {
      size_t last = first + 1;
      int64_t end = std::get<1>(list[first]);
      while (last < list.size() && std::get<0>(list[last]) <= end)
        end = std::max(end, std::get<1>(list[last++]));
      for (size_t i = first; i < last; ++i)
        estimate.accesses[std::get<2>(list[i])].runBytes =
            std::max(estimate.accesses[std::get<2>(list[i])].runBytes, end - std::get<0>(list[first]));
      first = last;
    }
  }
  for (const auto &[key, patterns] : structFields) {
    if (patterns.empty())
      continue;
    bool isWrite = patterns.front().write;
    Expr footprint = fieldUnion(patterns);
    (isWrite ? write : read) = *(isWrite ? write : read) + footprint;
    (isWrite ? predictedWrite : predictedRead) =
        *(isWrite ? predictedWrite : predictedRead) + footprint + structInflation.at(key);
  }
  for (const auto &[key, box] : boxes) {
    (box.write ? write : read) = *(box.write ? write : read) + box.footprint;
    (box.write ? predictedWrite : predictedRead) = *(box.write ? predictedWrite : predictedRead) + box.predicted;
  }
  if (readKnown) {
    estimate.read = read->simplified();
    estimate.predictedRead = predictedRead->simplified();
  }
  if (writeKnown) {
    estimate.write = write->simplified();
    estimate.predictedWrite = predictedWrite->simplified();
  }
}

KernelEstimate KernelAnalysis::run() {
  KernelEstimate estimate;
  estimate.source = source_;
  // Loop models first: they register the halving variables of tree reductions, which guards refer to.
  for (const llvm::Loop *loop : li_.getLoopsInPreorder())
    loopModel(loop);
  guards_.clear();
  unmodelledBranches_.clear();
  threadTests_.clear();
  std::array<std::optional<Expr>, BucketCount> buckets;
  buckets.fill(Expr::integer(0));
  bool unresolvedCall = false;
  std::map<std::string, Expr> specials;
  for (llvm::BasicBlock &block : f_) {
    Flops flops{};
    std::map<std::string, int64_t> blockSpecials;
    for (llvm::Instruction &inst : block) {
      std::string unresolved;
      Flops f = flopsOf(inst, &unresolved);
      if (f[Special])
        blockSpecials[specialOperation(inst)] += f[Special];
      for (int b = 0; b < BucketCount; ++b) {
        flops[b] += f[b];
        estimate.doubleArithmetic = estimate.doubleArithmetic || (f[b] && inst.getType()->getScalarType()->isDoubleTy());
      }
      if (!unresolved.empty()) {
        unresolvedCall = true;
        addUnknown(unresolved, &inst);
      }
    }
    bool any = false;
    for (int64_t v : flops)
      any = any || v != 0;
    if (!any)
      continue;
    Count count = countBlock(&block);
    if (!count.value)
      addUnknown(count.reason, count.where, count.at, count.cause);
    for (int b = 0; b < BucketCount; ++b) {
      if (flops[b] == 0 || !buckets[b])
        continue;
      if (!count.value)
        buckets[b].reset();
      else
        buckets[b] = *buckets[b] + Expr::integer(flops[b]) * *count.value;
    }
    if (count.value)
      for (const auto &[operation, lanes] : blockSpecials) {
        Expr &total = specials.try_emplace(operation, Expr::integer(0)).first->second;
        total = total + Expr::integer(lanes) * *count.value;
      }
  }
  for (auto &b : buckets)
    if (b)
      b = b->simplified();
  if (unresolvedCall)
    buckets.fill(std::nullopt);
  estimate.fp64 = buckets[Fp64];
  estimate.fp32 = buckets[Fp32];
  estimate.fp16 = buckets[Fp16];
  estimate.bf16 = buckets[Bf16];
  estimate.tensor = buckets[Tensor];
  estimate.special = buckets[Special];
  if (estimate.special)
    for (const auto &[operation, count] : specials)
      estimate.specialByOperation.emplace(operation, count.simplified());
  if (buckets[Fp64] && buckets[Fp32] && buckets[Fp16] && buckets[Bf16] && buckets[Tensor])
    estimate.total = (*buckets[Fp64] + *buckets[Fp32] + *buckets[Fp16] + *buckets[Bf16] + *buckets[Tensor]).simplified();
  countMemory(estimate);
  estimate.unknowns = unknowns_;
  return estimate;
}

} // namespace

double sectorsPerRequest(int64_t stride, int64_t element) {
  if (stride == 0)
    return std::ceil(static_cast<double>(element) / 32.0);
  if (stride >= 32)
    return 32.0 * std::ceil(static_cast<double>(element) / 32.0);
  return std::ceil(static_cast<double>(31 * stride + element) / 32.0);
}

std::vector<KernelEstimate> countKernels(DeviceModule &device) {
  PassManagers managers;

  std::vector<KernelEstimate> estimates;
  for (const KernelSource &source : device.kernels) {
    llvm::Function *function = device.module ? device.module->getFunction(source.mangled) : nullptr;
    if (!source.notAnalysed.empty() || !function || function->isDeclaration()) {
      KernelEstimate estimate;
      estimate.source = source;
      Unknown unknown;
      unknown.reason = !source.notAnalysed.empty() ? "kernel not analysed: " + source.notAnalysed
                                                   : "kernel has no device code in this translation unit";
      unknown.file = source.file;
      unknown.line = source.line;
      unknown.column = source.column;
      estimate.unknowns.push_back(unknown);
      estimates.push_back(std::move(estimate));
      continue;
    }
    KernelAnalysis analysis(*function, source, managers.functions);
    estimates.push_back(analysis.run());
  }
  return estimates;
}

} // namespace roofcheck::lint
