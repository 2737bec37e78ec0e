"""Writes a roofcheck.measured/2 file of LAUNCHES launches for the report's scale benchmark
(bench/report-scale.sh): 40 kernels with template names of about 100 characters launched in turn, three
scalar arguments each, one launch in 300 profiled with the default counters, as a long training loop
recorded by `roofcheck run` looks.

usage: report-scale.py LAUNCHES OUT.jsonl
"""
import json
import sys

launches, path = int(sys.argv[1]), sys.argv[2]
header = {"schema": "roofcheck.measured/2", "record": "header", "pid": 11, "rank": None, "program": ["python3", "train.py"],
          "started": "2026-12-02T00:00:00Z", "roofcheck_version": "0.1.0", "driver_version": "580.159.04",
          "cuda_version": "13.0", "cupti_version": 26,
          "devices": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-aaaa", "compute_capability": "9.0",
                       "multiprocessors": 132, "l2_bytes": 62914560, "memory_bytes": 150754820096}],
          "clocks": {"sm_mhz": 1980, "memory_mhz": 3201}, "replay_passes": 1, "options": {"metrics": "default"}}
metrics = {"dram__bytes_read.sum": 8.4e6, "dram__bytes_write.sum": 4.2e6, "lts__t_bytes.sum": 2.1e7,
           "gpu__time_duration.sum": 5200, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 2.1e6,
           "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 1.0e6,
           "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 5.0e5}
kernels = []
for k in range(40):
    name = (f"void at::native::vectorized_elementwise_kernel<4, at::native::Functor{k}<float>, "
            f"std::array<char*, {k % 3 + 2}ul> >(int, at::native::Functor{k}<float>, std::array<char*, {k % 3 + 2}ul>)")
    kernels.append((name, f"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_9Functor{k}IfEE"))
with open(path, "w", buffering=1 << 22) as out:
    out.write(json.dumps(header, separators=(",", ":")) + "\n")
    for k, (name, mangled) in enumerate(kernels):
        kernel = {"record": "kernel", "id": k, "name": name, "mangled": mangled, "registers": 32,
                  "shared_static": 0, "params": [[0, 4]]}
        out.write(json.dumps(kernel, separators=(",", ":")) + "\n")
    for i in range(launches):
        profiled = i % 300 == 0
        record = {"record": "launch", "index": i, "kernel": i % 40, "device": 0, "context": 1, "stream": 7,
                  "grid": [4096, 1, 1], "block": [128, 1, 1], "args": [268435456], "duration_ns": 5000 + i % 400}
        if profiled:
            record["profiled"] = True
            record["metrics"] = metrics
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
