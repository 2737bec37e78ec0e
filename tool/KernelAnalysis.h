// The counting engine's shared parts (KernelCounter.h is its interface): the polynomials and affine forms that
// addresses, bounds and trip counts become, the guards and loop models, and KernelAnalysis, whose work is
// split by concern: AffineForms.cpp (values as polynomials, quotients, affine decomposition),
// GuardsAndTrips.cpp (branch conditions as guards, loop trip counts, how many threads run a block),
// AccessDiscovery.cpp (the memory accesses of an instruction and their addresses), Footprint.cpp (unique
// footprint and predicted traffic per array), KernelCounter.cpp (the FLOPs of a kernel and the driver).
#pragma once

#include "KernelCounter.h"
#include "LinearRanks.h"

#include "roofcheck/Polynomial.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofcheck::lint::counting {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

/// NVPTX address spaces (the NVPTX back end's numbering).
namespace AddressSpace {
constexpr unsigned Shared = 3, Constant = 4, Local = 5, Param = 101;
} // namespace AddressSpace

/// Whether a load reads a kernel parameter: a field of a struct passed by value (CUTLASS's Params), which
/// is a launch argument, not data.
bool readsParameter(const llvm::LoadInst *load);

/// The one pointer other than null that a select or phi of pointers picks (`p ? p + offset : nullptr`, an
/// optional input taken a row at a time, as a select or as a phi after a branch); null when it picks several
/// or is neither. Wherever the result is dereferenced, it is that pointer.
const llvm::Value *nonNullChoice(const llvm::Value *pointer);

/// The object a pointer points into, as getUnderlyingObject finds it, through nonNullChoice and the start of a
/// pointer a loop moves along.
const llvm::Value *pointedObject(const llvm::Value *pointer);

/// Whether a load reads the data the kernel works on: not a parameter (a launch argument), not a local
/// variable the optimiser left in memory (a struct it did not split, which holds what the thread computed).
bool readsData(const llvm::LoadInst *load);

/// Whether `value` is, or is computed from, a value that `leaf` accepts, looking at most `maxDepth` operands
/// deep; `leaf` answers for the values it recognises (nullopt: look at the operands).
bool reaches(const llvm::Value *value, const std::function<std::optional<bool>(const llvm::Value *)> &leaf,
             std::set<const llvm::Value *> &seen, int depth, int maxDepth);

bool dependsOnMemory(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth);

/// Whether `value` is, or is computed from, a load of a local variable the optimiser left in memory (an array
/// indexed in a loop): what the thread stored there is not followed.
bool dependsOnLocalMemory(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth);

/// The thread coordinates a value is computed from: which threadIdx dimensions (the lane id is x's low
/// bits) and whether blockIdx takes part.
struct CoordinateUse {
  std::array<bool, 3> thread{false, false, false};
  bool block = false;
  bool any() const { return block || thread[0] || thread[1] || thread[2]; }
};

void collectCoordinates(const llvm::Value *value, CoordinateUse &use, std::set<const llvm::Value *> &seen, int depth);

bool dependsOnThread(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth);

/// value where phi holds phiValue, for integer arithmetic, casts and comparisons of phi and constants.
std::optional<llvm::APInt> evaluateAt(const llvm::Value *value, const llvm::PHINode *phi, uint64_t phiValue,
                                      int depth);

// ------------------------------------------------------------------------------------------------ Poly

/// Polynomials with integer coefficients over atoms (parameters, launch dimensions, thread coordinates,
/// loop iteration numbers, opaque invariant expressions), an atom being its index in KernelAnalysis's
/// table. Addresses and bounds are affine in the variable atoms, with coefficients that are polynomials in
/// the invariant ones.
using Poly = Polynomial<int, int64_t>;
using Monomial = Poly::Monomial;

/// k with a == k * b, if there is one.
std::optional<int64_t> ratio(const Poly &a, const Poly &b);

/// q with a == q * b where b is one term (c · monomial): every term of a holds b's atoms and a multiple of c.
std::optional<Poly> divideByTerm(const Poly &a, const Poly &b);

