// The inline-PTX reader on the asm texts that CUDA's headers and real kernels write (LLVM's $N operands).
#include "FlopClassifier.h"
#include "InlinePtx.h"

#include <gtest/gtest.h>

#include <sstream>

namespace roofcheck::lint {
namespace {

TEST(InlinePtx, CacheHintedVectorLoadIsSixteenGlobalBytes) {
  PtxSummary s = readInlinePtx("ld.global.cs.v4.s32 {$0, $1, $2, $3}, [$4];");
  ASSERT_EQ(s.memory.size(), 1u);
  EXPECT_EQ(s.memory[0].kind, PtxMemoryOp::Load);
  EXPECT_EQ(s.memory[0].space, "global");
  EXPECT_EQ(s.memory[0].bytes, 16);
  EXPECT_EQ(s.memory[0].addressOperand, 4);
  EXPECT_FALSE(s.flops.any());
}

TEST(InlinePtx, StoreTakesItsAddressFromTheFirstOperand) {
  PtxSummary s = readInlinePtx("st.global.wt.v2.f32 [$0], {$1,$2};");
  ASSERT_EQ(s.memory.size(), 1u);
  EXPECT_EQ(s.memory[0].kind, PtxMemoryOp::Store);
  EXPECT_EQ(s.memory[0].bytes, 8);
  EXPECT_EQ(s.memory[0].addressOperand, 0);
}

TEST(InlinePtx, StateSpacesAndGenericAddresses) {
  EXPECT_EQ(readInlinePtx("ld.shared.b32 $0, [$1];").memory.at(0).space, "shared");
  EXPECT_EQ(readInlinePtx("ld.f32 $0, [$1+4];").memory.at(0).space, "generic");
  EXPECT_EQ(readInlinePtx("ld.relaxed.gpu.global.L1::no_allocate.b64 $0, [$1];").memory.at(0).bytes, 8);
  PtxSummary red = readInlinePtx("@$2 red.global.add.f32 [$0], $1;");
  ASSERT_EQ(red.memory.size(), 1u);
  EXPECT_EQ(red.memory[0].kind, PtxMemoryOp::Atomic);
  EXPECT_EQ(red.memory[0].bytes, 4);
}

TEST(InlinePtx, AsyncCopiesReadGlobalMemory) {
  PtxSummary s = readInlinePtx("cp.async.cg.shared.global [$0], [$1], 16;\ncp.async.commit_group;");
  ASSERT_EQ(s.memory.size(), 1u);
  EXPECT_EQ(s.memory[0].kind, PtxMemoryOp::Load);
  EXPECT_EQ(s.memory[0].addressOperand, 1);
  EXPECT_EQ(s.memory[0].bytes, 16);
  PtxSummary bulk = readInlinePtx(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];");
  ASSERT_EQ(bulk.memory.size(), 1u);
  EXPECT_EQ(bulk.memory[0].bytes, 0);
  EXPECT_EQ(bulk.memory[0].sizeOperand, 2);
  PtxSummary out = readInlinePtx("cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], 4096;");
  ASSERT_EQ(out.memory.size(), 1u);
  EXPECT_EQ(out.memory[0].kind, PtxMemoryOp::Store);
  EXPECT_EQ(out.memory[0].bytes, 4096);
  PtxSummary tma = readInlinePtx(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];");
  ASSERT_EQ(tma.memory.size(), 1u);
  EXPECT_TRUE(tma.memory[0].tensorMap);
}

TEST(InlinePtx, ArithmeticPerLaneAndSpecialFunctions) {
  PtxSummary s = readInlinePtx("{ .reg .f16 t;\n fma.rn.f16x2 $0, $1, $2, $3; // two lanes\n add.f32 $4, $5, $6;\n"
                               " ex2.approx.ftz.f32 $7, $8; }");
  EXPECT_EQ(s.flops.fp16, 4);
  EXPECT_EQ(s.flops.fp32, 1);
  EXPECT_EQ(s.flops.special, 1);
  EXPECT_TRUE(s.memory.empty());
  EXPECT_FALSE(readInlinePtx("add.s32 $0, $1, $2;").flops.any());
}

TEST(InlinePtx, TensorCoreFlopsAreSharedByTheIssuingThreads) {
  // 2*16*8*16 FLOPs per warp instruction, 32 threads.
  EXPECT_EQ(readInlinePtx("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, "
                          "{$8,$9}, {$10,$11,$12,$13};")
                .flops.tensor,
            128);
  // 2*64*128*16 per warpgroup of 128 threads.
  EXPECT_EQ(readInlinePtx("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0}, $1, $2, p, 1, 1, 1, 1;")
                .flops.tensor,
            2048);
  PtxSummary sparse = readInlinePtx("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {$0}, {$1}, {$2}, {$3}, $4, 0x0;");
  EXPECT_EQ(sparse.flops.tensor, 0);
  ASSERT_EQ(sparse.unmodelled.size(), 1u);
}

TEST(InlinePtx, AnMmasSourceTypeIsItsInputType) {
  auto typeOf = [](const std::string &name) {
    std::vector<std::string> parts;
    std::stringstream in(name);
    for (std::string part; std::getline(in, part, '.');)
      parts.push_back(part);
    return mmaSourceType(parts);
  };
  // PTX spells D, A, B (and C) types; the accumulators do not decide.
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"), "bf16");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), "fp16");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"), "fp16");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), "tf32");
  EXPECT_EQ(typeOf("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"), "fp64");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16"), "fp8");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32"), "int8");
  EXPECT_EQ(typeOf("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"), "bf16");
  EXPECT_EQ(typeOf("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3"), "fp8");
  // NVVM names an MMA of half inputs by its accumulators (IntrinsicsNVVM.td, MMA_SIGNATURE), the others by A.
  EXPECT_EQ(typeOf("llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32"), "fp16");
  EXPECT_EQ(typeOf("llvm.nvvm.mma.m16n8k16.row.col.bf16"), "bf16");
  EXPECT_EQ(typeOf("llvm.nvvm.wmma.m16n16k8.mma.row.col.tf32"), "tf32");
  EXPECT_EQ(typeOf("llvm.nvvm.wmma.m8n8k4.mma.row.col.rn.f64"), "fp64");
  EXPECT_EQ(typeOf("llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8.u8"), "int8");
  EXPECT_EQ(typeOf("llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e5m2.f32"), "fp8");
  // Types the measured side has no name for, a mix of kinds, and no type at all.
  EXPECT_EQ(typeOf("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32"), "");
  EXPECT_EQ(typeOf("llvm.nvvm.wmma.m8n8k128.mma.xor.popc.row.row.b1"), "");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e4m3.f32"), "");
  EXPECT_EQ(typeOf("mma.sync.aligned.m16n8k16.row.col"), "");
}

