#include "CountingPipeline.h"

#include "PassManagers.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

#include <mutex>
#include <vector>

namespace roofcheck::lint {

namespace {

/// The simplification the counting engine needs, and no more: inlining, SROA, instcombine, CFG
/// simplification, tail recursion into loops, and loop canonicalisation (rotated, LCSSA, induction
/// variables), without vectorisation and with no unrolling but the two below, so that loops stay loops.
/// Clang's O2 pipeline spends most of its time in passes the counting does not need (GVN, dead-store
/// elimination, full unrolling). The inliner works bottom-up over the call graph and takes __forceinline__
/// callees too, each simplified before it is inlined: a separate always-inline pass first copied unsimplified
/// bodies into their callers (50 s of 55 on a CUTLASS Hopper example with 38,000 device functions). Functions
/// no kernel calls are dropped once inlining is done, before the per-function passes. Early CSE runs again
/// after rotation and LICM: a loop bound read from memory each trip (`r < p.rows` of a by-value struct) is
/// read again by the rotated loop's guard, and indvars bounds the trips by the guard (`p.rows`, not
/// `max(1, p.rows)`) only where both reads are one value. MemCpyOpt folds a struct field copied out and back
/// unchanged (SROA leaves array fields as memcpys), which nvcc's optimiser removes as well.
/// libdevice's math functions (`__nv_rsqrtf`, `__nv_expf`) are only declared here, without the attributes
/// the real bodies earn: each call would otherwise be a possible write to any memory, and a struct copied
/// around a loop that calls one (`auto pi = p[i]; for (...) rsqrtf(...); p[i] = pi;`) stays a load and a
/// store of every field, where nvcc's optimiser keeps only the fields that changed. Those without pointer
/// parameters touch no memory; the others (`__nv_sincosf`, `__nv_modff`) touch only what they are handed.
void describeLibdeviceDeclarations(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || !function.getName().starts_with("__nv_"))
      continue;
    bool takesPointers = llvm::any_of(function.args(), [](const llvm::Argument &arg) {
      return arg.getType()->isPointerTy();
    });
    function.setMemoryEffects(takesPointers ? llvm::MemoryEffects::argMemOnly() : llvm::MemoryEffects::none());
    function.setDoesNotThrow();
    function.setWillReturn();
  }
}

/// Every device function of the file is counted where it is called, as nvcc's optimiser inlines them: the
/// inliner's cost model left a large helper called from several kernels (ggml's rope_yarn, with its cosf,
/// sinf and logf) a call, and the kernels' FLOPs unknown. Only `__noinline__` functions (and recursion, which
/// no inliner can undo) stay calls.
void inlineEveryDeviceFunction(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.getCallingConv() != llvm::CallingConv::PTX_Kernel &&
        !function.hasFnAttribute(llvm::Attribute::NoInline))
      function.addFnAttr(llvm::Attribute::AlwaysInline);
}

/// libdevice's min and max of integers (`min(k, n)` of ints in device code calls `__nv_min`) become LLVM's
/// min and max intrinsics, which ScalarEvolution reads as such and the optimiser hoists out of loops (a call
/// stays in place: clang marks every device function convergent): the loop `t < min(k, n)` counts min(k, n)
/// trips, and a tile count of a clamped length is a formula.
void lowerLibdeviceIntegerExtremes(llvm::Module &module) {
  static const std::pair<llvm::StringRef, llvm::Intrinsic::ID> extremes[] = {
      {"__nv_min", llvm::Intrinsic::smin},    {"__nv_llmin", llvm::Intrinsic::smin},
      {"__nv_umin", llvm::Intrinsic::umin},   {"__nv_ullmin", llvm::Intrinsic::umin},
      {"__nv_max", llvm::Intrinsic::smax},    {"__nv_llmax", llvm::Intrinsic::smax},
      {"__nv_umax", llvm::Intrinsic::umax},   {"__nv_ullmax", llvm::Intrinsic::umax}};
  for (auto [name, intrinsic] : extremes) {
    llvm::Function *function = module.getFunction(name);
    if (!function || !function->isDeclaration() || function->arg_size() != 2 ||
        !function->getReturnType()->isIntegerTy() || function->getArg(0)->getType() != function->getReturnType() ||
        function->getArg(1)->getType() != function->getReturnType())
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(function->users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != function)
        continue;
      llvm::IRBuilder<> builder(call);
      call->replaceAllUsesWith(
          builder.CreateBinaryIntrinsic(intrinsic, call->getArgOperand(0), call->getArgOperand(1)));
      call->eraseFromParent();
    }
    if (function->use_empty())
      function->eraseFromParent();
  }
}

/// Memory of the thread's own: a local variable or a by-value argument.
bool isLocal(const llvm::Value *pointer) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer);
  const auto *argument = llvm::dyn_cast<llvm::Argument>(object);
  return llvm::isa<llvm::AllocaInst>(object) || (argument && argument->hasByValAttr());
}