/// A thread axis: a threadIdx coordinate, a blockIdx coordinate, or the global index
/// blockIdx.e * width + threadIdx.d (width is blockDim.d or a constant tile size), possibly over a grid
/// flattened in two dimensions: (blockIdx.f * gridDim.e + blockIdx.e) * width + threadIdx.d.
struct AxisKey {
  int tid = -1, cta = -1;
  int outer = -1; ///< the outer block dimension f of a flattened grid; -1 when none
  bool operator<(const AxisKey &o) const { return std::tie(tid, cta, outer) < std::tie(o.tid, o.cta, o.outer); }
  bool operator==(const AxisKey &o) const { return tid == o.tid && cta == o.cta && outer == o.outer; }
};

enum class AtomKind {
  Param,
  LaunchDim,
  ThreadIdx,
  BlockIdx,
  LoopIter,
  HalvingIV,
  DoublingIV,
  Quotient,
  CoverQuotient,
  DigitQuotient,
  Opaque,
  Unknown
};

struct Atom {
  AtomKind kind = AtomKind::Unknown;
  int dim = -1;
  const llvm::Loop *loop = nullptr;
  Expr expr;
  std::string reason;
  UnknownCause cause = UnknownCause::Analysis;
  const llvm::Instruction *where = nullptr;
  // Quotient: axis / divisor (row = i / cols), the axis being the global or block index `quotientAxis`.
  // CoverQuotient: the same of the index that a grid- or block-stride loop (`loop`, a Cover walk from 0) moves
  // along the axis, i / cols for `for (i = global; i < n; i += extent)`: its range is the loop's span.
  // DigitQuotient: (i % a) / divisor, a quotient of the axis's lowest digit, `digitOf` being the Quotient
  // atom i / a (ggml's broadcast of a flattened index: (z % ne3) % ne13).
  AxisKey quotientAxis;
  std::shared_ptr<const Poly> quotientWidth, divisor;
  int digitOf = -1;
};

Atom makeAtom(AtomKind kind, int dim, const llvm::Loop *loop, Expr expr);

bool isVariable(AtomKind kind);

/// An affine form: Σ coefficient·axis + Σ coefficient·iteration + invariant.
struct Linear {
  std::map<AxisKey, Poly> axes;
  std::map<AxisKey, Poly> widths;
  std::map<int, Poly> iters; ///< LoopIter / HalvingIV / DoublingIV atom -> coefficient
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
  /// A thread coordinate bounded by a tree reduction's loop variable s: threadIdx < s (a halving loop), or
  /// threadIdx < ceil(loopBound / (loopScale * s)) (a doubling loop: loopScale * s * threadIdx < loopBound, or
  /// threadIdx a multiple of loopScale * s, with loopBound the block's extent).
  int loopAtom = -1;
  int64_t loopScale = 1;
  Poly loopBound;
  /// A bound on one digit of the flat index `axis` (i = idx % n, j = idx / n) rather than on the index: the
  /// digit (idx / digitBelow) % (the next divisor / digitBelow). guards() keeps these apart (digitGuards_).
  std::optional<Poly> digitBelow;
  std::vector<int> digitAtoms; ///< the quotient atoms the digit is written with (idx / n)
  /// A digit that is the index's whole quotient by a constant (row = idx / 32): the same bound on the index
  /// (idx < 32 * rows) stands beside it among the guards, so the threads under it are counted.
  bool boundsIndexToo = false;
  /// The index bound that stands beside such a digit: it lets whole groups of this many threads through.
  int64_t wholeGroups = 0;
  /// An index bound that counts the threads under a digit's bound by a size (idx < n * rows for idx / n <
  /// rows); guards() keeps these apart (countOnlyGuards_), out of the footprint.
  bool countOnly = false;
};

/// A test on the digits of one thread index that repeats every `period` threads (lane == 0 with
/// lane = threadIdx.x % 32; (threadIdx.x & 24) == 8): which remainders threadIdx.dim % period pass.
struct DigitTest {
  int dim = 0;
  int64_t period = 1;
  std::vector<bool> passes; ///< by remainder
};

