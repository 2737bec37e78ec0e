// The parts of the counting engine every other part uses (which values are data, thread coordinates, source
// places), the FLOPs of a kernel, and the driver over a module's kernels.
#include "KernelCounter.h"
#include "FlopClassifier.h"
#include "KernelAnalysis.h"
#include "ParameterTests.h"
#include "PassManagers.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace roofcheck::lint {
namespace counting {

bool readsParameter(const llvm::LoadInst *load) {
  const llvm::Value *pointer = load->getPointerOperand();
  if (pointer->getType()->getPointerAddressSpace() == AddressSpace::Param)
    return true;
  auto *arg = dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(pointer, 0));
  return arg && arg->hasByValAttr();
}

const llvm::Value *nonNullChoice(const llvm::Value *pointer) {
  const llvm::Value *chosen = nullptr;
  auto take = [&](const llvm::Value *v) {
    if (isa<llvm::ConstantPointerNull>(v))
      return true;
    if (chosen && chosen != v)
      return false;
    chosen = v;
    return true;
  };
  if (auto *select = dyn_cast<llvm::SelectInst>(pointer)) {
    if (!take(select->getTrueValue()) || !take(select->getFalseValue()))
      return nullptr;
  } else if (auto *phi = dyn_cast<llvm::PHINode>(pointer)) {
    for (const llvm::Value *incoming : phi->incoming_values())
      if (!take(incoming))
        return nullptr;
  } else {
    return nullptr;
  }
  return chosen != pointer ? chosen : nullptr;
}

/// The start of a pointer that a loop moves along (`for (; n > 0; --n, p += 8)`): the one incoming value of the
/// phi that is not the phi itself moved on; null for any other phi.
const llvm::Value *bumpedPointerStart(const llvm::Value *pointer) {
  auto *phi = dyn_cast<llvm::PHINode>(pointer);
  const llvm::Value *start = nullptr;
  for (const llvm::Value *incoming : phi ? phi->incoming_values() : llvm::ArrayRef<llvm::Use>()) {
    if (llvm::getUnderlyingObject(incoming, 0) == phi)
      continue;
    if (start && start != incoming)
      return nullptr;
    start = incoming;
  }
  return start;
}

const llvm::Value *pointedObject(const llvm::Value *pointer) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer, 0);
  for (int depth = 0; depth < 4; ++depth) {
    const llvm::Value *chosen = nonNullChoice(object);
    if (!chosen)
      chosen = bumpedPointerStart(object);
    if (!chosen)
      break;
    object = llvm::getUnderlyingObject(chosen, 0);
  }
  return object;
}

/// A load of a local variable the optimiser left in memory.
bool readsLocalVariable(const llvm::LoadInst *load) {
  return isa<llvm::AllocaInst>(llvm::getUnderlyingObject(load->getPointerOperand(), 0));
}

bool readsData(const llvm::LoadInst *load) { return !readsParameter(load) && !readsLocalVariable(load); }

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

bool dependsOnLocalMemory(const llvm::Value *value, std::set<const llvm::Value *> &seen, int depth) {
  auto local = [](const llvm::Value *v) -> std::optional<bool> {
    if (auto *load = dyn_cast<llvm::LoadInst>(v))
      return readsLocalVariable(load);
    return std::nullopt;
  };
  return reaches(value, local, seen, depth, 12);
}

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

/// The file of a location, made absolute with its compilation's directory (clang names headers relative to it).
std::string pathOf(const llvm::DILocation *loc) {
  llvm::SmallString<256> located(loc->getFilename());
  if (llvm::sys::path::is_relative(located)) {
    located = loc->getDirectory();
    llvm::sys::path::append(located, loc->getFilename());
  }
  llvm::sys::path::remove_dots(located, true);
  return located.str().str();
}

bool isFile(const llvm::DILocation *loc, const std::string &file) {
  if (file.empty())
    return false;
  if (loc->getFilename() == llvm::StringRef(file))
    return true;
  llvm::SmallString<256> located(pathOf(loc));
  llvm::SmallString<256> named(file);
  llvm::sys::fs::make_absolute(named);
  llvm::sys::path::remove_dots(named, true);
  return located == named;
}

std::string locate(const llvm::DILocation *loc, int *line, int *column, const std::string &preferredFile) {
  while (loc->getInlinedAt() && !isFile(loc, preferredFile))
    loc = loc->getInlinedAt();
  *line = static_cast<int>(loc->getLine());
  *column = static_cast<int>(loc->getColumn());
  return isFile(loc, preferredFile) ? preferredFile : loc->getFilename().str();
}

