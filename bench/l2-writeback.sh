#!/usr/bin/env bash
# bench/l2-writeback.cu under ncu (--cache-control none, one pass: L2 as the previous kernel left it) and under
# roofcheck's sampled traffic (every 10 us, and again with CUDA_LAUNCH_BLOCKING=1), its 20 launches side by
# side: the DRAM bytes each one read and wrote. 32 MiB moved by each launch; sum writes nothing itself.
# usage: bench/l2-writeback.sh BUILD_DIR OUT_DIR   (needs a GPU, nvcc and ncu)
set -euo pipefail
if [ $# -ne 2 ] || [ ! -x "$1/bin/roofcheck-run" ]; then
  echo "usage: l2-writeback.sh BUILD_DIR OUT_DIR (BUILD_DIR holding bin/roofcheck-run)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
nvcc -O2 -arch=native -o "$out/l2-writeback" "$here/l2-writeback.cu"
ncu --clock-control none --cache-control none --csv --print-units base \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum --log-file "$out/ncu.csv" "$out/l2-writeback" >"$out/ncu.stdout"
for mode in free blocking; do
  mkdir -p "$out/$mode"
  blocking=$([ $mode = blocking ] && echo 1 || echo 0)
  CUDA_LAUNCH_BLOCKING=$blocking "$build/bin/roofcheck-run" --metrics time \
    --sampled-traffic 10 --output-dir "$out/$mode" -- "$out/l2-writeback" >"$out/$mode/stdout" 2>"$out/$mode/stderr"
done
(cd "$here" && python3 - "$out" <<'PY'
import csv, glob, sys
import measured
out = sys.argv[1]
ncu = {}
with open(f"{out}/ncu.csv") as f:
    for row in csv.DictReader(l for l in f if l.startswith('"')):
        ncu.setdefault(int(row["ID"]), {"kernel": row["Kernel Name"]})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
ours = {mode: sorted(measured.launches(glob.glob(f"{out}/{mode}/*.measured.jsonl")[0]), key=lambda l: l["index"])
        for mode in ("free", "blocking")}
MB = 1 << 20
print("launch kernel  idle after | ncu read write | sampled read write (kernels back to back) | "
      "sampled read write (CUDA_LAUNCH_BLOCKING=1), MiB")
for i, key in enumerate(sorted(ncu)):
    n = ncu[key]
    kernel = n["kernel"].split("(")[0]
    row = [f"{i:2} {kernel:6} {'2 ms' if i >= 10 or kernel == 'sum' else 'none':10}",
           f"{n['dram__bytes_read.sum'] / MB:7.2f} {n['dram__bytes_write.sum'] / MB:7.2f}"]
    for mode in ("free", "blocking"):
        launch = ours[mode][i] if i < len(ours[mode]) else {}
        s = launch.get("sampled", {})
        row.append(f"{s.get('dram__bytes_read.sum', 0) / MB:7.2f} {s.get('dram__bytes_write.sum', 0) / MB:7.2f}"
                   f"{' (shared)' if launch.get('sampled_shared') else ''}")
    print(" | ".join(row))
PY
)
for f in "$out/ncu.stdout" "$out"/*/stdout; do echo "$(basename "$(dirname "$f")")/$(basename "$f"): $(tail -1 "$f")"; done
