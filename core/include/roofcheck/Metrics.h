// The Nsight Compute metric names roofcheck records and reads, named once: the shim's counter sets, the
// measured file's "metrics" keys, the report's and the audit's quantities all come from here.
#pragma once

#include <string>
#include <string_view>

namespace roofcheck::metrics {

inline constexpr const char *Duration = "gpu__time_duration.sum";
inline constexpr const char *DramRead = "dram__bytes_read.sum";
inline constexpr const char *DramWrite = "dram__bytes_write.sum";
inline constexpr const char *L2Bytes = "lts__t_bytes.sum";
/// Local-memory traffic (register spills), recorded when `roofcheck run --metrics` names both.
inline constexpr const char *LocalLoadBytes = "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum";
inline constexpr const char *LocalStoreBytes = "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum";
/// Tensor-pipe ops by source type: sm__ops_path_tensor_src_<type>[_dst_<type>].sum.
inline constexpr std::string_view TensorOpsPrefix = "sm__ops_path_tensor_src_";
/// Instructions the tensor pipe executed, and those of them that were HFMA2.MMA, with which ptxas moves
/// registers and constants: tensor math is the difference.
inline constexpr const char *TensorPipeInstructions = "sm__inst_executed_pipe_tensor.sum";
inline constexpr const char *TensorPipeMoves = "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum";

/// Thread-level SASS instructions of one FLOP opcode ("fadd", "dfma", "hmul", ...), predicated on.
inline std::string sassInstructions(std::string_view op) {
  return "smsp__sass_thread_inst_executed_op_" + std::string(op) + "_pred_on.sum";
}

} // namespace roofcheck::metrics
