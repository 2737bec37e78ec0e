#!/usr/bin/env bash
# Which of the things the shim does when CUDA starts makes cuBLAS hang: runs tensor_gemm (cublasCreate,
# whose cuBLASLt runtime calls cuInit a second time) under bench/runtime-cuinit-probe.cpp with one of them
# at a time, then all, then under `roofcheck run --metrics time`; each run at most LIMIT_S seconds (default
# 20); LOG_DIR/NAME.log shows a hung one's threads (bench/runtime-hang.sh). Each line: what was on, finished or HUNG.
# usage: bench/runtime-cuinit.sh BUILD_DIR [LOG_DIR]   (needs a GPU and a GPU build: scripts/gpu-build.sh)
set -uo pipefail
build=$(cd "${1:?usage: runtime-cuinit.sh BUILD_DIR [LOG_DIR]}" && pwd)
logs=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
limit=${LIMIT_S:-20}
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$logs"
probe=$logs/libcuinit-probe.so
g++ -std=c++17 -O1 -shared -fPIC -o "$probe" "$here/runtime-cuinit-probe.cpp" -I"$cuda/include" \
  -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcupti -lcuda -ldl -Wl,-rpath,"$cuda/lib64" ||
  { echo "runtime-cuinit: error: cannot build the probe" >&2; exit 2; }
program=("$build/runtime/programs/tensor_gemm" fp16)
cupti=$(ldd "$probe" | awk '/libcupti/ {print $3}')

try() { # try NAME [ENV=VALUE...]: tensor_gemm with the probe under those variables
  local name=$1
  shift
  printf '%-40s ' "$name"
  env "$@" "$here/runtime-hang.sh" "$limit" "$logs/$name" "${program[@]}" >"$logs/$name.log"
  head -1 "$logs/$name.log"
}
printf '%-40s ' "no injection"
"$here/runtime-hang.sh" "$limit" "$logs/native" "${program[@]}" >"$logs/native.log"
head -1 "$logs/native.log"
for feature in subscribe launch-callbacks nvtx-callbacks context-callback context-query context-thread activity \
  flush-period nvml-thread; do
  try "$feature" CUDA_INJECTION64_PATH="$probe" CUINIT_PROBE="$feature"
done
all=subscribe,launch-callbacks,nvtx-callbacks,context-query,context-thread,flush-period,nvml-thread
try all CUDA_INJECTION64_PATH="$probe" CUINIT_PROBE="$all"
try all+nvtx-injection CUDA_INJECTION64_PATH="$probe" CUINIT_PROBE="$all" NVTX_INJECTION64_PATH="$cupti"
printf '%-40s ' "roofcheck run --metrics time"
mkdir -p "$logs/roofcheck"
"$here/runtime-hang.sh" "$limit" "$logs/roofcheck/run" "$build/bin/roofcheck-run" --metrics time \
  --output-dir "$logs/roofcheck" -- "${program[@]}" >"$logs/roofcheck.log"
head -1 "$logs/roofcheck.log"
echo "logs: $logs"