std::string locationOf(const llvm::Instruction *inst, int *line, int *column, const std::string &preferredFile) {
  *line = 0;
  *column = 0;
  if (!inst || !inst->getDebugLoc())
    return {};
  return locate(inst->getDebugLoc().get(), line, column, preferredFile);
}

void KernelAnalysis::addUnknown(const std::string &reason, const llvm::Instruction *where,
                                const llvm::DILocation *at, UnknownCause cause, const std::optional<Expr> &when) {
  Unknown unknown;
  unknown.reason = reason;
  unknown.cause = cause;
  if (when) {
    std::optional<Where> where = whereHolds(*when);
    if (where && where->kind == Where::Kind::Never)
      return; // under tests that exclude each other: no launch meets it
    if (!where)
      unknown.when = when->simplified().str();
    else if (where->kind == Where::Kind::When)
      unknown.when = where->when.str();
  }
  unknown.file = locationOf(where, &unknown.line, &unknown.column, source_.file);
  const llvm::DILocation *code = at ? at : where && where->getDebugLoc() ? where->getDebugLoc().get() : nullptr;
  if (at)
    unknown.file = locate(at, &unknown.line, &unknown.column, source_.file);
  if (unknown.file.empty()) {
    unknown.file = source_.file;
    unknown.line = source_.line;
  }
  // Inlined code (a library header's function) is named where the kernel's file calls it; where it is, too.
  if (code && code->getInlinedAt() && code->getLine() != 0 &&
      (code->getLine() != unsigned(unknown.line) || !isFile(code, unknown.file)))
    unknown.origin = pathOf(code) + ":" + std::to_string(code->getLine()) + ":" + std::to_string(code->getColumn());
  for (const Unknown &u : unknowns_)
    if (u.reason == unknown.reason && u.line == unknown.line && u.column == unknown.column && u.file == unknown.file &&
        u.origin == unknown.origin && u.when == unknown.when)
      return;
  unknowns_.push_back(unknown);
}

namespace {
// nvcc fully unrolls a counted loop of a few trips without being asked; LLVM's own full unrolling stops at a
// size. Loops of more trips than this keep their per-trip arithmetic in the count.
constexpr unsigned maxUnrolledTrips = 32;
} // namespace

bool KernelAnalysis::knownOnceUnrolled(const llvm::Value *value, int depth) {
  if (isa<llvm::Constant>(value))
    return true;
  const auto *inst = dyn_cast<llvm::Instruction>(value);
  if (!inst || depth > 16)
    return false;
  auto operandsKnown = [&](const llvm::User *user) {
    return std::all_of(user->op_begin(), user->op_end(),
                       [&](const llvm::Use &use) { return knownOnceUnrolled(use.get(), depth + 1); });
  };
  if (const auto *phi = dyn_cast<llvm::PHINode>(inst)) {
    const llvm::Loop *loop = li_.getLoopFor(phi->getParent());
    if (!loop || loop->getHeader() != phi->getParent() || !se_.isSCEVable(phi->getType()))
      return false;
    unsigned trips = se_.getSmallConstantTripCount(loop);
    const auto *progression = dyn_cast<llvm::SCEVAddRecExpr>(se_.getSCEV(const_cast<llvm::PHINode *>(phi)));
    return trips > 0 && trips <= maxUnrolledTrips && progression && progression->getLoop() == loop &&
           progression->isAffine() && isa<llvm::SCEVConstant>(progression->getStart()) &&
           isa<llvm::SCEVConstant>(progression->getStepRecurrence(se_));
  }
  if (const auto *load = dyn_cast<llvm::LoadInst>(inst)) {
    const auto *table = dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(load->getPointerOperand()));
    return !load->isVolatile() && table && table->isConstant() && table->hasDefinitiveInitializer() &&
           knownOnceUnrolled(load->getPointerOperand(), depth + 1);
  }
  if (isa<llvm::CastInst>(inst) || isa<llvm::BinaryOperator>(inst) || isa<llvm::UnaryOperator>(inst) ||
      isa<llvm::CmpInst>(inst) || isa<llvm::SelectInst>(inst) || isa<llvm::GetElementPtrInst>(inst))
    return operandsKnown(inst);
  return false;
}

