#include "FlopClassifier.h"
#include "InlinePtx.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

namespace roofcheck::lint {
namespace {

using llvm::dyn_cast;

int bucketOf(llvm::Type *type) {
  llvm::Type *scalar = type->getScalarType();
  if (scalar->isDoubleTy())
    return Fp64;
  if (scalar->isHalfTy())
    return Fp16;
  if (scalar->isBFloatTy())
    return Bf16;
  return Fp32;
}

int64_t lanesOf(llvm::Type *type) {
  if (auto *vector = dyn_cast<llvm::FixedVectorType>(type))
    return vector->getNumElements();
  return 1;
}

bool isFloating(llvm::Type *type) { return type->getScalarType()->isFloatingPointTy(); }

/// Tensor-core MMA intrinsics name their shape: llvm.nvvm.mma.m16n8k16.row.col.bf16,
/// llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32. FLOPs per thread of the warp; 0 when not an MMA shape.
int64_t mmaFlopsPerThread(llvm::StringRef name) {
  static const std::regex shape(R"(\.m(\d+)n(\d+)k(\d+)\.)");
  std::string text = name.str();
  std::smatch m;
  if (!std::regex_search(text, m, shape))
    return 0;
  return 2 * std::stoll(m[1]) * std::stoll(m[2]) * std::stoll(m[3]) / 32;
}

/// NVVM intrinsics that return floating-point values without arithmetic: min/max, sign, rounding, loads,
/// shuffles, atomics, bit casts and conversions (d2f.rn, f2bf16.rn, ff2bf16x2.rn).
bool noFlopNvvm(llvm::StringRef op) {
  static const char *const prefixes[] = {"fmax", "fmin", "fabs", "abs", "neg", "saturate", "round", "trunc", "floor",
                                         "ceil", "ldg", "ldu", "ld.", "shfl", "atomic", "redux", "bitcast"};
  for (const char *prefix : prefixes)
    if (op.starts_with(prefix))
      return true;
  static const std::regex conversion(R"(^[a-z]+2[a-z])");
  return std::regex_search(op.str(), conversion);
}

Flops intrinsicFlops(const llvm::Function &callee, llvm::Type *type, std::string *unresolved) {
  Flops flops{};
  llvm::StringRef name = callee.getName();
  int64_t lanes = type->isVoidTy() ? 1 : lanesOf(type);
  switch (callee.getIntrinsicID()) {
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::fmuladd:
    flops[bucketOf(type)] += 2 * lanes;
    return flops;
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::exp:
  case llvm::Intrinsic::exp2:
  case llvm::Intrinsic::exp10:
  case llvm::Intrinsic::log:
  case llvm::Intrinsic::log2:
  case llvm::Intrinsic::log10:
  case llvm::Intrinsic::sin:
  case llvm::Intrinsic::cos:
  case llvm::Intrinsic::tan:
  case llvm::Intrinsic::asin:
  case llvm::Intrinsic::acos:
  case llvm::Intrinsic::atan:
  case llvm::Intrinsic::atan2:
  case llvm::Intrinsic::sinh:
  case llvm::Intrinsic::cosh:
  case llvm::Intrinsic::tanh:
  case llvm::Intrinsic::pow:
  case llvm::Intrinsic::powi:
    flops[Special] += lanes;
    return flops;
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::maxnum:
  case llvm::Intrinsic::minimum:
  case llvm::Intrinsic::maximum:
  case llvm::Intrinsic::minimumnum:
  case llvm::Intrinsic::maximumnum:
  case llvm::Intrinsic::copysign:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::roundeven:
  case llvm::Intrinsic::canonicalize:
  case llvm::Intrinsic::ldexp:
  case llvm::Intrinsic::frexp:
  case llvm::Intrinsic::arithmetic_fence:
  case llvm::Intrinsic::convert_from_fp16:
  case llvm::Intrinsic::convert_to_fp16:
    return flops; // sign, comparison, rounding, exponent manipulation, conversion
  default:
    break;
  }
  if (name.starts_with("llvm.nvvm.")) {
    llvm::StringRef op = name.drop_front(10);
    if (op.starts_with("mma.") || op.starts_with("wmma.") || op.contains(".mma.")) {
      if (op.starts_with("wmma.") && !op.contains(".mma."))
        return flops; // a fragment load or store: memory, not arithmetic
      int64_t perThread = mmaFlopsPerThread(name);
      if (perThread == 0 || op.contains(".sp."))
        *unresolved = "tensor-core operation it cannot size (" + name.str() + ")";
      flops[Tensor] += perThread;
      return flops;
    }
    if (op.starts_with("fma.")) {
      flops[bucketOf(type)] += 2 * lanes;
    } else if (op.starts_with("add.r") || op.starts_with("mul.r")) {
      flops[bucketOf(type)] += lanes;
    } else if (op.starts_with("sqrt") || op.starts_with("rsqrt") || op.starts_with("ex2") || op.starts_with("lg2") ||
               op.starts_with("sin") || op.starts_with("cos") || op.starts_with("rcp") || op.starts_with("div") ||
               op.starts_with("tanh")) {
      flops[Special] += lanes;
    } else if (!type->isVoidTy() && isFloating(type) && !noFlopNvvm(op)) {
      *unresolved = "floating-point intrinsic it does not classify (" + name.str() + ")";
    }
    return flops;
  }
  // Other LLVM intrinsics: integer, memory and bookkeeping operations count no FLOPs; a floating-point one
  // that is not listed above is named.
  if (!type->isVoidTy() && isFloating(type) && !callee.getName().starts_with("llvm.experimental.constrained"))
    *unresolved = "floating-point intrinsic it does not classify (" + name.str() + ")";
  return flops;
}

bool isContractedAdd(const llvm::User *user) {
  auto *add = dyn_cast<llvm::Instruction>(user);
  return add && (add->getOpcode() == llvm::Instruction::FAdd || add->getOpcode() == llvm::Instruction::FSub) &&
         add->hasAllowContract();
}

/// A store into a thread's local array: the engine keeps the loops over such an array, and with them the
/// array; nvcc unrolls them and keeps its elements in registers, so the store is no use of the value there.
bool isLocalStore(const llvm::User *user) {
  auto *store = dyn_cast<llvm::StoreInst>(user);
  return store && llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(store->getPointerOperand()));
}

bool leavesProductFusable(const llvm::User *user) { return isContractedAdd(user) || isLocalStore(user); }

/// The product an add or subtract takes into an FMA when the code is contracted (nvcc's -fmad=true, clang's
/// `contract` flag): an operand that is a multiply of its block, used by nothing but adds and local stores
/// (ptxas leaves a product that is also stored to memory or compared a multiply of its own, and its adds
/// adds); the one with fewer uses first, and between equals the one computed first, so that two adds sharing
/// two products fuse the same one (ptxas does: rodrigues' `c*s + t` and `t - c*s`). Null where it takes none.
const llvm::Instruction *fusedProduct(const llvm::Instruction &add) {
  if (!isContractedAdd(&add))
    return nullptr;
  const llvm::Instruction *chosen = nullptr;
  for (const llvm::Value *operand : add.operands()) {
    auto *product = dyn_cast<llvm::Instruction>(operand);
    if (!product || product->getOpcode() != llvm::Instruction::FMul || !product->hasAllowContract() ||
        product->getParent() != add.getParent() || !llvm::all_of(product->users(), leavesProductFusable))
      continue;
    if (!chosen || product->getNumUses() < chosen->getNumUses() ||
        (product->getNumUses() == chosen->getNumUses() && product->comesBefore(chosen)))
      chosen = product;
  }
  return chosen;
}

/// A product with several uses, all adds, is fused into each add that takes it (each becomes an FMA of 2
/// FLOPs); where every use takes it, the multiply itself is gone. A product with one use fuses at no change
/// in the count (mul + add = FMA), so it is counted as written.
int64_t contractedFlops(const llvm::Instruction &inst) {
  if (const llvm::Instruction *product = fusedProduct(inst); product && !product->hasOneUse())
    return 2;
  if (inst.getOpcode() == llvm::Instruction::FMul && !inst.hasOneUse() && inst.hasAllowContract() &&
      llvm::all_of(inst.users(), [&](const llvm::User *user) {
        return isLocalStore(user) || fusedProduct(*llvm::cast<llvm::Instruction>(user)) == &inst;
      }))
    return 0;
  return 1;
}

Flops roundedFlops(const PtxFlops &ptx) {
  // Fractions cannot occur: every MMA shape's 2·M·N·K is a multiple of the threads that share it.
  Flops flops{};
  flops[Fp64] = std::llround(ptx.fp64);
  flops[Fp32] = std::llround(ptx.fp32);
  flops[Fp16] = std::llround(ptx.fp16);
  flops[Bf16] = std::llround(ptx.bf16);
  flops[Tensor] = std::llround(ptx.tensor);
  flops[Special] = std::llround(ptx.special);
  return flops;
}

} // namespace

