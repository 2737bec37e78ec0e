#include "roofcheck/MeasuredFlops.h"

#include "roofcheck/Metrics.h"

#include <gtest/gtest.h>

using namespace roofcheck;

namespace {

// A sample's FLOP counters: every precision's add, mul and fma, each `count`.
std::map<std::string, double> fmaPipes(double count) {
  std::map<std::string, double> metrics;
  for (const char *op : {"dadd", "dmul", "dfma", "fadd", "fmul", "ffma", "hadd", "hmul", "hfma"})
    metrics[metrics::sassInstructions(op)] = count;
  return metrics;
}

} // namespace

TEST(MeasuredFlops, TensorOpsPerSourceTypeFromTotalsOrTheirParts) {
  std::map<std::string, double> metrics = {
      {"sm__ops_path_tensor_src_fp16_dst_fp16.sum", 100},
      {"sm__ops_path_tensor_src_fp16_dst_fp32.sum", 20},
      {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 7},
      {"sm__ops_path_tensor_src_tf32.sum", 5},
      {"sm__ops_path_tensor_src_tf32_dst_fp32.sum", 4}, // a part of the total above: not added again
      {"sm__ops_path_tensor_src_int8_sparsity_on.sum", 9},
      {"sm__ops_path_tensor_src_fp8.sum", 3},
      {"dram__bytes_read.sum", 1e9},
  };
  std::map<std::string, double> ops = tensorOps(metrics);
  EXPECT_EQ(ops, (std::map<std::string, double>{{"bf16", 7}, {"fp16", 120}, {"fp8", 3}, {"tf32", 5}}));
  // Only calibrated types become FLOPs.
  EXPECT_EQ(tensorFlops(metrics), (std::map<std::string, double>{{"bf16", 7}, {"fp16", 120}, {"tf32", 5}}));
  EXPECT_TRUE(tensorOps({{"dram__bytes_read.sum", 1}}).empty());
}

TEST(MeasuredFlops, TheTensorPipesFlopsAreInTheTotal) {
  std::map<std::string, double> metrics = fmaPipes(10); // 40 FLOPs a precision
  metrics["sm__ops_path_tensor_src_fp16.sum"] = 1000;
  metrics["sm__ops_path_tensor_src_tf32_dst_fp32.sum"] = 24;
  metrics["sm__ops_path_tensor_src_int8.sum"] = 76; // calibrated: one op a unit of 2mnk, as fp16's
  metrics["sm__ops_path_tensor_src_int1.sum"] = 77; // uncalibrated integer ops: left out, nothing unknown
  metrics["sm__ops_path_tensor_src_fp8.sum"] = 0;
  MeasuredFlops flops = measuredFlops(metrics);
  EXPECT_EQ(flops.fp32, 40.0);
  EXPECT_EQ(flops.tensor, 1100.0);
  EXPECT_EQ(flops.tensorByType.at("int8"), 76.0);
  EXPECT_FALSE(flops.tensorUncounted);
  EXPECT_EQ(flops.total(), 3 * 40.0 + 1100.0);
}

TEST(MeasuredFlops, AnUncalibratedFloatTypeLeavesTheTotalUnknown) {
  std::map<std::string, double> metrics = fmaPipes(10);
  metrics["sm__ops_path_tensor_src_fp16.sum"] = 1000;
  metrics["sm__ops_path_tensor_src_fp8.sum"] = 5;
  MeasuredFlops flops = measuredFlops(metrics);
  EXPECT_TRUE(flops.tensorUncounted);
  EXPECT_EQ(flops.tensor, std::nullopt);
  EXPECT_EQ(flops.fp32, 40.0) << "the FMA pipes' counts stand";
  EXPECT_EQ(flops.total(), std::nullopt) << "the FMA pipes' part would pass for the whole";
}

TEST(MeasuredFlops, ABaseSetSampleTellsTensorMathFromRegisterMoves) {
  // The base set has the tensor pipe's instruction counts and not its ops.
  std::map<std::string, double> moves = fmaPipes(10);
  moves[metrics::TensorPipeInstructions] = 8192;
  moves[metrics::TensorPipeMoves] = 8192;
  MeasuredFlops elementwise = measuredFlops(moves);
  EXPECT_EQ(elementwise.tensor, 0.0);
  EXPECT_EQ(elementwise.total(), 3 * 40.0);

  std::map<std::string, double> math = fmaPipes(0);
  math[metrics::TensorPipeInstructions] = 262144;
  math[metrics::TensorPipeMoves] = 0;
  MeasuredFlops gemm = measuredFlops(math);
  EXPECT_TRUE(gemm.tensorUncounted);
  EXPECT_EQ(gemm.tensor, std::nullopt);
  EXPECT_EQ(gemm.total(), std::nullopt);
}

TEST(MeasuredFlops, WithoutTensorCountersTheFmaPipesAreTheTotal) {
  // A --metrics list without the tensor counters, or a file from before them: nothing tells tensor math apart.
  MeasuredFlops flops = measuredFlops(fmaPipes(10));
  EXPECT_EQ(flops.tensor, std::nullopt);
  EXPECT_FALSE(flops.tensorUncounted);
  EXPECT_EQ(flops.total(), 3 * 40.0);
  EXPECT_EQ(measuredFlops({{"dram__bytes_read.sum", 1}}).total(), std::nullopt) << "a traffic sample counts none";
  MeasuredFlops tensorOnly = measuredFlops({{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 64}});
  EXPECT_EQ(tensorOnly.total(), 64.0);
  EXPECT_TRUE(tensorOnly.uncounted().empty()) << "no FMA-pipe counter at all: none is missing in part";
}
