#!/usr/bin/env bash
# Everything docs/benchmarks.md ("Runtime shim") records, in one go on a GPU machine without LLVM:
# build the runtime, its unit and lit tests (GPU-free and GPU suites), overhead on 10,400 launches (with
# the shim's own phase timings), a PyTorch program under the shim, agreement with ncu on the examples and
# the static corpus, and the shim under another CUPTI client (ncu). Logs go to LOG_DIR.
# usage: bench/runtime-h200.sh [LOG_DIR [STEPS]]   (STEPS: a list from "lit overhead pytorch examples corpus
# ncu", default all; the build and the unit tests always run; uses .gpukit/ for lit, FileCheck, gtest)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
logs=${1:-$root/build-gpu/runtime-logs}
mkdir -p "$logs"
build=$root/build-gpu
kit=$root/.gpukit
export PATH=$kit/bin:$PATH LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steps=${2:-lit overhead pytorch examples corpus ncu}
step() { echo "=== $* ($(date +%T))"; }
wanted() { [[ " $steps " == *" $1 "* ]]; }

step device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu --format=csv
step build
cmake -G Ninja -S "$root" -B "$build" -DROOFCHECK_WITH_CLANG=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFCHECK_LIT="$kit/bin/lit" -DROOFCHECK_FILECHECK="$kit/bin/FileCheck" -DGTEST_ROOT="$kit/gtest" >"$logs/build.log" 2>&1 &&
  targets=$(ninja -C "$build" -t targets all | grep -o '^runtime-test-[a-z_]*' | sort -u | tr '\n' ' ') &&
  ninja -k 0 -C "$build" roofcheck roofcheck-run roofcheck-inject roofcheck-report roofcheck-measured-dump \
    roofcheck-runtime-tests example-vector-add example-matmul example-transpose example-softmax corpus-streaming \
    corpus-stencil corpus-reduction corpus-control $targets >>"$logs/build.log" 2>&1
echo "build exit $?"; tail -3 "$logs/build.log"
step unit tests
"$build/unittests/roofcheck-runtime-tests" --gtest_brief=1 2>&1 | tail -3
wanted lit && step lit runtime + gpu/runtime && {
# One test that hangs fails alone (--timeout, per test) instead of stopping the suite.
timeout 420 lit -v --timeout 90 --param site="$build/test/lit.site.cfg.py" "$root/test/runtime" "$root/test/gpu/runtime" \
  >"$logs/lit.log" 2>&1
echo "lit exit $?"; grep -E "^(PASS|FAIL|UNSUPPORTED|XFAIL|UNRESOLVED|TIMEOUT)" "$logs/lit.log"; tail -4 "$logs/lit.log"; }
wanted overhead && step overhead && timeout 150 "$root/bench/runtime-overhead.sh" "$build" 5 2>&1 | tee "$logs/overhead.log"
wanted pytorch && step pytorch && timeout 400 "$root/bench/runtime-pytorch.sh" "$build" "$logs/pytorch" 2>&1 | tee "$logs/pytorch.log"
wanted examples && step examples vs ncu &&
  timeout 150 "$root/bench/runtime-accuracy.sh" "$build" "$logs/accuracy" examples 2>&1 | tee "$logs/accuracy-examples.log"
wanted corpus && step corpus vs ncu &&
  timeout 200 "$root/bench/runtime-accuracy.sh" "$build" "$logs/accuracy" corpus 2>&1 | tee "$logs/accuracy-corpus.log"
wanted ncu || exit 0
step under ncu
mkdir -p "$logs/under-ncu"
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum "$build/bin/roofcheck-run" --output-dir "$logs/under-ncu" \
  -- "$build/examples/vector_add" 1048576 >"$logs/under-ncu.log" 2>&1
echo "exit $?"; grep -E "vector_add n=|roofcheck|==PROF==|gpu__time" "$logs/under-ncu.log" | head -12
