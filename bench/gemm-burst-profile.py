#!/usr/bin/env python3
"""How a run of large matrix products slows down from idle: after IDLE seconds without work, LAUNCHES
torch.matmul calls (DTYPE, 8192^3) each timed between CUDA events; prints the median rate of each block of
20 launches, so the burst a short run reaches and the rate a long run sustains at the power cap can be set
side by side. The tensor probe's burst plan (roofcheck-probe, BurstPlan) rests on this shape.

usage: gemm-burst-profile.py [DTYPE=bf16] [LAUNCHES=300] [IDLE=1.0]
"""
import statistics
import sys
import time

import torch


def main():
    dtype = sys.argv[1] if len(sys.argv) > 1 else "bf16"
    launches = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    idle = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    size = 8192
    torch_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[dtype]
    a = torch.randn(size, size, device="cuda", dtype=torch_dtype)
    b = torch.randn(size, size, device="cuda", dtype=torch_dtype)
    a @ b
    torch.cuda.synchronize()
    time.sleep(idle)
    marks = [torch.cuda.Event(enable_timing=True) for _ in range(launches + 1)]
    marks[0].record()
    for i in range(launches):
        a @ b
        marks[i + 1].record()
    torch.cuda.synchronize()
    rates = [2 * size ** 3 / (marks[i].elapsed_time(marks[i + 1]) * 1e-3) for i in range(launches)]
    print("%s %d^3 after %.1f s idle: median TFLOP/s of each block of 20 launches" % (dtype, size, idle))
    for start in range(0, launches - 19, 20):
        print("  launches %3d-%3d: %.0f" % (start, start + 19, statistics.median(rates[start:start + 20]) / 1e12))


if __name__ == "__main__":
    main()
