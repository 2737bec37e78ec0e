#include "TensorFlops.h"

#include <gtest/gtest.h>

using namespace roofcheck::runtime;

TEST(TensorFlops, OpsPerSourceTypeFromTotalsOrTheirParts) {
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
  std::map<std::string, double> flops = tensorFlops(metrics);
  EXPECT_TRUE(flops.count("fp16"));
  EXPECT_TRUE(flops.count("bf16"));
  EXPECT_FALSE(flops.count("fp8"));
  EXPECT_TRUE(tensorOps({{"dram__bytes_read.sum", 1}}).empty());
}