MathKind classifyMathFunction(const std::string &name, int *arithmeticFlops) {
  // libdevice (CUDA 13, nvvm/libdevice/libdevice.10.bc), by what DESIGN.md counts.
  static const std::set<std::string> special = {
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "cos", "cosh", "cospi", "cyl_bessel_i0",
      "cyl_bessel_i1", "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1", "fast_cosf",
      "fast_exp10f", "fast_expf", "fast_fdividef", "fast_log10f", "fast_log2f", "fast_logf", "fast_powf",
      "fast_sincosf", "fast_sinf", "fast_tanf", "fast_tanhf", "fmod", "hypot", "j0", "j1", "jn", "lgamma", "log",
      "log10", "log1p", "log2", "norm", "norm3d", "norm4d", "normcdf", "normcdfinv", "pow", "powi", "rcbrt",
      "rcp64h", "remainder", "remquo", "rhypot", "rnorm", "rnorm3d", "rnorm4d", "rsqrt", "frsqrt_rn", "sin",
      "sincos", "sincospi", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "y0", "y1", "yn"};
  static const std::set<std::string> noFlops = {
      "abs", "llabs", "fabs", "max", "min", "umax", "umin", "llmax", "llmin", "ullmax", "ullmin", "fmax", "fmin",
      "copysign", "isnand", "isnanf", "isinfd", "isinff", "isfinited", "finitef", "signbitd", "signbitf", "popc",
      "popcll", "clz", "clzll", "ffs", "ffsll", "brev", "brevll", "byte_perm", "saturatef", "trunc", "floor", "ceil",
      "round", "rint", "nearbyint", "llrint", "llround", "mul24", "umul24", "mulhi", "umulhi", "mul64hi", "umul64hi",
      "sad", "usad", "hadd", "rhadd", "uhadd", "urhadd", "ldexp", "scalbn", "frexp", "ilogb", "logb", "nextafter",
      "nan", "modf", "fdim"};
  std::string base = name;
  // Precision forms: sqrtf, fsqrt_rn, ddiv_rz, fmaf_ieee_rn, ... share their function's class.
  static const std::regex rounded(R"(^(f|d)?(add|sub|mul|div|rcp|sqrt|fma|fmaf)(_ieee)?_r[dnuz]$)");
  std::smatch m;
  if (std::regex_match(base, m, rounded)) {
    std::string op = m[2];
    if (op == "add" || op == "sub" || op == "mul") {
      if (arithmeticFlops)
        *arithmeticFlops = 1;
      return MathKind::Arithmetic;
    }
    if (op == "fma" || op == "fmaf") {
      if (arithmeticFlops)
        *arithmeticFlops = 2;
      return MathKind::Arithmetic;
    }
    return MathKind::Special; // div, rcp, sqrt in a rounding mode
  }
  if (base == "fma" || base == "fmaf") {
    if (arithmeticFlops)
      *arithmeticFlops = 2;
    return MathKind::Arithmetic;
  }
  // Conversions (float2int_rn, ll2double_rz, hiloint2double, float_as_int) move no FLOPs.
  static const std::regex conversion(R"(^(float|double|int|uint|ll|ull|half|hiloint)(2|_as_)[a-z]+.*$|^longlong_as_double$)");
  if (std::regex_match(base, conversion))
    return MathKind::NoFlops;
  // The single-precision form: expf, powif, norm3df; fast_ forms are listed whole.
  std::string single = base.size() > 1 && base.back() == 'f' ? base.substr(0, base.size() - 1) : base;
  for (const std::string &candidate : {base, single}) {
    if (special.count(candidate))
      return MathKind::Special;
    if (noFlops.count(candidate))
      return MathKind::NoFlops;
  }
  return MathKind::Unknown;
}

