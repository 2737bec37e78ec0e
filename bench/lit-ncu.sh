#!/usr/bin/env bash
# Nsight Compute's FLOPs for the kernels of lit tests (test/tool/*.cu) at their RUN lines' launches, the
# referee for the counts those tests check: each bench/lit-ncu/NAME.cu includes a test file and launches its
# kernels; it is built with nvcc -O3 -arch=sm_90 and profiled once. Prints, per kernel, the FADD, FMUL and
# FFMA thread instructions (fp32, fp16, fp64), the FLOPs in Nsight Compute's convention (add + mul + 2 fma),
# and the DRAM bytes read and written (ncu flushes the caches before each kernel: what a cold launch moves).
#
# usage: bench/lit-ncu.sh OUT_DIR [NAME...]   (default: every bench/lit-ncu/*.cu); on a GPU machine with ncu
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 1 ]] || { echo "usage: lit-ncu.sh OUT_DIR [NAME...]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for f in "$root"/bench/lit-ncu/*.cu; do names+=("$(basename "$f" .cu)"); done
fi
metrics=""
for p in f h d; do
  for op in add mul fma; do metrics+=${metrics:+,}smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum; done
done
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
for name in "${names[@]}"; do
  nvcc -O3 -arch=sm_90 -o "$out/$name" "$root/bench/lit-ncu/$name.cu"
  ncu --clock-control none --print-units base --metrics "$metrics" --csv "$out/$name" > "$out/$name.csv"
  python3 - "$out/$name.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
header, rows = rows[0], rows[1:]
col = {h: i for i, h in enumerate(header)}
flops = {}
for r in rows:
    kernel = r[col["Kernel Name"]].split("(")[0]
    metric, value = r[col["Metric Name"]], float(r[col["Metric Value"]].replace(",", ""))
    key = (r[col["ID"]], kernel)
    v = flops.setdefault(key, {"flops": 0})
    if metric.startswith("dram__bytes"):
        v[metric.split("_")[3].split(".")[0]] = value
        continue
    weight = 2 if metric.endswith("fma_pred_on.sum") else 1
    v[metric.split("_op_")[1].split("_pred")[0]] = value
    v["flops"] += weight * value
for (launch, kernel), v in flops.items():
    detail = " ".join("%s=%d" % (k, v[k]) for k in sorted(v) if k not in ("flops", "read", "write") and v[k])
    print("%-40s flops %d  (%s)  dram read %d write %d" % (kernel, v["flops"], detail, v.get("read", 0), v.get("write", 0)))
PY
done
