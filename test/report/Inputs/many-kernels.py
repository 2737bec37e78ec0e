"""Writes a roofcheck.measured/1 file of COUNT kernels with long template names, as a large real program
makes (two launches each, the second profiled), for the report's scale tests.

usage: many-kernels.py COUNT OUT.jsonl
"""
import json
import sys

count, path = int(sys.argv[1]), sys.argv[2]
header = {"schema": "roofcheck.measured/1", "record": "header", "pid": 7, "rank": None, "program": ["./many"],
          "started": "2026-12-02T00:00:00Z", "roofcheck_version": "0.1.0", "driver_version": "580.159.04",
          "cuda_version": "13.0", "cupti_version": 26,
          "devices": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-aaaa", "compute_capability": "9.0",
                       "multiprocessors": 132, "l2_bytes": 62914560, "memory_bytes": 150754820096}],
          "clocks": {"sm_mhz": 1980, "memory_mhz": 3201}, "replay_passes": 1, "options": {"metrics": "default"}}
functors = ["AddFunctor", "MulFunctor", "CopyFunctor", "ScaleFunctor", "NormFunctor"]
index = 0
with open(path, "w") as out:
    out.write(json.dumps(header) + "\n")
    for k in range(count):
        functor = functors[k % len(functors)]
        name = (f"void lib::detail::apply_kernel<{k % 7 + 1}, lib::ops::{functor}<float, {k}>, "
                f"std::array<char*, {k % 3 + 2}ul> >(int, lib::ops::{functor}<float, {k}>, std::array<char*, "
                f"{k % 3 + 2}ul>)")
        mangled = f"_ZN3lib6detail12apply_kernelILi{k}EEEviT_"
        # DRAM bytes at 1 to 3 TB/s and intensities from 0.01 to 79, capped below 40 TFLOP/s: under the roofs.
        ns = 2000 + 37 * (k % 101) + k
        dram = ns * (1 + (k % 3)) * 1000
        flops = min(dram * 10 ** ((k % 40) / 10 - 2), ns * 4e4 * (0.2 + (k % 4) / 5))
        for profiled in (False, True):
            record = {"record": "launch", "index": index, "name": name, "mangled": mangled, "device": 0, "context": 1,
                      "stream": 7, "grid": [1024, 1, 1], "block": [256, 1, 1], "cluster": [1, 1, 1],
                      "shared_dynamic": 0, "shared_static": 0, "registers": 32, "args": [], "nvtx": [],
                      "duration_ns": ns, "profiled": profiled, "metrics": {}}
            if profiled:
                record["metrics"] = {"dram__bytes_read.sum": dram * 0.6, "dram__bytes_write.sum": dram * 0.4,
                                     "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": flops / 2,
                                     "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum": 0,
                                     "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum": 0}
            out.write(json.dumps(record) + "\n")
            index += 1