std::string uninlinedCallReason(const llvm::Function &callee) {
  return "call to " + llvm::demangle(callee.getName()) + ", which the compiler did not inline (recursion or noinline)";
}

Flops flopsOf(const llvm::Instruction &inst, std::string *unresolved) {
  Flops flops{};
  switch (inst.getOpcode()) {
  case llvm::Instruction::FAdd:
  case llvm::Instruction::FSub:
  case llvm::Instruction::FMul:
    flops[bucketOf(inst.getType())] += contractedFlops(inst) * lanesOf(inst.getType());
    return flops;
  case llvm::Instruction::FDiv:
  case llvm::Instruction::FRem:
    flops[Special] += lanesOf(inst.getType());
    return flops;
  default:
    break;
  }
  auto *call = dyn_cast<llvm::CallInst>(&inst);
  if (!call)
    return flops;
  if (auto *asm_ = dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
    const PtxSummary &ptx = readInlinePtx(asm_->getAsmString().str());
    flops = roundedFlops(ptx.flops);
    if (!ptx.unmodelled.empty())
      *unresolved = "inline assembly it does not count (" + ptx.unmodelled.front() + ")";
    return flops;
  }
  const llvm::Function *callee = call->getCalledFunction();
  if (!callee) {
    *unresolved = "indirect call";
    return flops;
  }
  llvm::Type *type = call->getType();
  if (callee->isIntrinsic())
    return intrinsicFlops(*callee, type, unresolved);
  llvm::StringRef name = callee->getName();
  int64_t lanes = type->isVoidTy() ? 1 : lanesOf(type);
  if (name.starts_with("__nv_")) {
    int arithmetic = 0;
    switch (classifyMathFunction(name.drop_front(5).str(), &arithmetic)) {
    case MathKind::Arithmetic:
      flops[bucketOf(type)] += arithmetic * lanes;
      break;
    case MathKind::Special:
      flops[Special] += lanes;
      break;
    case MathKind::NoFlops:
      break;
    case MathKind::Unknown:
      *unresolved = "call to the math library function " + name.str() + ", which it does not classify";
      break;
    }
    return flops;
  }
  if (name == "vprintf" || name == "__assertfail" || name == "malloc" || name == "free")
    return flops;
  // A function that does not return ends the thread (an error path: an assertion, a variant compiled
  // without device code): no further work.
  if (callee->doesNotReturn())
    return flops;
  // A device function of the file that survived inlining recurses (or is noinline): its work per call is
  // not known from here, so the kernel's FLOPs are not either.
  if (!callee->isDeclaration())
    *unresolved = uninlinedCallReason(*callee);
  else
    *unresolved = "unresolved call to " + name.str();
  return flops;
}

