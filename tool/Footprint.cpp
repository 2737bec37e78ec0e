// The unique footprint (ideal bytes) and the predicted traffic of a kernel: accesses grouped by array and
// progression, taken apart along digits and guards, united across groups, evaluated per direction.
#include "FlopClassifier.h"
#include "KernelAnalysis.h"
#include "ParameterTests.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cmath>
#include <numeric>
#include <set>

namespace roofcheck::lint::counting {

namespace {

/// A group outside every test of parameters.
bool unconditional(const Expr &condition) { return condition == Expr::integer(1); }

/// The part of a group's keys that keeps groups under different tests apart.
std::string conditionKey(const Expr &condition) {
  return unconditional(condition) ? std::string() : " if " + condition.str();
}

} // namespace

std::string KernelAnalysis::progressionSignature(std::vector<Progression> &progressions) const {
  std::sort(progressions.begin(), progressions.end(), [&](const Progression &a, const Progression &b) {
    return toExpr(a.stride).str() + "|" + a.count.str() < toExpr(b.stride).str() + "|" + b.count.str();
  });
  std::string signature;
  for (const Progression &p : progressions)
    signature += toExpr(p.stride).str() + "|" + p.count.str() + ";";
  return signature;
}

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
                           std::to_string(*stride) + conditionKey(group.condition),
                       {},
                       group.progressions.front().count,
                       group.write,
                       false,
                       group.condition};
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

namespace {

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

} // namespace

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

std::string KernelAnalysis::groupKey(FootprintGroup &group, bool withCondition) const {
  std::string key = group.pointer + (group.write ? " w " : " r ") + std::to_string(group.elementBytes) + " " +
                    progressionSignature(group.progressions) + (group.unitedFootprint ? " united" : "");
  return withCondition ? key + conditionKey(group.condition) : key;
}

void KernelAnalysis::regroup(std::map<std::string, FootprintGroup> &groups, FootprintGroup group) const {
  std::string key = groupKey(group);
  auto [it, fresh] = groups.try_emplace(key, group);
  if (!fresh) {
    it->second.offsets.insert(it->second.offsets.end(), group.offsets.begin(), group.offsets.end());
    it->second.members.insert(it->second.members.end(), group.members.begin(), group.members.end());
    it->second.splitByThreadGuard = it->second.splitByThreadGuard || group.splitByThreadGuard;
  }
}

namespace {

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

} // namespace

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
    strides += conditionKey(group.condition);
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

void KernelAnalysis::uniteConditions(std::map<std::string, FootprintGroup> &groups) const {
  auto outsideTests = [](const auto &entry) { return unconditional(entry.second.condition); };
  if (std::all_of(groups.begin(), groups.end(), outsideTests))
    return;
  std::map<std::string, FootprintGroup> boxes; // by key without the condition, and offsets
  for (auto &[key, group] : groups) {
    std::vector<std::string> offsets;
    for (const Poly &offset : group.offsets)
      offsets.push_back(toExpr(offset).str());
    std::sort(offsets.begin(), offsets.end());
    std::string box = groupKey(group, false) + (group.unitedFootprint ? group.unitedFootprint->str() : "");
    for (const std::string &offset : offsets)
      box += " @ " + offset;
    auto [it, fresh] = boxes.try_emplace(box, group);
    if (fresh)
      continue;
    FootprintGroup &united = it->second;
    united.members.insert(united.members.end(), group.members.begin(), group.members.end());
    united.splitByThreadGuard = united.splitByThreadGuard || group.splitByThreadGuard;
    united.condition = unconditional(united.condition) || unconditional(group.condition)
                           ? Expr::integer(1)
                           : Expr::max(united.condition, group.condition).simplified();
  }
  groups.clear();
  for (auto &[box, group] : boxes)
    regroup(groups, std::move(group));
}

