#!/usr/bin/env bash
# Everything docs/benchmarks.md ("Runtime shim") records, in one go on a GPU machine without LLVM: build
# the runtime and its unit tests, then the steps asked for, in the order given:
#   tensor    the cuBLAS tensor-core program (tensor_gemm) with every launch profiled, traced; where it hangs,
#             its threads and stacks (bench/runtime-hang.sh)
#   variants  where tensor hung: the same with durations only and with every module loaded at start
#             (CUDA_MODULE_LOADING=EAGER), to tell whether counters or lazy loading hang
#   lit       the lit suites test/runtime and test/gpu/runtime (tensor-gemm.test left out where tensor hung)
#   overhead  10,400 short launches: native, --metrics time, default metrics, ncu (bench/runtime-overhead.sh)
#   floor     where --metrics time's overhead goes: CUPTI's least cost against the shim's (bench/runtime-floor.sh)
#   pytorch   a PyTorch program under the shim (bench/runtime-pytorch.sh)
#   faults    the fault suite without its sanitizer part (bench/faults/run-faults.sh)
#   examples, corpus   agreement with ncu (bench/runtime-accuracy.sh)
#   ncu       the shim under another CUPTI client
# usage: bench/runtime-h200.sh [LOG_DIR [STEPS]]   (default STEPS: "tensor variants lit overhead floor pytorch
# faults examples corpus ncu"; uses .gpukit/ for lit, FileCheck, gtest). RUNTIME_DEADLINE_S (default 3600):
# no step runs past that many seconds from the start; one that would start with less than 20 s left is
# skipped. ROOFCHECK_GIT_REVISION=REV: the revision the binaries name (`--version`, the measured files'
# roofcheck_version), for a copy of the tree whose git metadata is older than the tree, as on the lent GPU
# machine: give it `git describe --always --dirty --abbrev=12` of the tree the copy came from.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
logs=${1:-$root/build-gpu/runtime-logs}
mkdir -p "$logs"
build=$root/build-gpu
kit=$root/.gpukit
export PATH=$kit/bin:$PATH LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steps=${2:-tensor variants lit overhead floor pytorch faults examples corpus ncu}
deadline=${RUNTIME_DEADLINE_S:-3600}
run=$build/bin/roofcheck-run
tensor_hung=no
step() { echo "=== $* ($(date +%T), ${SECONDS} s)"; }
wanted() { [[ " $steps " == *" $1 "* ]]; }
# budget N: N seconds, or what is left before the deadline if less; 0 when a step should not start.
budget() {
  local left=$((deadline - SECONDS - 5))
  if [ "$left" -lt 20 ]; then echo 0; elif [ "$1" -lt "$left" ]; then echo "$1"; else echo "$left"; fi
}
skipped() { echo "skipped: the deadline (RUNTIME_DEADLINE_S=$deadline) is near"; }

run_tensor() {
  step "tensor_gemm (cuBLAS), every launch profiled, traced"
  local limit
  limit=$(budget 45)
  [ "$limit" -eq 0 ] && { skipped; return; }
  mkdir -p "$logs/tensor"
  HANG_GDB=1 "$root/bench/runtime-hang.sh" "$limit" "$logs/tensor/default" "$run" --samples 0 --output-dir "$logs/tensor" \
    -- "$build/runtime/programs/tensor_gemm"
  [ $? -eq 124 ] && tensor_hung=yes
  cat "$logs/tensor/default.stdout"
  grep -v '^roofcheck: trace:' "$logs/tensor/default.stderr" | tail -8
}

run_variants() {
  [ "$tensor_hung" = yes ] || return
  local name limit options environment
  for name in time eager; do
    step "tensor_gemm, $name"
    limit=$(budget 20)
    [ "$limit" -eq 0 ] && { skipped; return; }
    case $name in
    time) options=(--metrics time) environment=() ;;
    eager) options=() environment=(CUDA_MODULE_LOADING=EAGER) ;;
    esac
    mkdir -p "$logs/tensor/$name"
    env "${environment[@]}" "$root/bench/runtime-hang.sh" "$limit" "$logs/tensor/$name/run" "$run" --samples 0 \
      "${options[@]}" --output-dir "$logs/tensor/$name" -- "$build/runtime/programs/tensor_gemm" \
      >"$logs/tensor/$name/hang.log"
    grep -v '^  thread' "$logs/tensor/$name/hang.log"
  done
}