std::vector<LaneGatedFlops>
laneGatedFlopsOf(const llvm::Instruction &inst,
                 const std::function<std::vector<int64_t>(const llvm::Value *)> &valuesOf, std::string *unresolved) {
  std::vector<LaneGatedFlops> gated;
  const auto *call = dyn_cast<llvm::CallInst>(&inst);
  const auto *asm_ = call ? dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
  if (!asm_)
    return gated;
  auto values = [&](const PtxValue &value) {
    return value.literal ? std::vector<int64_t>{*value.literal}
                         : value.operand < 0 ? std::vector<int64_t>{} : valuesOf(asmOperand(*call, value.operand));
  };
  for (const ShuffleGatedFlops &instruction : readInlinePtx(asm_->getAsmString().str()).shuffleGated) {
    std::vector<int64_t> offsets = values(instruction.offset), clamps = values(instruction.clamp);
    size_t trips = std::max(offsets.size(), clamps.size());
    if (offsets.empty() || clamps.empty() || (offsets.size() != trips && offsets.size() != 1) ||
        (clamps.size() != trips && clamps.size() != 1)) {
      *unresolved = "arithmetic in inline assembly under a shfl." + instruction.mode +
                    " predicate whose lanes depend on a run-time offset or clamp";
      continue;
    }
    LaneGatedFlops lanes;
    lanes.trips = static_cast<int64_t>(trips);
    lanes.flops = roundedFlops(instruction.flops);
    for (size_t trip = 0; trip < trips; ++trip) {
      int found = lanesWithSource(instruction.mode, offsets[offsets.size() == 1 ? 0 : trip],
                                  clamps[clamps.size() == 1 ? 0 : trip]);
      lanes.lanes += instruction.negated ? 32 - found : found;
    }
    gated.push_back(lanes);
  }
  return gated;
}

std::string tensorSourceType(const llvm::Instruction &inst, std::string *untyped) {
  const auto *call = dyn_cast<llvm::CallInst>(&inst);
  if (!call)
    return "";
  if (const auto *asm_ = dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
    const PtxSummary &ptx = readInlinePtx(asm_->getAsmString().str());
    *untyped = ptx.untypedMma;
    return ptx.tensorType;
  }
  const llvm::Function *callee = call->getCalledFunction();
  if (!callee)
    return "";
  llvm::SmallVector<llvm::StringRef, 12> pieces;
  callee->getName().split(pieces, '.');
  std::vector<std::string> parts;
  for (llvm::StringRef piece : pieces)
    parts.push_back(piece.str());
  std::string type = mmaSourceType(parts);
  if (type.empty())
    *untyped = callee->getName().str();
  return type;
}

std::string specialOperation(const llvm::Instruction &inst) {
  auto typeName = [](llvm::Type *type) {
    llvm::Type *scalar = type->getScalarType();
    return scalar->isDoubleTy() ? ".f64" : scalar->isFloatTy() ? ".f32" : scalar->isHalfTy() ? ".f16" : ".bf16";
  };
  if (inst.getOpcode() == llvm::Instruction::FDiv)
    return std::string("fdiv") + typeName(inst.getType());
  if (inst.getOpcode() == llvm::Instruction::FRem)
    return std::string("frem") + typeName(inst.getType());
  auto *call = dyn_cast<llvm::CallInst>(&inst);
  if (!call || isa<llvm::InlineAsm>(call->getCalledOperand()) || !call->getCalledFunction())
    return "inline assembly";
  llvm::StringRef name = call->getCalledFunction()->getName();
  if (name.consume_front("__nv_"))
    return name.str();
  if (name.consume_front("llvm.nvvm."))
    return "nvvm " + name.str();
  name.consume_front("llvm.");
  return name.str();
}

} // namespace roofcheck::lint