namespace {

/// Whether a function's body, with the device functions it calls, reads and writes memory other than its own
/// local variables (the optimiser infers no memory effects for the functions inlining left).
std::pair<bool, bool> memoryMovedBy(const llvm::Function &function, std::set<const llvm::Function *> &seen) {
  std::pair<bool, bool> moved{false, false};
  if (!seen.insert(&function).second)
    return moved;
  for (const llvm::Instruction &inst : llvm::instructions(function)) {
    std::pair<bool, bool> part{inst.mayReadFromMemory(), inst.mayWriteToMemory()};
    if (auto *call = dyn_cast<llvm::CallInst>(&inst); call && call->getCalledFunction() &&
                                                      !call->getCalledFunction()->isDeclaration())
      part = memoryMovedBy(*call->getCalledFunction(), seen);
    else if (const llvm::Value *address = llvm::getLoadStorePointerOperand(&inst);
             address && isa<llvm::AllocaInst>(llvm::getUnderlyingObject(address)))
      part = {false, false};
    else if (auto *intrinsic = dyn_cast<llvm::IntrinsicInst>(&inst); intrinsic && intrinsic->isLifetimeStartOrEnd())
      part = {false, false};
    moved.first |= part.first;
    moved.second |= part.second;
  }
  return moved;
}

} // namespace

std::optional<Expr> KernelAnalysis::testOfParameters(const llvm::Value *cond) {
  if (std::optional<Expr> given = optionalPointerGiven(cond, true))
    return given;
  if (parameterOnly(cond, 0))
    return parameterTruth(cond);
  return std::nullopt;
}

std::optional<std::vector<std::pair<const llvm::Value *, Expr>>>
KernelAnalysis::parameterChoice(const llvm::Value *value) {
  const Expr one = Expr::integer(1);
  if (auto *select = dyn_cast<llvm::SelectInst>(value)) {
    std::optional<Expr> holds = testOfParameters(select->getCondition());
    if (!holds)
      return std::nullopt;
    return std::vector<std::pair<const llvm::Value *, Expr>>{{select->getTrueValue(), *holds},
                                                             {select->getFalseValue(), one - *holds}};
  }
  // A phi whose block's immediate dominator branches on the test: each incoming edge lies on one side.
  auto *phi = dyn_cast<llvm::PHINode>(value);
  const llvm::DomTreeNode *node = phi ? dt_.getNode(phi->getParent()) : nullptr;
  const llvm::BasicBlock *decider = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
  auto *branch = decider ? dyn_cast<llvm::BranchInst>(decider->getTerminator()) : nullptr;
  if (!branch || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1) ||
      li_.getLoopFor(phi->getParent()) != li_.getLoopFor(decider))
    return std::nullopt;
  std::optional<Expr> holds = testOfParameters(branch->getCondition());
  if (!holds)
    return std::nullopt;
  const llvm::Value *sides[2] = {nullptr, nullptr};
  for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
    const llvm::BasicBlock *from = phi->getIncomingBlock(i);
    int side = -1;
    for (int s = 0; s < 2; ++s) {
      const llvm::BasicBlock *successor = branch->getSuccessor(s);
      if (from == decider ? successor == phi->getParent()
                          : dt_.dominates(llvm::BasicBlockEdge(decider, successor), from))
        side = s;
    }
    if (side < 0 || (sides[side] && sides[side] != phi->getIncomingValue(i)))
      return std::nullopt;
    sides[side] = phi->getIncomingValue(i);
  }
  if (!sides[0] || !sides[1])
    return std::nullopt;
  return std::vector<std::pair<const llvm::Value *, Expr>>{{sides[0], *holds}, {sides[1], one - *holds}};
}

