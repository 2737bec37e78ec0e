#!/usr/bin/env bash
# A PyTorch program (bench/runtime-pytorch.py: cuBLAS GEMMs and elementwise kernels) under `roofcheck run`,
# with --metrics time and with the default metrics: its printed results must be byte-identical with and
# without the shim, and the measured file must hold the cuBLAS and the elementwise kernels, with counters
# (default sampling) and tensor-pipe ops for the GEMM. A run that does not finish in PYTORCH_TIMEOUT_S
# (default 120) is run again through bench/runtime-hang.sh (for PYTORCH_TRACE_S, default 60), which shows
# where it stands: its threads, the GPU, the end of the shim's trace.
# usage: bench/runtime-pytorch.sh BUILD_DIR [OUT_DIR]   (needs a GPU and python3 with torch)
set -uo pipefail
build=$(cd "${1:?usage: runtime-pytorch.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out"
program=(python3 "$here/runtime-pytorch.py")
"${program[@]}" >"$out/native.stdout"
for metrics in time default; do
  dir=$out/$metrics
  mkdir -p "$dir"
  echo "== --metrics $metrics"
  timeout "${PYTORCH_TIMEOUT_S:-120}" "$build/bin/roofcheck-run" --metrics "$metrics" --output-dir "$dir" \
    -- "${program[@]}" >"$dir/shim.stdout" 2>"$dir/shim.stderr"
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "did not finish (exit $status): $(tail -1 "$dir/shim.stderr"); a second run, traced:"
    mkdir -p "$dir/traced"
    "$here/runtime-hang.sh" "${PYTORCH_TRACE_S:-60}" "$dir/traced/run" "$build/bin/roofcheck-run" --metrics "$metrics" \
      --output-dir "$dir/traced" -- "${program[@]}"
    continue
  fi
  tail -1 "$dir/shim.stderr"
  if cmp -s "$out/native.stdout" "$dir/shim.stdout"; then
    echo "printed results: byte-identical with and without the shim ($(wc -l <"$out/native.stdout") lines)"
  else
    echo "printed results: DIFFER with the shim"; diff "$out/native.stdout" "$dir/shim.stdout"
  fi
  ROOFCHECK_BENCH="$(dirname "$0")" python3 - "$metrics" "$dir"/roofcheck.*.measured.jsonl <<'PY'
import os, sys
from collections import defaultdict
sys.path.insert(0, os.environ["ROOFCHECK_BENCH"])
import measured
kernels = defaultdict(lambda: {"launches": 0, "profiled": 0, "dram": 0.0, "tensor": 0.0, "fp32": 0.0})
for path in sys.argv[2:]:
    for r in measured.launches(path):
        k = kernels[r["name"].split("(")[0][:70]]
        k["launches"] += 1
        m = r.get("metrics", {})
        if r.get("profiled"):
            k["profiled"] += 1
            k["dram"] += m.get("dram__bytes_read.sum", 0) + m.get("dram__bytes_write.sum", 0)
            k["tensor"] += sum(v for n, v in m.items() if n.startswith("sm__ops_path_tensor_src_"))
            k["fp32"] += sum(m.get(f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum", 0) * w
                             for op, w in (("fadd", 1), ("fmul", 1), ("ffma", 2)))
print(f"{'kernel':<72} {'launches':>8} {'profiled':>8} {'DRAM bytes':>14} {'tensor ops':>14} {'fp32 FLOPs':>14}")
for name, k in sorted(kernels.items(), key=lambda kv: -kv[1]["launches"]):
    print(f"{name:<72} {k['launches']:>8} {k['profiled']:>8} {k['dram']:>14.0f} {k['tensor']:>14.0f} {k['fp32']:>14.0f}")
blas = ("gemm", "xmma", "cutlass", "nvjet")  # cuBLAS kernel name families
gemm = [n for n, k in kernels.items() if k["profiled"] and k["tensor"] > 0 and any(b in n.lower() for b in blas)]
elementwise = [n for n, k in kernels.items() if k["profiled"] and k["dram"] > 0 and "elementwise" in n.lower()]
print(f"cuBLAS kernels with counters and tensor ops: {len(gemm)}; elementwise kernels with counters: {len(elementwise)}")
if sys.argv[1] == "time":
    timed = [n for n, k in kernels.items() if k["launches"]]
    print("verdict:", "ok" if any(any(b in n.lower() for b in blas) for n in timed) and
          any("elementwise" in n.lower() for n in timed) else "MISSING")
else:
    print("verdict:", "ok" if gemm and elementwise else "MISSING")
PY
done