std::vector<int64_t> KernelAnalysis::valuesOverTrips(const llvm::Value *value, const llvm::Instruction &user) {
  if (const auto *constant = dyn_cast_or_null<llvm::ConstantInt>(value))
    return {constant->getSExtValue()};
  const llvm::Loop *loop = li_.getLoopFor(user.getParent());
  unsigned trips = loop ? se_.getSmallConstantTripCount(loop) : 0;
  if (!value || trips == 0 || trips > maxUnrolledTrips)
    return {};
  // The value as a function of one of the loop's induction variables (start and step constants).
  for (const llvm::PHINode &phi : loop->getHeader()->phis()) {
    const auto *progression = se_.isSCEVable(phi.getType())
                                  ? dyn_cast<llvm::SCEVAddRecExpr>(se_.getSCEV(const_cast<llvm::PHINode *>(&phi)))
                                  : nullptr;
    const auto *start = progression && progression->isAffine() ? dyn_cast<llvm::SCEVConstant>(progression->getStart())
                                                                 : nullptr;
    const auto *step = start ? dyn_cast<llvm::SCEVConstant>(progression->getStepRecurrence(se_)) : nullptr;
    if (!step)
      continue;
    std::vector<int64_t> values;
    for (unsigned trip = 0; trip < trips; ++trip) {
      uint64_t at = start->getAPInt().getZExtValue() + trip * step->getAPInt().getZExtValue();
      std::optional<llvm::APInt> v = evaluateAt(value, &phi, at, 0);
      if (!v || v->getSignificantBits() > 64)
        break;
      values.push_back(v->getSExtValue());
    }
    if (values.size() == trips)
      return values;
  }
  return {};
}

bool KernelAnalysis::foldedOnceUnrolled(const llvm::Instruction &inst) {
  if (!inst.getType()->isFPOrFPVectorTy() || li_.getLoopFor(inst.getParent()) == nullptr)
    return false;
  if (isa<llvm::BinaryOperator>(inst))
    return knownOnceUnrolled(&inst, 0);
  // Intrinsics (fma, fmuladd) and the math library's functions fold as well; any other call is left to
  // flopsOf, which names what it cannot count.
  const auto *call = dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || !(callee->isIntrinsic() || callee->getName().starts_with("__nv_")))
    return false;
  return std::all_of(call->arg_begin(), call->arg_end(),
                     [&](const llvm::Use &use) { return knownOnceUnrolled(use.get(), 1); });
}

