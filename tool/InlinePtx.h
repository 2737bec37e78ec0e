// What the PTX text of an inline `asm` statement does that the counting engine must see: the global-memory
// operations (ld, st, atom, red, cp.async, bulk copies), with their width and which asm operand holds the
// address, and the arithmetic (FLOPs per thread execution, tensor-core MMAs included). CUDA headers and real
// kernels write cache-hinted loads (__ldcs), half-precision math and MMAs this way.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class Value;
} // namespace llvm

namespace roofcheck::lint {

/// One PTX instruction that moves data through memory.
struct PtxMemoryOp {
  enum Kind { Load, Store, Atomic };
  Kind kind = Load;
  std::string mnemonic; ///< "ld.global.cs.v4.s32", as written
  /// Where the address is: "global", "generic" (no state space: the pointer decides), or on chip ("shared",
  /// "local", "const", "param").
  std::string space;
  int64_t bytes = 0;        ///< per thread execution; 0 when the size is an operand, not a constant
  int addressOperand = -1;  ///< the asm operand ($N) inside [...]; -1 when the address is not an operand
  int sizeOperand = -1;     ///< a size given as an operand (cp.async.bulk): its $N; -1 otherwise
  bool tensorMap = false;   ///< a TMA copy: the global address is a tensor map, not a pointer
};

/// FLOPs of one execution of the asm by one thread, in DESIGN.md's buckets.
struct PtxFlops {
  double fp64 = 0, fp32 = 0, fp16 = 0, bf16 = 0, tensor = 0, special = 0;
  bool any() const { return fp64 || fp32 || fp16 || bf16 || tensor || special; }
};

/// An instruction operand the engine may need the value of: an asm operand ($N) or a literal.
struct PtxValue {
  int operand = -1;
  std::optional<int64_t> literal;
};

/// Arithmetic predicated on whether a shuffle found its source lane (CUB's warp reductions and scans:
/// `shfl.sync.down.b32 r|p, v, offset, clamp, mask; @p add.f32 ...`): it runs in the lanes lanesWithSource
/// gives for the shuffle's mode, offset and clamp (or in the others, `@!p`).
struct ShuffleGatedFlops {
  PtxFlops flops;
  std::string mode; ///< up, down, bfly, idx
  PtxValue offset, clamp;
  bool negated = false;
};

struct PtxSummary {
  std::vector<PtxMemoryOp> memory;
  PtxFlops flops; ///< what every executing thread does
  std::vector<ShuffleGatedFlops> shuffleGated;
  /// Instructions that compute or move data in a way the engine does not count (sparse MMA, an unknown
  /// shape): named so that the estimate can list them as unknowns.
  std::vector<std::string> unmodelled;
  /// The source type of its MMAs (mmaSourceType); empty where it has none, or where untypedMma is set.
  std::string tensorType;
  /// An MMA whose source type mmaSourceType cannot tell, or that differs from an earlier MMA's in the same text.
  std::string untypedMma;
};

/// The A/B input type of a tensor-core MMA from the dot-separated parts of its name, PTX's
/// (mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32) or an NVVM intrinsic's
/// (llvm.nvvm.mma.m16n8k16.row.col.bf16), named as MeasuredFlops.h names the measured types: "fp16", "bf16",
/// "tf32", "fp64", "fp8", "int8". Empty where it cannot tell, or the type has no such name (4-bit, 1-bit).
std::string mmaSourceType(const std::vector<std::string> &parts);

/// Reads the asm text (LLVM's form: operands as $0, $1, ...; instructions separated by ';' or newlines).
/// Each distinct text is read once; the summary lives as long as the process.
const PtxSummary &readInlinePtx(const std::string &text);

/// How many of a warp's 32 lanes find their source lane in `shfl.sync.MODE` with offset (or lane) `offset`
/// and clamp operand `clamp` (segment mask in bits 8-12, last lane in bits 0-4), as the PTX ISA defines it.
int lanesWithSource(const std::string &mode, int64_t offset, int64_t clamp);

/// The call argument behind operand $N of an inline-asm call: outputs and inputs are numbered together,
/// clobbers are not, and only inputs and indirect outputs are arguments of the call. Null for a direct
/// output, or when `call` is not an asm call.
const llvm::Value *asmOperand(const llvm::CallInst &call, int number);

} // namespace roofcheck::lint