TEST(InlinePtx, AnAsmTextsMmasShareOneSourceTypeOrNameTheOneThatDiffers) {
  PtxSummary bf16 = readInlinePtx("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, "
                                  "{$4,$5,$6,$7}, {$8,$9}, {$0,$1,$2,$3};");
  EXPECT_EQ(bf16.tensorType, "bf16");
  EXPECT_EQ(bf16.untypedMma, "");
  PtxSummary mixed = readInlinePtx("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0}, {$1}, {$2}, {$0};\n"
                                   "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {$0}, {$1}, {$2}, {$0};");
  EXPECT_EQ(mixed.tensorType, "");
  EXPECT_EQ(mixed.untypedMma, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
  EXPECT_EQ(mixed.flops.tensor, 128 + 64);
  EXPECT_EQ(readInlinePtx("add.f32 $0, $1, $2;").tensorType, "");
}

TEST(InlinePtx, ArithmeticUnderAShufflePredicateIsKeptApart) {
  // A warp reduction step in the form CUB writes: the add runs only where the shuffle found a source lane.
  PtxSummary s = readInlinePtx("{ .reg .f32 r0; .reg .pred p;\n shfl.sync.down.b32 r0|p, $1, $2, $3, $4;\n"
                               " @p add.f32 r0, r0, $1;\n mov.f32 $0, r0; }");
  EXPECT_FALSE(s.flops.any());
  ASSERT_EQ(s.shuffleGated.size(), 1u);
  const ShuffleGatedFlops &gated = s.shuffleGated[0];
  EXPECT_EQ(gated.flops.fp32, 1);
  EXPECT_EQ(gated.mode, "down");
  EXPECT_EQ(gated.offset.operand, 2);
  EXPECT_EQ(gated.clamp.operand, 3);
  EXPECT_FALSE(gated.negated);
  // Literal operands, the other predicate sense, and a predicate no shuffle sets (counted in every lane).
  PtxSummary literal = readInlinePtx("shfl.sync.up.b32 $0|q, $1, 4, 0, -1; @!q mul.f64 $2, $3, $4; @r add.f32 $5, $6, $7;");
  ASSERT_EQ(literal.shuffleGated.size(), 1u);
  EXPECT_EQ(literal.shuffleGated[0].offset.literal, 4);
  EXPECT_EQ(literal.shuffleGated[0].clamp.literal, 0);
  EXPECT_TRUE(literal.shuffleGated[0].negated);
  EXPECT_EQ(literal.shuffleGated[0].flops.fp64, 1);
  EXPECT_EQ(literal.flops.fp32, 1);
}

TEST(InlinePtx, LanesWhereAShuffleFindsItsSource) {
  // A whole warp (clamp 31): down by c leaves 32 - c lanes; up by c (clamp 0) leaves 32 - c.
  EXPECT_EQ(lanesWithSource("down", 16, 31), 16);
  EXPECT_EQ(lanesWithSource("down", 1, 31), 31);
  EXPECT_EQ(lanesWithSource("up", 4, 0), 28);
  EXPECT_EQ(lanesWithSource("bfly", 8, 31), 32);
  // Logical warps of 8 lanes (segment mask 0x18 in bits 8-12, last lane 7): down by 2 leaves 6 of each 8.
  EXPECT_EQ(lanesWithSource("down", 2, (24 << 8) | 7), 24);
  EXPECT_EQ(lanesWithSource("idx", 3, 31), 32);
  EXPECT_EQ(lanesWithSource("idx", 3, 2), 0);
}

TEST(MathLibrary, FunctionsWithATwoInTheirNameAreNotConversions) {
  for (const char *name : {"exp2f", "log2f", "atan2f", "exp2", "log2", "atan2", "fast_log2f"})
    EXPECT_EQ(classifyMathFunction(name), MathKind::Special) << name;
  for (const char *name : {"float2int_rn", "double2float_rz", "ll2float_rn", "hiloint2double", "float_as_int",
                           "int_as_float", "half2float", "float2half_rn", "longlong_as_double"})
    EXPECT_EQ(classifyMathFunction(name), MathKind::NoFlops) << name;
}

TEST(MathLibrary, ArithmeticFormsCountTheirFlops) {
  int flops = 0;
  EXPECT_EQ(classifyMathFunction("fmaf_rn", &flops), MathKind::Arithmetic);
  EXPECT_EQ(flops, 2);
  EXPECT_EQ(classifyMathFunction("dadd_rz", &flops), MathKind::Arithmetic);
  EXPECT_EQ(flops, 1);
  EXPECT_EQ(classifyMathFunction("fdiv_rn"), MathKind::Special);
  EXPECT_EQ(classifyMathFunction("expf"), MathKind::Special);
  EXPECT_EQ(classifyMathFunction("fast_fdividef"), MathKind::Special);
  EXPECT_EQ(classifyMathFunction("fminf"), MathKind::NoFlops);
  EXPECT_EQ(classifyMathFunction("a_function_libdevice_lacks"), MathKind::Unknown);
}

} // namespace
} // namespace roofcheck::lint
