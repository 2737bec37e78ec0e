"""Sums the tensor-pipe ops and FLOPs of roofcheck-measured-dump's launch lines per NVTX range (tensor_gemm.cu
names each range after its GEMM: fp16, fp16acc, bf16, tf32, fp64, int8) and compares the FLOPs of the range's source
type with the GEMM's known 2mnk. One line a range: the ratio, and the raw ops with the FLOPs per op they imply
(what core/src/MeasuredFlops.cpp is calibrated with).
usage: tensor-flops.py DUMP M N K"""
import re
import sys
from collections import defaultdict


def per_type(text):
    return {} if text == "-" else {name: float(value) for name, value in (item.split(":") for item in text.split(","))}


m, n, k = (int(v) for v in sys.argv[2:5])
known = 2 * m * n * k
launches = defaultdict(int)
ops = defaultdict(lambda: defaultdict(float))
flops = defaultdict(float)
for line in open(sys.argv[1]):
    found = re.search(r" nvtx=(\S+) .* tensor_ops=(\S+) tensor_flops=(\S+)", line)
    if not line.startswith("launch ") or not found:
        continue
    gemm = found.group(1)
    source = gemm.replace("acc", "")  # fp16acc: fp16 inputs, fp16 accumulator
    launches[gemm] += 1
    for name, value in per_type(found.group(2)).items():
        ops[gemm][name] += value
    flops[gemm] += per_type(found.group(3)).get(source, 0.0)
for gemm in sorted(launches):
    ratio = flops[gemm] / known
    raw = ",".join(f"{name}:{value:.0f}" for name, value in sorted(ops[gemm].items())) or "-"
    total_ops = sum(ops[gemm].values())
    per_op = f"{known / total_ops:.4f}" if total_ops else "-"
    print(f"{gemm} launches={launches[gemm]} flops={flops[gemm]:.0f} known={known} ratio={ratio:.4f} "
          f"within1%={'yes' if abs(ratio - 1) <= 0.01 else 'no'} ops={raw} flops_per_op={per_op}")