run_lit() {
  step lit runtime + gpu/runtime
  local limit
  limit=$(budget 240)
  [ "$limit" -eq 0 ] && { skipped; return; }
  # One test that hangs fails alone (--timeout, per test) instead of stopping the suite.
  [ "$tensor_hung" = yes ] && export LIT_FILTER_OUT=tensor-gemm
  timeout "$limit" lit -v --timeout 60 --param site="$build/test/lit.site.cfg.py" "$root/test/runtime" \
    "$root/test/gpu/runtime" >"$logs/lit.log" 2>&1
  echo "lit exit $?"
  unset LIT_FILTER_OUT
  grep -E "^(PASS|FAIL|UNSUPPORTED|XFAIL|UNRESOLVED|TIMEOUT)" "$logs/lit.log"
  cat "$build"/test/gpu/runtime/Output/tensor-gemm.test.tmp/ratios 2>/dev/null
  tail -4 "$logs/lit.log"
}

run_overhead() {
  step overhead
  local limit
  limit=$(budget 150)
  [ "$limit" -eq 0 ] && { skipped; return; }
  timeout "$limit" "$root/bench/runtime-overhead.sh" "$build" 7 2>&1 | tee "$logs/overhead.log"
}

run_floor() {
  step "floor: CUPTI's share of the overhead"
  local limit
  limit=$(budget 200)
  [ "$limit" -eq 0 ] && { skipped; return; }
  timeout "$limit" "$root/bench/runtime-floor.sh" "$build" 11 2>&1 | tee "$logs/floor.log"
}

run_pytorch() {
  step pytorch
  local limit
  limit=$(budget 300)
  [ "$limit" -eq 0 ] && { skipped; return; }
  timeout "$limit" "$root/bench/runtime-pytorch.sh" "$build" "$logs/pytorch" 2>&1 | tee "$logs/pytorch.log"
}

run_faults() {
  step "fault suite (bench/faults, without the sanitizer part)"
  local limit
  limit=$(budget 300)
  [ "$limit" -eq 0 ] && { skipped; return; }
  FAULTS_DEADLINE_S=$((limit - 10)) timeout "$limit" "$root/bench/faults/run-faults.sh" "$build" "$logs/faults" faults \
    >"$logs/faults.log" 2>&1
  echo "faults exit $?"
  cat "$logs/faults/faults.md" 2>/dev/null || tail -20 "$logs/faults.log"
}

# run_accuracy SET LIMIT_S: agreement with ncu on the examples or the static corpus.
run_accuracy() {
  step "$1 vs ncu"
  local limit
  limit=$(budget "$2")
  [ "$limit" -eq 0 ] && { skipped; return; }
  timeout "$limit" "$root/bench/runtime-accuracy.sh" "$build" "$logs/accuracy" "$1" 2>&1 | tee "$logs/accuracy-$1.log"
}
run_examples() { run_accuracy examples 150; }
run_corpus() { run_accuracy corpus 200; }

run_ncu() {
  step under ncu
  local limit
  limit=$(budget 40)
  [ "$limit" -eq 0 ] && { skipped; return; }
  mkdir -p "$logs/under-ncu"
  timeout "$limit" ncu --clock-control none --metrics gpu__time_duration.sum "$run" --output-dir "$logs/under-ncu" \
    -- "$build/examples/vector_add" 1048576 >"$logs/under-ncu.log" 2>&1
  echo "exit $?"
  grep -E "vector_add n=|roofcheck|==PROF==|gpu__time" "$logs/under-ncu.log" | head -12
}

step device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu --format=csv
step build
targets="roofcheck roofcheck-run roofcheck-inject roofcheck-report roofcheck-measured-dump roofcheck-runtime-tests"
{ wanted floor || wanted overhead; } && targets+=" roofcheck-cupti-floor"
wanted lit && targets+=" example-vector-add" # gpu/runtime's vector-add and report tests run it
if wanted examples || wanted corpus || wanted ncu; then
  targets+=" example-vector-add example-matmul example-transpose example-softmax corpus-streaming corpus-stencil"
  targets+=" corpus-reduction corpus-control"
fi
cmake -G Ninja -S "$root" -B "$build" -DROOFCHECK_WITH_CLANG=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFCHECK_LIT="$kit/bin/lit" -DROOFCHECK_FILECHECK="$kit/bin/FileCheck" -DGTEST_ROOT="$kit/gtest" \
  -DROOFCHECK_GIT_REVISION="${ROOFCHECK_GIT_REVISION:-}" >"$logs/build.log" 2>&1 &&
  targets+=" $(ninja -C "$build" -t targets all | grep -o '^runtime-test-[a-z_]*' | sort -u | tr '\n' ' ')" &&
  ninja -k 0 -C "$build" $targets >>"$logs/build.log" 2>&1
echo "build exit $?; ${SECONDS} s"
tail -3 "$logs/build.log"
step unit tests
"$build/unittests/roofcheck-runtime-tests" --gtest_brief=1 2>&1 | tail -3
for s in $steps; do
  case $s in
  tensor | variants | lit | overhead | floor | pytorch | faults | examples | corpus | ncu) "run_$s" ;;
  *) echo "runtime-h200: unknown step '$s'" ;;
  esac
done
