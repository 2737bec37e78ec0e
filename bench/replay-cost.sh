#!/usr/bin/env bash
# Where the range profiler's time goes (bench/replay-cost.cu), on a GPU machine: one process per size of
# device memory held and per way of using two objects, each step timed. "beside" fails and "user-warm"
# crashes by what they show (docs/benchmarks.md); the next process goes on.
# usage: bench/replay-cost.sh OUT_DIR [MB...] (default 0 256 1024 4096 16384)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
sizes=${*:-0 256 1024 4096 16384}
mkdir -p "$out"
nvcc -O2 -arch=sm_90 -o "$out/replay-cost" "$root/bench/replay-cost.cu" -lcupti -lcuda
for mb in $sizes; do
  modes="apart beside warm user-warm"
  [ "$mb" != 256 ] || modes="$modes overlap" # its launches go over the held memory: 0.23 ms each at 256 MB
  for mode in $modes; do
    echo "=="
    "$out/replay-cost" "$mb" "$mode" 3 2>&1 || true
  done
done