std::vector<std::pair<const llvm::SCEV *, std::optional<Expr>>>
KernelAnalysis::offsetsByChoice(const llvm::SCEV *offset) {
  constexpr size_t MostSides = 8;
  std::vector<std::pair<const llvm::SCEV *, std::optional<Expr>>> done, pending{{offset, std::nullopt}};
  while (!pending.empty()) {
    auto [scev, holds] = pending.back();
    pending.pop_back();
    std::optional<std::vector<std::pair<const llvm::Value *, Expr>>> sides;
    const llvm::Value *chosen = nullptr;
    llvm::SCEVExprContains(scev, [&](const llvm::SCEV *part) {
      if (auto *unknown = dyn_cast<llvm::SCEVUnknown>(part); unknown && !sides) {
        sides = parameterChoice(unknown->getValue());
        chosen = unknown->getValue();
      }
      return sides.has_value();
    });
    if (!sides) {
      done.push_back({scev, holds});
      continue;
    }
    for (const auto &[value, truth] : *sides) {
      // Two choices by one test (`reorder ? i : i * n` as the start, `reorder ? n : 1` as the step): the sides
      // that take one choice's true value and the other's false one never run.
      Expr both = holds ? *holds * truth : truth;
      if (std::optional<Where> where = whereHolds(both); where && where->kind == Where::Kind::Never)
        continue;
      llvm::ValueToSCEVMapTy side{{chosen, se_.getSCEV(const_cast<llvm::Value *>(value))}};
      pending.push_back({llvm::SCEVParameterRewriter::rewrite(scev, se_, side), both});
    }
    if (done.size() + pending.size() > MostSides)
      return {{offset, std::nullopt}};
  }
  std::reverse(done.begin(), done.end()); // the first side first
  return done;
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
  // Tests of parameters under which something uncounted comes in (a block under `if (ids)` reading through
  // ids, an index `ids ? ids[c] : c`): the bytes in that direction are known where none of them holds.
  std::vector<Expr> readUnknownWhere, writeUnknownWhere;
  for (llvm::BasicBlock &block : f_) {
    guards(&block);
    auto tested = parameterTests_.find(&block);
    const std::optional<Expr> blockTest =
        tested != parameterTests_.end() ? std::optional<Expr>(tested->second) : std::nullopt;
    // What moves `read`/`write` bytes uncounted under the test `where` (the block's, or a side of a choice):
    // unknown there, or everywhere where no test is known.
    auto uncounted = [&](bool read, bool write, const std::optional<Expr> &where) {
      if (read && where)
        readUnknownWhere.push_back(*where);
      else if (read)
        readKnown = false;
      if (write && where)
        writeUnknownWhere.push_back(*where);
      else if (write)
        writeKnown = false;
    };
    for (llvm::Instruction &inst : block) {
      // NVVM intrinsics that move data through a pointer (wmma/ldmatrix loads and stores, cp.async, ...)
      // are not modelled: when the pointer may be global, the bytes in that direction are unknown.
      if (auto *call = dyn_cast<llvm::CallInst>(&inst); call && call->getCalledFunction() &&
                                                        call->getCalledFunction()->getName().starts_with("llvm.nvvm.")) {
        for (const llvm::Value *arg : call->args()) {
          if (!arg->getType()->isPointerTy() || onChip(arg))
            continue;
          std::string name = call->getCalledFunction()->getName().str();
          addUnknown("memory intrinsic it does not model (" + name + ")", &inst, nullptr, UnknownCause::Analysis,
                     blockTest);
          uncounted(inst.mayReadFromMemory(), inst.mayWriteToMemory(), blockTest);
        }
      }
      // A device function left a call (recursion, __noinline__) moves what its body moves, which is not
      // counted here: the directions it moves are unknown, not 0.
      if (auto *call = dyn_cast<llvm::CallInst>(&inst); call && call->getCalledFunction() &&
                                                        !call->getCalledFunction()->isDeclaration()) {
        std::set<const llvm::Function *> seen;
        auto [reads, writes] = memoryMovedBy(*call->getCalledFunction(), seen);
        if (reads || writes)
          addUnknown(uninlinedCallReason(*call->getCalledFunction()), &inst, nullptr, UnknownCause::Analysis,
                     blockTest);
        uncounted(reads, writes, blockTest);
      }
      for (Access &access : accessesOf(inst)) {
        const bool reads = access.kind != std::string("store"), writes = access.kind != std::string("load");
        if (!access.unknown.empty()) {
          addUnknown(access.unknown, &inst, nullptr, UnknownCause::Analysis, blockTest);
          uncounted(reads, writes, blockTest);
          continue;
        }
        if (onChip(access.address))
          continue;
        const llvm::Value *base = pointedObject(access.address);
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
            addUnknown("pointer from a field of a struct parameter (" + std::string(access.kind) + ")", &inst,
                       nullptr, UnknownCause::Analysis, blockTest);
          else
            addUnknown("pointer it cannot follow (" + std::string(access.kind) + ")", &inst, nullptr,
                       loaded && readsData(loaded) ? UnknownCause::IndirectAccess : UnknownCause::Analysis, blockTest);
          uncounted(reads, writes, blockTest);
          continue;
        }
        // Each side of the tests that choose an index the offset is made of, counted under its test.
        for (const auto &[offset, choice] : offsetsByChoice(byteOffset(access.address))) {
          std::optional<Expr> test = blockTest;
          if (choice)
            test = blockTest ? *blockTest * *choice : *choice;
          CountedAccess counted;
          counted.access.pointer = pointer;
          counted.access.kind = access.kind;
          if (test) {
            std::optional<Where> side = whereHolds(*test);
            counted.when = !side                            ? test
                           : side->kind == Where::Kind::When ? std::optional<Expr>(side->when)
                                                             : std::nullopt;
          }
          counted.access.file = locationOf(&inst, &counted.access.line, &counted.access.column, source_.file);
          counted.elementBytes = access.bytes;

          Linear lin = isa<llvm::SCEVCouldNotCompute>(offset) ? Linear{} : decompose(toPoly(offset));
          if (isa<llvm::SCEVCouldNotCompute>(offset)) {
            lin.known = false;
            lin.reason = "address it cannot follow";
          }
          const Linear address = lin; // as decomposed, before the digits are taken out below
          bool known = lin.known;
          std::string reason = lin.reason;
          UnknownCause cause = lin.cause;
          // Before the digits of a flat index are taken out of the affine form below.
          const std::array<bool, 3> movesWithThread = threadDependence(lin);
          const llvm::Instruction *where = &inst; // reported where the access is, whatever made it unknown
          const llvm::DILocation *whereLoop = nullptr;
          std::vector<Progression> progressions;
          std::optional<Poly> strideX, strideY;
          bool strideXUnknown = false;
          bool splitByThreadGuard = false;
          if (known && (guards(&block), unmodelledBranches_.count(&block)) &&
              !footprintIgnoresThreadTests(&block, movesWithThread) && !lanesKeepFootprint(&block, lin)) {
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
            // The guards' bounds on one index (a tree reduction's loop-variable bounds are its loop's business).
            auto boundsOn = [&](const AxisKey &axis) {
              std::vector<const Constraint *> list;
              for (const Constraint &c : constraints)
                if (c.axis == axis && c.loopAtom < 0)
                  list.push_back(&c);
              return list;
            };
            std::map<AxisKey, const LoopModel *> covers;
            for (const llvm::Loop *loop = li_.getLoopFor(&block); loop; loop = loop->getParentLoop()) {
              const LoopModel &model = loopModel(loop);
              if (model.kind == LoopModel::Cover || model.kind == LoopModel::Strided ||
                  model.kind == LoopModel::GroupStrided)
                covers[model.axis] = &model;
            }
            // The remainder of a digit, c * ((i % a) % b) = c * (i - a * (i / a) - b * q) with q = (i % a) / b:
            // a progression of its own, min(a, b) values of the digit's at most a, and the address without it.
            std::vector<int> remainders;
            for (const auto &[id, coeff] : lin.iters)
              if (atoms_[id].kind == AtomKind::DigitQuotient)
                remainders.push_back(id);
            for (int id : remainders) {
              const Atom &remainder = atoms_[id];
              auto it = lin.iters.find(id);
              const AxisKey axis = remainder.quotientAxis;
              const Poly &modulus = *atoms_[remainder.digitOf].divisor;
              Poly scale = lin.axes.count(axis) ? lin.axes.at(axis) : Poly();
              auto digit = lin.iters.find(remainder.digitOf);
              std::vector<const Constraint *> list = boundsOn(axis);
              // The axis only through the remainder (else the digit's values are not independent of it), and no
              // other remainder of the same digit; what is left of i / a's coefficient is its own progression.
              if (scale.isZero() || !(it->second == (scale * *remainder.divisor).scaled(-1)) ||
                  digit == lin.iters.end() || std::count_if(lin.iters.begin(), lin.iters.end(), [&](const auto &entry) {
                                                return atoms_[entry.first].kind == AtomKind::DigitQuotient &&
                                                       atoms_[entry.first].digitOf == remainder.digitOf;
                                              }) != 1) {
                known = false;
                reason = "remainder of a remainder (i % a % b) it cannot count";
                break;
              }
              Expr digitRange = Expr::min(toExpr(modulus), rangeCount(axis, *remainder.quotientWidth, list));
              progressions.push_back({scale, Expr::min(digitRange, toExpr(*remainder.divisor)).simplified()});
              if (axis.tid == 0)
                strideXUnknown = true; // runs of b threads, then back to the start
              digit->second = digit->second + scale * modulus;
              if (digit->second.isZero())
                lin.iters.erase(digit);
              lin.axes.erase(axis);
              lin.widths.erase(axis);
              lin.iters.erase(it);
            }
            // An index and its quotients (row = i / cols, col = i % cols): digits of a mixed radix, one
            // progression each, over the index range the guards leave.
            std::map<AxisKey, std::map<int, Poly>> quotients;
            for (const auto &[id, coeff] : lin.iters)
              if (atoms_[id].kind == AtomKind::Quotient || atoms_[id].kind == AtomKind::CoverQuotient)
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
              if (tested.loopAtom >= 0 || tested.axis.tid < 0 || tested.axis.cta >= 0 || tested.axis.outer >= 0 ||
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
              std::vector<const Constraint *> list = boundsOn(axis), onDigits;
              if (digitGuards)
                for (const Constraint &c : *digitGuards)
                  if (c.axis == axis)
                    onDigits.push_back(&c);
              Poly index = lin.axes.count(axis) ? lin.axes.at(axis) : Poly();
              const Poly &width = *atoms_[byAtom.begin()->first].quotientWidth;
              // Digits of a grid- or block-stride loop's index: the index is axis + extent * trip over the loop's
              // span, so the trip goes with the axis (its coefficient is the axis's times the extent); the loop's
              // own guard on the axis is in its span, as for the index itself below.
              const llvm::Loop *walked = atoms_[byAtom.begin()->first].loop;
              std::optional<Expr> range;
              auto trip = lin.iters.end();
              if (!walked) {
                range = rangeCount(axis, width, list);
              } else if (std::all_of(byAtom.begin(), byAtom.end(), [&](const auto &entry) {
                           return atoms_[entry.first].kind == AtomKind::CoverQuotient &&
                                  atoms_[entry.first].loop == walked;
                         })) {
                const LoopModel &walk = loopModel(walked);
                trip = lin.iters.find(walk.iterAtom);
                Poly tripCoefficient = trip != lin.iters.end() ? trip->second : Poly();
                if (tripCoefficient == index * extent(axis, width))
                  range = coverSpan(walk);
              }
              Poly shift;
              std::optional<std::vector<Progression>> digits =
                  range ? mixedRadix(index, byAtom, *range, onDigits, shift) : std::nullopt;
              if (digits && (walked || std::none_of(list.begin(), list.end(),
                                                    [](const Constraint *c) { return c->lower.has_value(); }))) {
                if (trip != lin.iters.end())
                  lin.iters.erase(trip);
                digitsTakenApart.insert(axis);
                lin.invariant = lin.invariant + shift;
                // A loop over the lanes of each group (for (c = lane; c < n; c += 32)): the lane digit and the
                // loop's trips together walk [base, bound) once a group.
                if (auto walk = covers.find(axis);
                    walk != covers.end() && walk->second->kind == LoopModel::GroupStrided) {
                  auto iter = lin.iters.find(walk->second->iterAtom);
                  auto lane = std::find_if(digits->begin(), digits->end(),
                                           [&](const Progression &p) { return p.stride == index; });
                  if (iter != lin.iters.end() && lane != digits->end() &&
                      iter->second == index.scaled(walk->second->step)) {
                    lane->count = Expr::max(toExpr(walk->second->bound - walk->second->base), Expr::integer(0));
                    lin.iters.erase(iter);
                  }
                }
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
            // A guard on a digit the address does not take apart (out[idx] under if (idx % n > 0)); one on an
            // index the address does not move with at all leaves its footprint as it is.
            if (known && digitGuards && std::any_of(digitGuards->begin(), digitGuards->end(), [&](const Constraint &c) {
                  return !digitsTakenApart.count(c.axis) && movesWith(address, c.axis) &&
                         !wholeGroupsKeepFootprint(c, address);
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
                if (walk.kind == LoopModel::Cover && iter != lin.iters.end() &&
                    iter->second == coeff * extent(axis, width)) {
                  lin.iters.erase(iter);
                  progressions.push_back({coeff, coverSpan(walk)});
                  continue;
                }
                // A constant step: rows of `step` values, of which the block's threads reach the first
                // min(step, blockDim) (all of them in the last, partial row, up to its end).
                if (walk.kind == LoopModel::Strided && iter != lin.iters.end() &&
                    iter->second == coeff.scaled(walk.step)) {
                  lin.iters.erase(iter);
                  Expr step = Expr::integer(walk.step);
                  Expr reached = Expr::min(step, toExpr(extent(axis, width)));
                  Expr rows = span / step;
                  progressions.push_back({coeff, reached * rows + Expr::min(span - step * rows, reached)});
                  continue;
                }
              }
              std::vector<const Constraint *> list = boundsOn(axis);
              // A global index over a constant tile (blockIdx.x * 32768 + threadIdx.x, a loop filling the rest):
              // a block's threads reach min(tile, blockDim.x) of its positions, not all of them.
              if (std::optional<int64_t> tile = width.asConstant();
                  tile && axis.tid >= 0 && axis.cta >= 0 && list.empty()) {
                progressions.push_back(
                    {coeff, Expr::min(Expr::integer(*tile), toExpr(launchDim("blockDim", axis.tid)))});
                progressions.push_back({coeff.scaled(*tile), toExpr(launchDim("gridDim", axis.cta))});
                if (axis.outer >= 0) // over a grid flattened in two dimensions
                  progressions.push_back(
                      {coeff.scaled(*tile) * launchDim("gridDim", axis.cta), toExpr(launchDim("gridDim", axis.outer))});
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
              if (atom.kind == AtomKind::DigitQuotient) {
                known = false;
                reason = "remainder of a remainder (i % a % b) it cannot count";
                break;
              }
              if (atom.kind == AtomKind::Quotient) {
                Expr range = rangeCount(atom.quotientAxis, *atom.quotientWidth, boundsOn(atom.quotientAxis));
                progressions.push_back({coeff, Expr::ceilDiv(range, toExpr(*atom.divisor)).simplified()});
                continue;
              }
              const LoopModel &model = loopModel(atom.loop);
              if (atom.kind != AtomKind::LoopIter || model.kind != LoopModel::Counted || model.tripsVarying) {
                known = false;
                reason = model.kind == LoopModel::Unknown ? model.reason
                         : !model.tripsVarying            ? "index follows a loop it cannot bound"
                         : namesCoordinate(*model.tripsVarying, "threadIdx")
                             ? "index follows a loop whose trip count depends on the thread index"
                             : "index follows a loop whose trip count depends on the block index";
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
            addUnknown(reason.empty() ? "address it cannot follow" : reason, where, whereLoop, cause, test);
            uncounted(reads, writes, test);
            estimate.accesses.push_back(counted);
            continue;
          }
          if (strideX)
            counted.strideExpr = toExpr(*strideX);
          else if (!strideXUnknown)
            counted.strideExpr = Expr::integer(0);
          if (strideY)
            counted.strideYExpr = toExpr(*strideY);
          counted.dependsOnThread = movesWithThread;
          for (const Constraint &c : guards(&block))
            if (c.axis.tid >= 0 && c.loopAtom < 0 && c.upper && (*c.upper - c.lower.value_or(Poly())).asConstant())
              counted.fewThreads[c.axis.tid] = true;
          if (Count executions = countBlock(&block); executions.value)
            counted.requested = (*executions.value * Expr::integer(access.bytes)).simplified();
          if (const llvm::Loop *loop = li_.getLoopFor(&block)) {
            int column = 0;
            if (const llvm::DILocation *start = loopModel(loop).start)
              counted.loopLine = static_cast<int>(start->getLine());
            else if (loopModel(loop).where)
              locationOf(loopModel(loop).where, &counted.loopLine, &column, source_.file);
            counted.walksFixedLoop = loopModel(loop).kind == LoopModel::Counted && !loopModel(loop).tripsVarying &&
                                     loopModel(loop).trips.asConstant() &&
                                     std::any_of(progressions.begin(), progressions.end(),
                                                 [](const Progression &p) { return p.threadLoop; });
          }

          for (bool write : {false, true}) {
            if ((write && access.kind == std::string("load")) || (!write && access.kind == std::string("store")))
              continue;
            FootprintGroup group;
            group.pointer = pointer;
            group.write = write;
            group.progressions = progressions;
            group.elementBytes = access.bytes;
            group.offsets.push_back(lin.invariant);
            group.strideX = strideX;
            group.splitByThreadGuard = splitByThreadGuard;
            group.members.push_back(estimate.accesses.size());
            if (test)
              group.condition = *test;
            regroup(groups, std::move(group));
          }
          estimate.accesses.push_back(counted);
        }
      }
    }
  }
  splitGlobalIndices(groups);
  uniteShiftedBoxes(groups);
  uniteConditions(groups);

  std::optional<Expr> read = Expr::integer(0), write = Expr::integer(0);
  std::optional<Expr> predictedRead = Expr::integer(0), predictedWrite = Expr::integer(0);
  struct UnitedBox {
    bool write;
    Expr run, footprint, predicted, condition;
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
      (group.write ? write : read) = *(group.write ? write : read) + group.condition * footprint;
      (group.write ? predictedWrite : predictedRead) =
          *(group.write ? predictedWrite : predictedRead) + group.condition * predicted;
      continue;
    }
    // One box: the same rows read in several passes, with another width or loop shape (a float4 pass and a
    // scalar pass), are one footprint. Boxes that start at the same offset and share their outer
    // progressions are unioned: the longer run covers the shorter.
    std::string boxKey = group.pointer + (group.write ? " w " : " r ") +
                         toExpr(group.offsets.front() + Poly::constant(elementStart)).str() +
                         conditionKey(group.condition);
    for (const Progression &p : outer)
      boxKey += ";" + toExpr(p.stride).str() + "|" + p.count.str();
    Expr outerCount = Expr::integer(1);
    for (const Progression &p : outer)
      outerCount = outerCount * p.count;
    auto [box, fresh] =
        boxes.try_emplace(boxKey, UnitedBox{group.write, run, footprint, predicted, group.condition});
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
    const Expr &condition = patterns.front().condition;
    Expr footprint = fieldUnion(patterns);
    (isWrite ? write : read) = *(isWrite ? write : read) + condition * footprint;
    (isWrite ? predictedWrite : predictedRead) =
        *(isWrite ? predictedWrite : predictedRead) + condition * (footprint + structInflation.at(key));
  }
  for (const auto &[key, box] : boxes) {
    (box.write ? write : read) = *(box.write ? write : read) + box.condition * box.footprint;
    (box.write ? predictedWrite : predictedRead) =
        *(box.write ? predictedWrite : predictedRead) + box.condition * box.predicted;
  }
  // Known where none of the tests that bring uncounted bytes in holds; unknown where one of them always does
  // (an index through a table on one side, a loop it cannot bound on the other).
  auto knownWhere = [](const std::vector<Expr> &tests, bool &known, std::optional<Expr> &knownWhen) {
    if (!known || tests.empty())
      return;
    std::optional<Where> where = whereNoneHolds(tests);
    if (!where) {
      Expr none = Expr::integer(1);
      for (const Expr &t : tests)
        none = none * (Expr::integer(1) - t);
      knownWhen = none;
    } else if (where->kind == Where::Kind::Never) {
      known = false;
    } else if (where->kind == Where::Kind::When) {
      knownWhen = where->when;
    }
  };
  knownWhere(readUnknownWhere, readKnown, estimate.readKnownWhen);
  knownWhere(writeUnknownWhere, writeKnown, estimate.writeKnownWhen);
  if (readKnown) {
    estimate.read = read->simplified();
    estimate.predictedRead = predictedRead->simplified();
  }
  if (writeKnown) {
    estimate.write = write->simplified();
    estimate.predictedWrite = predictedWrite->simplified();
  }
}

} // namespace roofcheck::lint::counting