/// A copy of an object whose alignment is its size (`float4`, `int2`, `double2`: `const float4 p = d[i];`)
/// out of or into memory that is not a local variable reads or writes the whole object: the source copies
/// it, and nvcc's code moves it with one vector instruction (`ld.global.v4.f32` even when `.w` goes
/// unused). SROA would take the copy apart into one load per field and drop the unused ones, so each such
/// copy becomes one integer load of the whole object; the freeze between the load and its store keeps SROA
/// from splitting the load along with the store (a freeze is no arithmetic and no memory access).
void copyAlignedObjectsWhole(llvm::Module &module) {
  std::vector<std::pair<llvm::MemCpyInst *, uint64_t>> copies; // and its length in bytes
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *copy = llvm::dyn_cast<llvm::MemCpyInst>(&instruction)) {
        const auto *length = llvm::dyn_cast<llvm::ConstantInt>(copy->getLength());
        if (!length || copy->isVolatile())
          continue;
        uint64_t bytes = length->getZExtValue();
        bool objectSized = (bytes == 8 || bytes == 16) && copy->getSourceAlign().valueOrOne().value() >= bytes &&
                           copy->getDestAlign().valueOrOne().value() >= bytes;
        if (objectSized && (!isLocal(copy->getSource()) || !isLocal(copy->getDest())))
          copies.emplace_back(copy, bytes);
      }
  for (auto [copy, bytes] : copies) {
    llvm::IRBuilder<> builder(copy);
    llvm::Type *whole = builder.getIntNTy(unsigned(bytes * 8));
    llvm::LoadInst *load = builder.CreateAlignedLoad(whole, copy->getSource(), copy->getSourceAlign());
    builder.CreateAlignedStore(builder.CreateFreeze(load), copy->getDest(), copy->getDestAlign());
    copy->eraseFromParent();
  }
}

/// Loops of at most this many constant trips are the only ones spelt out (nvcc unrolls such loops too).
constexpr unsigned mostUnrolledTrips = 16;

/// Spells out every trip of each loop, given with its constant trip count; true if any changed. Each loop is
/// put in LCSSA form first: UnrollLoop points the uses after a loop at the last trip's values only through
/// LCSSA phis, and a use without one would go on reading the first trip's (instcombine removes such phis).
bool unrollFully(const std::vector<std::pair<llvm::Loop *, unsigned>> &loopsAndTrips, llvm::Function &function,
                 llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &assumptions = analyses.getResult<llvm::AssumptionAnalysis>(function);
  auto &target = analyses.getResult<llvm::TargetIRAnalysis>(function);
  auto &remarks = analyses.getResult<llvm::OptimizationRemarkEmitterAnalysis>(function);
  bool changed = false;
  for (auto [loop, trips] : loopsAndTrips) {
    llvm::formLCSSARecursively(*loop, dominators, &loops, &evolution);
    llvm::UnrollLoopOptions options{};
    options.Count = trips;
    changed |= llvm::UnrollLoop(loop, options, &loops, &evolution, &dominators, &assumptions, &target, &remarks,
                                /*PreserveLCSSA=*/true) != llvm::LoopUnrollResult::Unmodified;
  }
  return changed;
}

/// A switch whose default is unreachable takes one of its cases whatever its value (instcombine makes one of
/// an if/else-if chain over the values of `k & 1` that also tests values it cannot have): the default is
/// then its last case. Else the unreachable block is an exit of every loop around the switch, and loops of
/// several exits have no trip count (CUTLASS's warp tile iterators, in the K loop of its GEMMs).
bool dropUnreachableSwitchDefaults(llvm::Function &function) {
  bool changed = false;
  for (llvm::BasicBlock &block : function) {
    auto *choice = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator());
    if (!choice || choice->getNumCases() == 0 ||
        !llvm::isa<llvm::UnreachableInst>(choice->getDefaultDest()->getFirstNonPHIOrDbg()))
      continue;
    llvm::BasicBlock *unreachable = choice->getDefaultDest();
    auto last = std::prev(choice->case_end());
    choice->setDefaultDest(last->getCaseSuccessor());
    choice->removeCase(last);
    unreachable->removePredecessor(&block);
    changed = true;
  }
  return changed;
}

