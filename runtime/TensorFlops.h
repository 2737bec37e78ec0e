// Tensor-core FLOPs of a profiled launch from the tensor-pipe counters the shim collects
// (sm__ops_path_tensor_src_<type>[_dst_<type>].sum), per source type. What one counted op is worth in
// FLOPs was calibrated on cuBLAS GEMMs of known size (2mnk FLOPs) on the H200: test/gpu/runtime/tensor-gemm.test.
#pragma once

#include <map>
#include <string>

namespace roofcheck::runtime {

/// Tensor-pipe ops per source type ("fp16", "bf16", "tf32", "fp64", ...): a type's total counter where the
/// chip has one, else the sum of its per-destination counters.
std::map<std::string, double> tensorOps(const std::map<std::string, double> &metrics);

/// tensorOps() in FLOPs, for the source types whose op was calibrated; the others are left out.
std::map<std::string, double> tensorFlops(const std::map<std::string, double> &metrics);

} // namespace roofcheck::runtime
