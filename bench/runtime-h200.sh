#!/usr/bin/env bash
# Everything docs/benchmarks.md ("Runtime shim") records, in one go on a GPU machine without LLVM:
# build the runtime, its unit and lit tests (GPU-free and GPU suites), agreement with ncu on the examples,
# overhead on 10,400 launches, and the shim under another CUPTI client (ncu). Logs go to LOG_DIR.
# usage: bench/runtime-h200.sh [LOG_DIR [STEPS]]   (STEPS: a list from "lit accuracy overhead ncu", default all;
# the build and the unit tests always run; uses .gpukit/ for lit, FileCheck, gtest)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
logs=${1:-$root/build-gpu/runtime-logs}
mkdir -p "$logs"
build=$root/build-gpu
kit=$root/.gpukit
export PATH=$kit/bin:$PATH LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steps=${2:-lit accuracy overhead ncu}
step() { echo "=== $* ($(date +%T))"; }
wanted() { [[ " $steps " == *" $1 "* ]]; }

step device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu --format=csv
step build
cmake -G Ninja -S "$root" -B "$build" -DROOFCHECK_WITH_CLANG=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFCHECK_LIT="$kit/bin/lit" -DROOFCHECK_FILECHECK="$kit/bin/FileCheck" -DGTEST_ROOT="$kit/gtest" >"$logs/build.log" 2>&1 &&
  targets=$(ninja -C "$build" -t targets all | grep -o '^runtime-test-[a-z_]*' | sort -u | tr '\n' ' ') &&
  ninja -C "$build" roofcheck roofcheck-run roofcheck-inject roofcheck-measured-dump roofcheck-runtime-tests \
    example-vector-add example-matmul example-transpose example-softmax $targets >>"$logs/build.log" 2>&1
echo "build exit $?"; tail -3 "$logs/build.log"
step unit tests
"$build/unittests/roofcheck-runtime-tests" --gtest_brief=1 2>&1 | tail -3
wanted lit && step lit runtime + gpu/runtime && {
timeout 150 lit -v --param site="$build/test/lit.site.cfg.py" "$root/test/runtime" "$root/test/gpu/runtime" \
  >"$logs/lit.log" 2>&1
echo "lit exit $?"; grep -E "^(PASS|FAIL|UNSUPPORTED|XFAIL|UNRESOLVED|TIMEOUT)" "$logs/lit.log"; tail -4 "$logs/lit.log"; }
wanted accuracy && step accuracy vs ncu &&
  timeout 150 "$root/bench/runtime-accuracy.sh" "$build" "$logs/accuracy" 2>&1 | tee "$logs/accuracy.log"
wanted overhead && step overhead && timeout 100 "$root/bench/runtime-overhead.sh" "$build" 3 2>&1 | tee "$logs/overhead.log"
wanted ncu || exit 0
step under ncu
mkdir -p "$logs/under-ncu"
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum "$build/bin/roofcheck-run" --output-dir "$logs/under-ncu" \
  -- "$build/examples/vector_add" 1048576 >"$logs/under-ncu.log" 2>&1
echo "exit $?"; grep -E "vector_add n=|roofcheck|==PROF==|gpu__time" "$logs/under-ncu.log" | head -12