/// A loop whose counter changes in one trip of a constant-trip inner loop (CUTLASS's pipelined mainloop:
/// `--gemm_k_iterations` when `warp_mma_k + 2 == kWarpGemmIterations`, inside `for (warp_mma_k = 0; warp_mma_k
/// < 2; ...)`) has no trip count: what the inner loop leaves in the counter is a select on its own index, which
/// ScalarEvolution does not follow. With the inner loop's trips spelt out each select folds and the counter
/// is a recurrence again; nvcc unrolls such loops too (the source asks, `#pragma unroll`). Only loops of at most
/// 16 constant trips directly inside a loop without a trip count are unrolled: the counts are the same either
/// way, and every other loop stays a loop. Unreachable switch defaults go first, as they would make loops of
/// constant trips uncounted.
class UnrollInnerLoopsOfUncountedLoops : public llvm::PassInfoMixin<UnrollInnerLoopsOfUncountedLoops> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    bool changed = dropUnreachableSwitchDefaults(function);
    if (changed)
      analyses.invalidate(function, llvm::PreservedAnalyses::none());
    auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
    std::vector<std::pair<llvm::Loop *, unsigned>> inner; // and its trips
    for (llvm::Loop *outer : loops.getLoopsInPreorder()) {
      if (!llvm::isa<llvm::SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(outer)))
        continue;
      for (llvm::Loop *loop : outer->getSubLoops()) {
        unsigned trips = evolution.getSmallConstantTripCount(loop);
        if (loop->isLoopSimplifyForm() && trips >= 2 && trips <= mostUnrolledTrips)
          inner.emplace_back(loop, trips);
      }
    }
    changed |= !inner.empty() && unrollFully(inner, function, analyses);
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

/// A loop of a few constant trips that only moves values between local arrays (CUTLASS's `Coord` and
/// `Array` constructors: `for (int i = 0; i < kRank; ++i) idx[i] = other[i];`) keeps them in memory, as its
/// index varies: every value read back after it is a load the counting cannot follow, and a GEMM's K loop
/// bounded by one has no trip count. nvcc's optimiser unrolls such loops and keeps the values in registers;
/// here they are unrolled and SROA, run after this pass, does the same. Loops that touch any other memory stay
/// loops, so the accesses the footprint is made of are as the source writes them.
class UnrollLocalArrayCopies : public llvm::PassInfoMixin<UnrollLocalArrayCopies> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
    std::vector<std::pair<llvm::Loop *, unsigned>> copies; // and its trips
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      unsigned trips = evolution.getSmallConstantTripCount(loop);
      if (loop->isInnermost() && loop->isLoopSimplifyForm() && trips >= 2 && trips <= mostUnrolledTrips &&
          copiesLocalArrays(*loop))
        copies.emplace_back(loop, trips);
    }
    bool changed = !copies.empty() && unrollFully(copies, function, analyses);
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }

private:

  /// Every memory access of the loop is a load or store of a local variable or a by-value argument, at least
  /// one at an address that changes from trip to trip (SROA takes care of the others).
  static bool copiesLocalArrays(const llvm::Loop &loop) {
    bool indexed = false;
    for (const llvm::BasicBlock *block : loop.blocks())
      for (const llvm::Instruction &instruction : *block) {
        if (!instruction.mayReadOrWriteMemory())
          continue;
        if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
            intrinsic && intrinsic->isLifetimeStartOrEnd())
          continue;
        const llvm::Value *address = llvm::getLoadStorePointerOperand(&instruction);
        if (!address || !isLocal(address) || instruction.isVolatile())
          return false;
        indexed |= !loop.isLoopInvariant(address);
      }
    return indexed;
  }
};

} // namespace

void simplifyForCounting(llvm::Module &module) {
  lowerLibdeviceIntegerExtremes(module);
  describeLibdeviceDeclarations(module);
  inlineEveryDeviceFunction(module);
  copyAlignedObjectsWhole(module);
  // InstCombine sinks an instruction into the one branch that uses its result: a warp reduction's last add
  // would move under `if (lane == 0)` and count once a warp, where the source (and nvcc's code) runs it in
  // every thread. The counts follow the source: no sinking.
  static std::once_flag sinkingOff;
  std::call_once(sinkingOff, [] {
    if (llvm::cl::Option *sinking = llvm::cl::getRegisteredOptions().lookup("instcombine-code-sinking"))
      sinking->addOccurrence(0, "instcombine-code-sinking", "false");
  });
  PassManagers managers;
  static const char *const pipeline =
      "cgscc(inline,function(sroa<modify-cfg>,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,tailcallelim)),"
      "globaldce,"
      "function(sroa<modify-cfg>,early-cse<memssa>,memcpyopt,simplifycfg,instcombine<no-verify-fixpoint>,"
      "loop-simplify,lcssa,loop-rotate,loop-mssa(licm),early-cse<memssa>,indvars,unroll-local-array-copies,"
      "unroll-inner-loops-of-uncounted-loops,sroa<modify-cfg>,"
      "instcombine<no-verify-fixpoint>,simplifycfg)";
  managers.builder.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::FunctionPassManager &passes, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "unroll-local-array-copies")
          passes.addPass(UnrollLocalArrayCopies());
        else if (name == "unroll-inner-loops-of-uncounted-loops")
          passes.addPass(UnrollInnerLoopsOfUncountedLoops());
        else
          return false;
        return true;
      });
  llvm::ModulePassManager passes;
  if (llvm::Error error = managers.builder.parsePassPipeline(passes, pipeline))
    llvm::report_fatal_error(std::move(error)); // a fixed string: a mistake in it is ours, caught by every test
  passes.run(module, managers.modules);
  for (llvm::Function &function : module)
    dropUnreachableSwitchDefaults(function); // those the last passes made
}

} // namespace roofcheck::lint