struct LoopModel {
  enum Kind { Counted, Cover, Strided, GroupStrided, Halving, Doubling, Unknown } kind = Unknown;
  Poly trips;       ///< Counted; Halving: the trip count where it has one (else zero)
  /// Counted with a trip count that differs from block to block (split-K's slice, a causal mask's tiles) or
  /// from thread to thread (a block-stride loop that starts at `tid / 2`): the trips as an expression of
  /// blockIdx or threadIdx (never both), parameters and launch sizes.
  std::optional<Expr> tripsVarying;
  AxisKey axis;     ///< Cover: the loop walks scale * (axis + k * extent(axis)) from base up to bound
  Poly width, base, bound;
  int64_t scale = 1;
  int64_t step = 0; ///< Strided: as Cover, with a constant step in place of the axis's extent
  /// GroupStrided: for (i = base + threadIdx % step; i < bound; i += step), the lanes of each group of `step`
  /// threads (a warp) walking [base, bound) together: bound - base visits a group.
  Poly halvingStart;       ///< Halving: s = start, start/2, ..., halvingLast (powers of two)
  int64_t halvingLast = 0; ///< Halving: the least s the loop runs with (0: not known)
  int64_t doublingStart = 0; ///< Doubling: s = start, 2 * start, ... while s < doublingBound
  Poly doublingBound;
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


/// Whether an expression names a coordinate of `level` ("threadIdx" or "blockIdx"), as a sum's variable does.
inline bool namesCoordinate(const Expr &e, const std::string &level) {
  std::set<std::string> symbols = e.symbols();
  return std::any_of(symbols.begin(), symbols.end(),
                     [&](const std::string &s) { return s.compare(0, level.size() + 1, level + ".") == 0; });
}

/// Whether a debug location's file is `file` as the command line named it (debug info may spell it
/// relative to its compilation directory).
bool isFile(const llvm::DILocation *loc, const std::string &file);

/// A debug location's place; code inlined from another file (a CUDA or clang header) is reported at its
/// call site in `preferredFile`, where the user wrote it, and named as the user named it.
std::string locate(const llvm::DILocation *loc, int *line, int *column, const std::string &preferredFile);

/// The source location of an instruction (see locate).
std::string locationOf(const llvm::Instruction *inst, int *line, int *column, const std::string &preferredFile = "");


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
  /// The tests of parameters its accesses run under, 1 where they hold (eq(op, 1), bias): the footprint's factor.
  Expr condition = Expr::integer(1);
};

/// The fields of an array of structs that a group's accesses touch: one progression whose constant stride is
/// the struct, every access a constant offset whose bytes lie inside one struct. `key` names the array, the
/// direction and the rest of the offset; `intervals` are the bytes of one struct touched, [start, end).
struct FieldPattern {
  std::string key;
  std::vector<std::pair<int64_t, int64_t>> intervals;
  Expr count;
  bool write = false;
  bool holes = false; ///< the intervals leave bytes of their span untouched (pos and mass, not vel between)
  Expr condition = Expr::integer(1); ///< the group's (FootprintGroup::condition), part of the key
};