KernelEstimate KernelAnalysis::run() {
  KernelEstimate estimate;
  estimate.source = source_;
  // Loop models first: they register the halving variables of tree reductions, which guards refer to.
  for (const llvm::Loop *loop : li_.getLoopsInPreorder())
    loopModel(loop);
  polys_.clear(); // a quotient of a stride loop's index, read before its loop was modelled, is one now
  guards_.clear();
  unmodelledBranches_.clear();
  parameterTests_.clear();
  threadTests_.clear();
  std::array<std::optional<Expr>, BucketCount> buckets;
  buckets.fill(Expr::integer(0));
  bool unresolvedCall = false;
  // The special FLOPs by operation and the tensor FLOPs by source type.
  std::map<std::string, Expr> specials, tensorTypes;
  for (llvm::BasicBlock &block : f_) {
    // FLOPs per thread as fractions, by denominator: 1 for what every thread runs, 32 · trips for asm
    // arithmetic a shuffle predicates (it runs in some lanes of each warp).
    std::map<int64_t, Flops> flops;
    using NamedFractions = std::map<std::pair<std::string, int64_t>, int64_t>; // (name, denominator) -> numerator
    NamedFractions blockSpecials, blockTensorTypes;
    bool any = false;
    auto add = [&](const llvm::Instruction &inst, int64_t numerator, int64_t denominator, const Flops &f) {
      Flops &sum = flops.try_emplace(denominator, Flops{}).first->second;
      if (f[Special])
        blockSpecials[{specialOperation(inst), denominator}] += f[Special] * numerator;
      if (f[Tensor]) {
        std::string untyped, type = tensorSourceType(inst, &untyped);
        if (type.empty())
          addUnknown("tensor-core operation whose source type it cannot tell (" + untyped + ")", &inst);
        else
          blockTensorTypes[{type, denominator}] += f[Tensor] * numerator;
      }
      for (int b = 0; b < BucketCount; ++b) {
        sum[b] += f[b] * numerator;
        any = any || f[b] != 0;
        estimate.doubleArithmetic = estimate.doubleArithmetic || (f[b] && inst.getType()->getScalarType()->isDoubleTy());
      }
    };
    for (llvm::Instruction &inst : block) {
      if (foldedOnceUnrolled(inst))
        continue;
      std::string unresolved;
      add(inst, 1, 1, flopsOf(inst, &unresolved));
      auto valuesOf = [&](const llvm::Value *value) { return valuesOverTrips(value, inst); };
      for (const LaneGatedFlops &gated : laneGatedFlopsOf(inst, valuesOf, &unresolved))
        add(inst, gated.lanes, 32 * gated.trips, gated.flops);
      if (!unresolved.empty()) {
        unresolvedCall = true;
        addUnknown(unresolved, &inst);
      }
    }
    if (!any)
      continue;
    Count count = countBlock(&block);
    if (!count.value)
      addUnknown(count.reason, count.where, count.at, count.cause);
    // A fraction of a FLOP a thread times the block's thread executions: exact for whole warps, which the
    // asm's warp-wide shuffles need.
    auto times = [&](int64_t numerator, int64_t denominator) {
      int64_t common = std::gcd(numerator, denominator);
      Expr scaled = Expr::integer(numerator / common) * *count.value;
      return common == denominator ? scaled : scaled / Expr::integer(denominator / common);
    };
    for (const auto &[denominator, sum] : flops)
      for (int b = 0; b < BucketCount; ++b) {
        if (sum[b] == 0 || !buckets[b])
          continue;
        if (!count.value)
          buckets[b].reset();
        else
          buckets[b] = *buckets[b] + times(sum[b], denominator);
      }
    auto addNamed = [&](const NamedFractions &fractions, std::map<std::string, Expr> &totals) {
      for (const auto &[named, numerator] : fractions) {
        Expr &total = totals.try_emplace(named.first, Expr::integer(0)).first->second;
        total = total + times(numerator, named.second);
      }
    };
    if (count.value) {
      addNamed(blockSpecials, specials);
      addNamed(blockTensorTypes, tensorTypes);
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
  if (estimate.tensor)
    for (const auto &[type, count] : tensorTypes)
      estimate.tensorBySourceType.emplace(type, count.simplified());
  if (buckets[Fp64] && buckets[Fp32] && buckets[Fp16] && buckets[Bf16] && buckets[Tensor])
    estimate.total = (*buckets[Fp64] + *buckets[Fp32] + *buckets[Fp16] + *buckets[Bf16] + *buckets[Tensor]).simplified();
  countMemory(estimate);
  estimate.unknowns = unknowns_;
  estimate.divisions = divisions_;
  return estimate;
}

} // namespace counting

double sectorsPerRequest(int64_t stride, int64_t element) {
  if (stride == 0)
    return std::ceil(static_cast<double>(element) / 32.0);
  if (stride >= 32)
    return 32.0 * std::ceil(static_cast<double>(element) / 32.0);
  return std::ceil(static_cast<double>(31 * stride + element) / 32.0);
}

namespace {

/// Instcombine over a kernel rankLinearly rewrote: the x coordinate's known range drops the 16-bit masks
/// cooperative groups put on a tile's rank and count, (threadIdx.x >> 5) & 65535.
void tidyRankedKernel(llvm::Function &kernel, PassManagers &managers) {
  llvm::FunctionPassManager passes;
  if (llvm::Error error = managers.builder.parsePassPipeline(passes, "instcombine<no-verify-fixpoint>"))
    llvm::report_fatal_error(std::move(error)); // a fixed string: a mistake in it is ours, caught by every test
  passes.run(kernel, managers.functions);
}

/// How many of a kernel's FLOPs, bytes read and bytes written an estimate knows.
int knownQuantities(const KernelEstimate &estimate) {
  return estimate.total.has_value() + estimate.read.has_value() + estimate.write.has_value();
}

} // namespace

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
    LinearRanks linear = rankLinearly(*function);
    if (linear.block || linear.grid)
      tidyRankedKernel(*function, managers);
    KernelEstimate estimate = counting::KernelAnalysis(*function, source, managers.functions, linear).run();
    // Warps stacked along y, counted with their lanes along x: a second view of the same threads, kept where
    // it counts more (two rows a warp), not where the two dimensions apart already count everything.
    if (!linear.block && !estimate.unknowns.empty() && warpsStackAlongY(*function)) {
      llvm::ValueToValueMapTy copied;
      llvm::Function *stacked = llvm::CloneFunction(function, copied);
      stackWarps(*stacked);
      tidyRankedKernel(*stacked, managers);
      LinearRanks view = linear;
      view.stackedWarps = true;
      KernelEstimate other = counting::KernelAnalysis(*stacked, source, managers.functions, view).run();
      if (knownQuantities(other) > knownQuantities(estimate))
        estimate = std::move(other);
      managers.functions.clear(*stacked, stacked->getName());
      stacked->eraseFromParent();
    }
    estimates.push_back(std::move(estimate));
  }
  return estimates;
}

} // namespace roofcheck::lint
