// FLOP classification of device IR instructions in DESIGN.md's convention: add, sub, mul = 1 and FMA = 2 per
// SIMD lane, in the bucket of the operand type; division, square roots, exponentials, logarithms, trig and
// the rest of the math library in `special`; tensor-core MMAs as 2·M·N·K per MMA, shared by the threads
// that issue it. Every call it cannot classify is named, never counted as zero in silence.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace roofcheck::lint {

enum Bucket { Fp64, Fp32, Fp16, Bf16, Tensor, Special, BucketCount };
using Flops = std::array<int64_t, BucketCount>;

/// FLOPs of one execution of `inst` by one thread. `unresolved` receives a description of what it could not
/// classify ("unresolved call to foo", "tensor-core operation ..."), empty when it classified everything.
Flops flopsOf(const llvm::Instruction &inst, std::string *unresolved);

/// The unknown a call to a device function of the file names: one that survived inlining (recursion,
/// __noinline__), whose work and traffic are its body's.
std::string uninlinedCallReason(const llvm::Function &callee);

/// Arithmetic of an inline-asm call that runs in some lanes of each warp only: `lanes` of the 32 · `trips`
/// lanes of a warp over the trips its shuffle's operands take (one trip for constants), FLOPs per thread
/// that runs it.
struct LaneGatedFlops {
  int64_t lanes = 0, trips = 1;
  Flops flops{};
};

/// The arithmetic of an inline-asm call predicated on whether a shuffle found its source lane (CUB's warp
/// reductions and scans), which flopsOf leaves out. `valuesOf` gives the values an operand of the call takes
/// (valuesOverTrips); `unresolved` names a shuffle whose offset or clamp it cannot tell.
std::vector<LaneGatedFlops>
laneGatedFlopsOf(const llvm::Instruction &inst,
                 const std::function<std::vector<int64_t>(const llvm::Value *)> &valuesOf, std::string *unresolved);

/// The name of the special operation `inst` is, for an instruction flopsOf puts in `special`: the math
/// library function without its prefix (expf, sincos, fast_expf), the IR operation and type (fdiv.f32,
/// sqrt.f64, nvvm rsqrt.approx.f), or "inline assembly". What Nsight Compute's FLOPs hold of each depends
/// on how the compiler expands it.
std::string specialOperation(const llvm::Instruction &inst);

/// The A/B input type of the tensor-core MMAs `inst` runs, for an instruction flopsOf counts `tensor` FLOPs of,
/// named as the measured side names it (mmaSourceType: "bf16", "tf32", ...). Empty where it cannot tell;
/// `untyped` then names the MMA (its intrinsic, or its PTX mnemonic).
std::string tensorSourceType(const llvm::Instruction &inst, std::string *untyped);

/// How a function of CUDA's math library (libdevice's `__nv_*`, without the prefix) counts: `special`, the
/// FLOPs of an arithmetic function (fmaf = 2, fadd_rn = 1), none (a conversion, comparison, rounding or bit
/// operation), or not a function it knows.
enum class MathKind { Special, Arithmetic, NoFlops, Unknown };
MathKind classifyMathFunction(const std::string &name, int *arithmeticFlops = nullptr);

} // namespace roofcheck::lint
