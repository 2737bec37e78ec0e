#!/usr/bin/env bash
# End to end on a GPU machine without LLVM 22: static files linted elsewhere (scripts/main-job.sh writes
# them to build/main-job/static), then probe -> run -> report here, plus the GPU test suites.
# usage: bench/e2e-h200.sh STATIC_DIR OUT_DIR      (build-gpu is built by scripts/gpu-build.sh)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
static=$1
out=$2
build=$root/build-gpu
mkdir -p "$out/measured"
"$root/scripts/gpu-build.sh" "$build" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 2; }
export PATH=$root/.gpukit/bin:$PATH LD_LIBRARY_PATH=$root/.gpukit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ctest --test-dir "$build" -E fuzz-smoke --output-on-failure >"$out/ctest.log" 2>&1
grep -E "tests passed|Failed|Skipped" "$out/ctest.log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
roofcheck=$build/bin/roofcheck
"$roofcheck" probe --out "$out/ceilings.json" 2>&1 | tail -20
for program in vector_add matmul transpose softmax; do
  "$roofcheck" run --output-dir "$out/measured" -- "$build/examples/$program" | grep -v "^time:"
done
"$roofcheck" report --static "$static"/*.json --measured "$out"/measured/*.jsonl --ceilings "$out/ceilings.json" \
  --html "$out/report.html" --markdown "$out/report.md" --json "$out/report.json" | tee "$out/report.txt"
tar -czf "$out/measured.tar.gz" -C "$out" measured && rm -rf "$out/measured"