class KernelAnalysis {
public:
  /// `linear`: the levels rankLinearly made one-dimensional, whose x dimension stands for all three.
  KernelAnalysis(llvm::Function &function, const KernelSource &source, llvm::FunctionAnalysisManager &fam,
                 LinearRanks linear = {})
      : f_(function), source_(source), se_(fam.getResult<llvm::ScalarEvolutionAnalysis>(function)),
        dt_(fam.getResult<llvm::DominatorTreeAnalysis>(function)), li_(fam.getResult<llvm::LoopAnalysis>(function)),
        dl_(function.getParent()->getDataLayout()), linear_(linear) {}

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
    std::string level = what;
    bool linear = level == "blockDim" ? linear_.block : linear_.grid;
    if (linear && dim > 0)
      return Poly::constant(1); // folded into x
    std::string name = level + "." + "xyz"[dim];
    Expr size = linear ? Expr::symbol(level + ".x") * Expr::symbol(level + ".y") * Expr::symbol(level + ".z")
                       : Expr::symbol(name);
    if (linear_.stackedWarps && level == "blockDim" && dim < 2) // x: the warps' lanes; y: warps side by side
      size = dim == 0 ? Expr::integer(32) * Expr::symbol("blockDim.y") : Expr::symbol("blockDim.x") / Expr::integer(32);
    return Poly::atom(intern("launch:" + name, makeAtom(AtomKind::LaunchDim, dim, nullptr, size)));
  }
  Poly coordinate(AtomKind kind, int dim) { // threadIdx.d or blockIdx.d
    std::string symbol = std::string(kind == AtomKind::ThreadIdx ? "threadIdx." : "blockIdx.") + "xyz"[dim];
    return Poly::atom(intern("coord:" + symbol, makeAtom(kind, dim, nullptr, Expr::symbol(symbol))));
  }
  /// An unknown value, one atom for each value (or, without one, each SCEV `of`): two different unknowns
  /// never cancel (smin(...) - smax(...) is no 0).
  Poly unknownAtom(const std::string &reason, const llvm::Value *value,
                   UnknownCause cause = UnknownCause::Analysis, const llvm::SCEV *of = nullptr) {
    Atom atom;
    atom.kind = AtomKind::Unknown;
    atom.reason = reason;
    atom.cause = cause;
    atom.where = dyn_cast_or_null<llvm::Instruction>(value);
    char key[64];
    const void *identity = value ? static_cast<const void *>(value) : static_cast<const void *>(of);
    std::snprintf(key, sizeof key, "unknown:%p", identity);
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
  /// (i % a) / den for an axis i: a DigitQuotient atom (quotientOf's last resort).
  std::optional<Poly> digitQuotient(const Poly &numerator, const Poly &den);
  /// numerator / den for a constant den, where the numerator's variable terms divide exactly or are block
  /// coordinates with sizes for coefficients; nullopt otherwise.
  std::optional<Poly> scaledQuotient(const Poly &numerator, int64_t den);
  /// `k = n / c; if (k == 0) k = 1;` as a select of invariant values: max(n / c, 1); nullopt otherwise.
  std::optional<Poly> atLeastOneQuotient(const llvm::SelectInst *select);
  /// numerator / den as the source divides it (a division or a right shift): a formula of sizes, a
  /// quotient of a thread index, or a scaled block offset.
  std::optional<Poly> divided(const Poly &numerator, const Poly &den);
  /// `(umulhi(n, m) + n) >> s` with m and s members of one by-value struct (ggml's fastdiv, PyTorch's
  /// IntDivider): n / d, d the struct's one other member as wide as m, and the division recorded for the join
  /// to check at each launch. nullopt for any other shift.
  std::optional<Poly> magicQuotient(const llvm::BinaryOperator *shift);
  /// The value of narrow arithmetic over truncated operands (16 * trunc(y) + trunc(x)) at full width, before
  /// it wraps; nullopt for anything else.
  std::optional<Poly> untruncated(const llvm::SCEV *narrow);
  Linear decompose(const Poly &p);
  /// decompose's step for a warp's (or any constant group's) rank over the launch: threadIdx.d / g with
  /// blockIdx.d · (blockDim.d / g) becomes the global index's quotient by g.
  void foldWarpRank(Linear &lin, std::map<int, Poly> &ctas);
  bool wholeGroupsOfBlock(const std::optional<Poly> &p, int dim);
  /// g where a loop's start is base + threadIdx.d % g (a lane of a group of g threads), base invariant.
  std::optional<int64_t> laneOfGroup(const Linear &start) const;
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
  /// The tests of parameters alone (`if (use_bias)`, `n > 0 &&`) among a branch's conditions: whether there is
  /// one, and 1 where all of them hold on the side taken, 0 elsewhere; nullopt where one has no expression.
  struct ParameterTest {
    bool any = false;
    std::optional<Expr> holds = Expr::integer(1);
  };
  void conditionConstraints(const llvm::Value *cond, bool truth, std::vector<Constraint> &out,
                            ParameterTest &parameterTest, std::optional<Unmodelled> &unmodelled, int depth = 0);
  /// A value computed from parameters and launch sizes alone as an expression: an integer, a float or double,
  /// or a pointer as 1 when given and 0 when null; nullopt where the expressions cannot write it (a computed
  /// float, an address).
  std::optional<Expr> parameterValue(const llvm::Value *value);
  /// 1 where the condition `cond` of parameters alone holds and 0 where it does not, compared as the kernel
  /// compares (a NaN float unordered); nullopt where its values have no expression.
  std::optional<Expr> parameterTruth(const llvm::Value *cond, int depth = 0);
  /// `if (p)` or `if (p != nullptr)` on a pointer parameter or member (or a row of it, `p + offset`), on the side
  /// where it holds: an optional input or output (a bias, the mean a normalisation may also write). Its value,
  /// the pointer's symbol (1 when given), which the counts and the footprint take as a test like any other.
  std::optional<Expr> optionalPointerGiven(const llvm::Value *cond, bool truth);
  /// A condition `c && p != nullptr` on its true side, the pointer given: c (`if (lane == 0 && mean != nullptr)`).
  const llvm::Value *withoutPointerGiven(const llvm::Value *cond, bool truth);
  /// 1 where a switch on parameters alone goes to `target`, 0 elsewhere.
  std::optional<Expr> switchTruth(const llvm::SwitchInst *select, const llvm::BasicBlock *target);
  /// Records a test of parameters that block is reached under (parameterTests_).
  void takeParameterTest(const llvm::BasicBlock *block, const Expr &holds);
  /// A test of parameters without an expression: the block's counts are unknown.
  void unmodelledParameterTest(const llvm::BasicBlock *block, const llvm::Instruction *branch);
  /// Why a condition that gave no constraint still decides which threads run: it tests values loaded from
  /// memory, or thread coordinates in a form the guards cannot express; empty when it does neither.
  std::optional<Unmodelled> unmodelledTest(const llvm::Value *cond) const;
  /// A bound on a thread coordinate that moves with a loop (`t + tx < n` in a tiled loop): taken to trim
  /// only the last, partial tile, so not a guard of its own (the count is exact when the size is a whole
  /// number of tiles, as for the ragged ends elsewhere).
  bool movesWithLoop(const llvm::ICmpInst *cmp);
  void compareConstraint(const llvm::ICmpInst *cmp, bool truth, std::vector<Constraint> &out);
  /// Whether the comparison, on the side taken, is `idx % n < n` (a remainder below its modulus: ggml's
  /// `i3 >= ne3.z` test), which every thread passes.
  bool remainderBelowModulus(const llvm::ICmpInst *cmp, bool truth);
  /// One digit of a flat global index as an affine form holds it: k * (idx / below - (above / below) * (idx /
  /// above)), the top digit without the second term, the lowest with idx itself for idx / 1.
  struct FlatDigit {
    AxisKey axis;
    Poly below, coeff, width;
    std::optional<Poly> above; ///< the divisor of the next digit up; none for the top digit
    std::vector<int> atoms;
    bool whole = false; ///< the index's quotient by `below`, no remainder taken
  };
  std::optional<FlatDigit> flatDigit(const Linear &lin) const;
  const std::vector<Constraint> &guards(const llvm::BasicBlock *block);
  /// Adds an unmodelled branch condition of block to threadTests_.
  void recordThreadTest(const llvm::BasicBlock *block, const llvm::Value *cond, bool threadTest);
  /// Whether the footprint of an address with these thread dependences is the same whichever threads of a
  /// block the block's unmodelled branches let through: they test only threadIdx dimensions the address does
  /// not move with (`if (lane == 0) y[row] = s`, `if (tx == 0 && ty == 0) out[blockIdx.x] = s`).
  bool footprintIgnoresThreadTests(const llvm::BasicBlock *block, const std::array<bool, 3> &addressMovesWith) const;
  /// Whether the block's unmodelled branches are all lane tests that leave some lane of every period through,
  /// and the address moves with the tested coordinates only in whole periods (out[warp] under lane == 0).
  bool lanesKeepFootprint(const llvm::BasicBlock *block, const Linear &address) const;
  /// Whether a guard on a warp's (or group's) rank (row < N with row = idx / 32, Constraint::boundsIndexToo)
  /// leaves the footprint of an address that follows only the lane (weight[c], c = lane + 32 * k) as it is.
  bool wholeGroupsKeepFootprint(const Constraint &guard, const Linear &address) const;
  /// Whether an address moves with the index `axis` (its thread or block coordinate, or a quotient of it).
  bool movesWith(const Linear &address, const AxisKey &axis) const;
  /// A condition computed from parameters and launch sizes only (if (flag), if (mode == 2)).
  bool parameterOnly(const llvm::Value *value, int depth) const;
  /// The branch that skips a loop when it would run zero times (its trip count already says so).
  bool guardsLoop(const llvm::BranchInst *branch);
  /// Whether a branch in front of loop is the test that skips it when it would run zero times: a test of
  /// parameters alone, one of values a block shares in front of a loop whose trips differ by block, or one
  /// that shares the loop's bound (`if (ib >= n) return;` of a thread in front of `for (l = 0; l < 4; ++l)`
  /// is not).
  bool testsLoopBound(const llvm::BranchInst *branch, const llvm::Loop *loop);
  /// An early exit: the block only returns.
  static bool returnsAtOnce(const llvm::BasicBlock *block);
  /// The lane test a branch condition is, on the side `truth`; nullopt for anything else.
  std::optional<DigitTest> digitTest(const llvm::Value *cond, bool truth);
  /// The least value of a halving loop's variable that the loop runs with, where its start is a power of two
  /// above it: the least power of two p for which the latch, at the trip with variable 2p, goes on. 0 where
  /// the latch is no test of the phi that can be evaluated.
  int64_t halvingLast(const llvm::Loop *loop, const llvm::PHINode *phi, int64_t scale) const;
  /// The atom of a doubling loop's variable.
  int doublingAtom(const llvm::Loop *loop);
  /// A loop whose variable doubles from a constant power of two while below a bound that no trip count
  /// expresses (log2 of a launch value): `for (s = 1; s < blockDim.x; s *= 2)`. false, with model untouched,
  /// for anything else.
  bool doublingModel(const llvm::Loop *loop, const llvm::PHINode &phi, const llvm::BinaryOperator &next,
                     LoopModel &model);
  /// lhs PRED rhs as the guard of a doubling loop's trip (Constraint::loopAtom); nullopt for anything else.
  std::optional<Constraint> doublingGuard(const llvm::ICmpInst *cmp, llvm::CmpInst::Predicate pred);
  /// lhs PRED rhs as a bound on a thread coordinate, where lhs is the coordinate's quotient by a constant
  /// (warp = threadIdx.x / 32; if (warp == 0)) and rhs a constant; nullopt for anything else.
  std::optional<Constraint> quotientBound(const Linear &lhs, const Linear &rhs, llvm::CmpInst::Predicate pred) const;
  /// How many of a block's threads along a dimension of `extent` threads pass all of `tests`, as an
  /// expression; nullopt where their periods together are too long to list.
  static std::optional<Expr> digitCount(const Expr &extent, const std::vector<DigitTest> &tests);
  /// Whether `block` runs only where its loop goes round again: a guard that is the loop's own continuation
  /// test (`do { k += 8; if (k < K) prefetch(k); ... } while (k < K);`, the next tile of a pipelined loop).
  bool skipsLastTrip(const llvm::BasicBlock *block, const llvm::Loop *loop) const;
  /// The trips of a counted loop on which `block` runs.
  Expr tripsReaching(const llvm::BasicBlock *block, const llvm::Loop *loop) {
    const LoopModel &model = loopModel(loop);
    bool skipsLast = skipsLastTrip(block, loop);
    if (model.tripsVarying) // a block or thread that skips the loop skips its last trip's work too: none, not -1
      return (skipsLast ? Expr::max(*model.tripsVarying - Expr::integer(1), Expr::integer(0)) : *model.tripsVarying)
          .simplified();
    return toExpr(skipsLast ? model.trips - Poly::constant(1) : model.trips);
  }
  /// A value as an expression of parameters, launch sizes and block coordinates, which every thread of a
  /// block shares (min and max included, which polynomials cannot hold); nullopt where it is not one.
  std::optional<Expr> blockUniform(const llvm::SCEV *scev) { return launchExpr(scev, false); }
  /// The same, of thread coordinates too: a value each thread computes from its threadIdx.
  std::optional<Expr> threadwise(const llvm::SCEV *scev) { return launchExpr(scev, true); }
  std::optional<Expr> launchExpr(const llvm::SCEV *scev, bool threads);
  /// For the test in front of a loop that skips it, of values its block shares (or, with `threads`, values of
  /// each thread's own): a quantity that is positive exactly where the loop is entered (end - begin for
  /// `begin < end`); nullopt where there is no such test.
  std::optional<Expr> entryMargin(const llvm::Loop *loop, bool threads);
  const LoopModel &loopModel(const llvm::Loop *loop);
  /// The comparisons that decide whether a loop goes on: its latch's own, or both halves of `a && b` when
  /// they are one inequality written twice (ggml's overflow guard, `if (n - i <= stride) break;` beside
  /// `i < n`, becomes `n - i > stride && i + stride < n`): they agree wherever the index arithmetic does not
  /// wrap, as the counting assumes everywhere.
  std::vector<const llvm::ICmpInst *> exitComparisons(const llvm::BranchInst *branch, const llvm::Loop *loop);
  /// How many values a Cover loop visits over all threads of its axis.
  Expr coverSpan(const LoopModel &walk) const {
    Expr span = toExpr(walk.bound - walk.base);
    return walk.scale == 1 ? span : Expr::ceilDiv(span, Expr::integer(walk.scale)).simplified();
  }
  /// The trips of a Strided loop over all threads of its axis: thread t runs ceil((n - t) / step) of them
  /// (n = bound - base, none from t = n on), which over t < m = min(extent, n) sums to
  /// m + F(n) - F(n - m), F(x) = Σ_{k<x} floor(k / step) = q·x - step·q·(q + 1)/2 with q = x / step.
  /// That is n where the launch's extent is the step, as such loops are launched.
  Expr stridedVisits(const LoopModel &walk);
  Expr rangeCount(const AxisKey &axis, const Poly &width, const std::vector<const Constraint *> &constraints);
  Count countBlock(const llvm::BasicBlock *block);
  /// when: the test of parameters under which it comes in (Unknown::when); empty for every launch.
  void addUnknown(const std::string &reason, const llvm::Instruction *where, const llvm::DILocation *at = nullptr,
                  UnknownCause cause = UnknownCause::Analysis, const std::optional<Expr> &when = std::nullopt);

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
  /// The truth of a test of the kernel's parameters alone (a pointer given, a flag, a comparison of sizes) as
  /// an expression; empty for any other test.
  std::optional<Expr> testOfParameters(const llvm::Value *cond);
  /// The values a select or phi takes on each side of a test of parameters that decides between them
  /// (`ids ? ids[c] : c / r`, `idx` replaced under `if (stride != 0)`), each with its side's truth; empty when
  /// no such test decides.
  std::optional<std::vector<std::pair<const llvm::Value *, Expr>>> parameterChoice(const llvm::Value *value);
  /// An offset as it is on each side of the tests of parameters that choose an index it is made of, each with
  /// its sides' truth; the offset itself with no test where none chooses (or too many sides would follow).
  std::vector<std::pair<const llvm::SCEV *, std::optional<Expr>>> offsetsByChoice(const llvm::SCEV *offset);
  /// Whether a pointer addresses on-chip memory (shared, constant, local, a by-value parameter).
  static bool onChip(const llvm::Value *pointer);
  /// The name of a pointer loaded from a fixed place in a struct passed by value (a lambda's captures, a
  /// functor's members, CUTLASS's Params): the member's (`op.x`), else the parameter and the byte offset
  /// ("f+8"). Fields are distinct arrays, as distinct pointer parameters are. nullopt when the load is not such
  /// a field.
  std::optional<std::string> parameterField(const llvm::LoadInst *load) const;
  /// The parameter and byte offset a load from a by-value parameter reads; nullopt for other loads.
  std::optional<std::pair<unsigned, int64_t>> parameterPlace(const llvm::LoadInst *load) const;
  /// The named member of a by-value parameter that a load reads whole; null when it reads none.
  const ParamField *loadedField(const llvm::LoadInst *load) const;
  /// A parameter's name in the source; argN for one without a name.
  std::string paramName(unsigned index) const {
    return index < source_.params.size() && !source_.params[index].name.empty() ? source_.params[index].name
                                                                                : "arg" + std::to_string(index);
  }
  /// Which threadIdx dimensions an affine address moves with, directly or through a quotient (row = i / n).
  std::array<bool, 3> threadDependence(const Linear &lin) const;
  void countMemory(KernelEstimate &estimate);
  /// Whether inst is floating-point arithmetic that a compiler which fully unrolls the short counted loops
  /// around it computes at compile time (nvcc does): all its operands are known once those loops are
  /// unrolled (knownOnceUnrolled), so it is no work at run time.
  bool foldedOnceUnrolled(const llvm::Instruction &inst);
  /// Constants, the induction variables of loops of at most maxUnrolledTrips constant trips, loads from
  /// constant tables at such indices, and arithmetic, comparisons and casts of those.
  bool knownOnceUnrolled(const llvm::Value *value, int depth);
  /// The values an integer operand of `user` takes: one for a constant; one a trip for arithmetic on the
  /// induction variables of the loop around `user`, of at most maxUnrolledTrips constant trips (nvcc unrolls
  /// it: CUB's scan steps, `1 << step`); none where it cannot tell.
  std::vector<int64_t> valuesOverTrips(const llvm::Value *value, const llvm::Instruction &user);
  void splitGlobalIndices(std::map<std::string, struct FootprintGroup> &groups);
  /// Adds group to groups under its key, joining the group with the same progressions.
  void regroup(std::map<std::string, struct FootprintGroup> &groups, struct FootprintGroup group) const;
  /// Boxes of one array that differ along one progression each from a centre box (the neighbours of a
  /// stencil, each guarded to stay inside the grid) become one footprint: their union.
  void uniteShiftedBoxes(std::map<std::string, struct FootprintGroup> &groups) const;
  /// The same boxes under different tests of parameters (both sides of a branch writing one output) become one
  /// group under either: max of the conditions.
  void uniteConditions(std::map<std::string, struct FootprintGroup> &groups) const;
  /// A group's key: pointer, direction, element and progressions, and its condition unless told not to.
  std::string groupKey(struct FootprintGroup &group, bool withCondition = true) const;
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
  const LinearRanks linear_;
  std::vector<Atom> atoms_;
  std::map<std::string, int> atomIds_;
  std::map<const llvm::SCEV *, Poly> polys_;
  std::map<const llvm::Loop *, LoopModel> loops_;
  std::map<const llvm::BasicBlock *, std::vector<Constraint>> guards_;
  /// Blocks reached only on one side of a branch the guards cannot express (a test of parameter values, of
  /// data, of thread coordinates in an unmodelled form): their counts are unknown, with the branch's reason.
  std::map<const llvm::BasicBlock *, std::pair<const llvm::Instruction *, Unmodelled>> unmodelledBranches_;
  /// Blocks reached only on one side of tests of parameters that the expressions write: the product of the
  /// tests, which their counts and the footprints of their accesses take as a factor.
  std::map<const llvm::BasicBlock *, Expr> parameterTests_;
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
  std::set<const llvm::BasicBlock *> uncountedDigitGuards_; ///< under a digit guard without an index bound
  std::map<const llvm::BasicBlock *, std::vector<Constraint>> countOnlyGuards_;
  std::map<const llvm::PHINode *, const llvm::Loop *> halvingPhis_, doublingPhis_;
  /// A halving loop's phi that holds twice the variable the body works with (instcombine's rotated form of
  /// `for (s = n / 2; s > 32; s >>= 1)` keeps s * 2 and computes s = phi >> 1 in the body): 2.
  std::map<const llvm::PHINode *, int64_t> halvingScale_;
  std::set<const llvm::PHINode *> visitingPhis_;
  std::vector<Unknown> unknowns_;
  std::vector<MagicDivision> divisions_;
};

} // namespace roofcheck::lint::counting
