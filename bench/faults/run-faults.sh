#!/usr/bin/env bash
# The GPU fault suite of issue #8: programs that abort, segfault, are killed, exit from a thread, fork,
# launch from 16 threads, launch 200,000 kernels, use CUDA graphs or already run under ncu, each run natively
# and under `roofcheck run`; then compute-sanitizer (memcheck, racecheck) on the examples and the probe.
# Writes OUT_DIR/faults.md (the tables) and the logs under OUT_DIR/runs/. Needs a GPU and a GPU build
# (scripts/gpu-build.sh BUILD_DIR). Every run has a timeout; a failing case is recorded and the suite goes on.
# usage: bench/faults/run-faults.sh BUILD_DIR OUT_DIR [STEPS]   (STEPS: from "faults sanitizer", default both)
# environment: NVCC, NCU, COMPUTE_SANITIZER, PYTHON (tools, found on PATH or in /usr/local/cuda/bin
# otherwise); FAULTS_BUDGET_S (default 225: sanitizer runs that would end later are skipped);
# FAULTS_DEADLINE_S (default 480: no run goes past it, whatever hangs); FAULTS_RSS_SLACK_MIB (default 512:
# how much more memory than the native run a run under roofcheck may use)
set -uo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: bench/faults/run-faults.sh BUILD_DIR OUT_DIR [STEPS]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run-faults: error: no build directory '$1'" >&2; exit 2; }
out=$(mkdir -p "$2" && cd "$2" && pwd) || { echo "run-faults: error: cannot create '$2'" >&2; exit 2; }
steps=${3:-faults sanitizer}
roofcheck=$build/bin/roofcheck
if [ ! -x "$roofcheck" ] || [ ! -x "$build/bin/roofcheck-run" ] ||
  [ ! -r "${ROOFCHECK_INJECT_LIBRARY:-$build/lib/roofcheck/libroofcheck-inject.so}" ]; then
  echo "run-faults: error: $build lacks bin/roofcheck, bin/roofcheck-run or lib/roofcheck/libroofcheck-inject.so:" \
    "build it with scripts/gpu-build.sh" >&2
  exit 2
fi
tool() { # tool ENV_VALUE NAME: the tool's path, or nothing
  if [ -n "$1" ]; then echo "$1"; elif command -v "$2"; then :; elif [ -x "/usr/local/cuda/bin/$2" ]; then
    echo "/usr/local/cuda/bin/$2"; fi
}
nvcc=$(tool "${NVCC:-}" nvcc)
ncu=$(tool "${NCU:-}" ncu)
sanitizer=$(tool "${COMPUTE_SANITIZER:-}" compute-sanitizer)
python=${PYTHON:-python3}
budget=${FAULTS_BUDGET_S:-225}
deadline=${FAULTS_DEADLINE_S:-480}
rss_slack=${FAULTS_RSS_SLACK_MIB:-512}
runs=$out/runs rows=$out/rows.jsonl sanitizer_rows=$out/sanitizer.jsonl
rm -rf "$runs" && rm -f "$rows" "$sanitizer_rows" "$out/faults.md"
mkdir -p "$runs" "$out/bin"
step() { echo "=== $* ($((SECONDS)) s)"; }
wanted() { [[ " $steps " == *" $1 "* ]]; }

# measure DIR TIMEOUT [faults.py measure options] -- COMMAND...: never waits longer than TIMEOUT + 15 s, nor
# past the deadline (a run that would start too close to it is left out and judged as having no result).
measure() {
  local dir=$1 limit=$2 left=$((deadline - SECONDS))
  shift 2
  mkdir -p "$dir/out"
  [ "$limit" -gt "$left" ] && limit=$left
  if [ "$limit" -lt 5 ]; then
    echo "run-faults: past the deadline (FAULTS_DEADLINE_S=$deadline): $dir not run" >&2
    return
  fi
  timeout -k 5 $((limit + 10)) "$python" "$here/faults.py" measure --dir "$dir" --timeout "$limit" "$@" \
    || echo "run-faults: the measuring wrapper failed for $dir" >&2
}

step device
{
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)."
  echo
  timeout 20 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 |
    sed 's/^/GPU: /'
  echo
  echo "roofcheck: $(timeout 10 "$build/bin/roofcheck-run" --version 2>&1 | head -1)"
  echo
  echo "nvcc: $( { timeout 20 "${nvcc:-nvcc}" --version 2>&1 || true; } | tail -1); ncu: ${ncu:-not found}; compute-sanitizer: ${sanitizer:-not found}"
} >"$out/about.md"
cat "$out/about.md"

program=$out/bin/faults
if wanted faults; then
  step build the fault programs
  if [ -z "$nvcc" ] || ! timeout 300 "$nvcc" -O2 -std=c++17 -arch=sm_90 -o "$program" "$here/faults.cu" \
    >"$out/build.log" 2>&1; then
    echo "run-faults: error: cannot build $here/faults.cu (see $out/build.log)" >&2
    steps=${steps//faults/}
  fi
fi

# fault NAME LABEL METRICS SIGNAL [faults.py judge options] -- PROGRAM_ARGS...
#   METRICS: the shim runs, "default" (no --metrics option) and/or "time" (--metrics time);
#   SIGNAL: "" or "KILL:launcher" / "TERM:program"..., sent 0.5 s after the program reported its launches.
fault() {
  local name=$1 label=$2 metrics=$3 signal=$4
  shift 4
  local signal_options=() judge_extra=() limit=30
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    judge_extra+=("$1")
    shift
  done
  shift
  [ -n "$signal" ] && signal_options=(--signal "${signal%%:*}" --target "${signal##*:}")
  [ "$1" = many ] && [ "${2:-0}" -ge 100000 ] && limit=120
  step "$label"
  measure "$runs/$name/native" "$limit" "${signal_options[@]}" -- "$program" "$@"
  local m metrics_option variant
  for m in $metrics; do
    metrics_option=() variant="default metrics"
    [ "$m" = time ] && metrics_option=(--metrics time) variant="--metrics time"
    measure "$runs/$name/$m" "$limit" "${signal_options[@]}" -- \
      "$roofcheck" run --output-dir "$runs/$name/$m/out" "${metrics_option[@]}" -- "$program" "$@"
    "$python" "$here/faults.py" judge --rows "$rows" --name "$name" --label "$label ($variant)" \
      --native "$runs/$name/native" --shim "$runs/$name/$m" --rss-slack-mib "$rss_slack" "${judge_extra[@]}"
  done
}

if wanted faults; then
  fault abort "abort() after 50 launches" "default time" "" -- abort 50
  fault segfault "segfault (null write) after 50 launches" "default time" "" -- segfault 50
  fault sigterm-self "SIGTERM sent by the program to itself" "default time" "" -- sigterm-self 50
  fault sigterm-outside "SIGTERM from outside, to the launcher" "default" "TERM:launcher" -- until-killed 50
  fault sigkill-launcher "SIGKILL from outside, to the launcher" "default" "KILL:launcher" --allow-truncated \
    -- until-killed 50
  fault sigkill-program "SIGKILL from outside, to the program" "default" "KILL:program" --allow-truncated \
    -- until-killed 50
  fault exit-thread "exit() from a worker thread while main launches" "default time" "" -- exit-thread 50
  fault fork "fork() after CUDA init, child exits 0" "default time" "" --exact -- fork 50
  fault threads "16 threads x 1000 launches, 3 kernels" "default time" "" --exact -- threads 1000
  fault many-20k "20,000 launches (memory baseline)" "time" "" --exact -- many 20000
  fault many-200k "200,000 launches" "time" "" --exact --baseline "$runs/many-20k/time" -- many 200000
  fault graph "CUDA graph of 4 kernels, 100 replays" "default time" "" --exact -- graph 100

  step "already under ncu"
  if [ -n "$ncu" ]; then
    measure "$runs/under-ncu/native" 30 -- "$program" many 5
    measure "$runs/under-ncu/default" 120 -- "$ncu" --clock-control none -c 1 --metrics gpu__time_duration.sum \
      --log-file "$runs/under-ncu/default/ncu.log" "$roofcheck" run --output-dir "$runs/under-ncu/default/out" \
      -- "$program" many 5
    "$python" "$here/faults.py" judge --rows "$rows" --name under-ncu --label "already under ncu (-c 1)" \
      --native "$runs/under-ncu/native" --shim "$runs/under-ncu/default" --under-profiler --exact \
      --rss-slack-mib "$rss_slack"
  else
    echo "ncu not found: case left out"
  fi
fi

# sanitize TOOL LABEL LIMIT -- COMMAND...: skipped when it could end after the budget.
sanitize() {
  local tool=$1 label=$2 limit=$3
  shift 4
  local left=$((budget - SECONDS)) dir=$runs/sanitizer/$tool-${label//[^A-Za-z0-9]/_}
  [ "$limit" -gt "$left" ] && limit=$left
  step "$tool $label"
  if [ -z "$sanitizer" ]; then
    "$python" "$here/faults.py" sanitized --rows "$sanitizer_rows" --label "$label" --tool "$tool" \
      --skipped "compute-sanitizer not found"
  elif [ ! -x "$1" ]; then
    "$python" "$here/faults.py" sanitized --rows "$sanitizer_rows" --label "$label" --tool "$tool" \
      --skipped "$1 is not built"
  elif [ "$limit" -lt 15 ]; then
    "$python" "$here/faults.py" sanitized --rows "$sanitizer_rows" --label "$label" --tool "$tool" \
      --skipped "the suite's time budget (FAULTS_BUDGET_S=$budget) is spent"
  else
    measure "$dir" "$limit" -- "$sanitizer" --tool "$tool" --print-limit 20 "$@"
    "$python" "$here/faults.py" sanitized --rows "$sanitizer_rows" --label "$label" --tool "$tool" --run "$dir"
  fi
}

if wanted sanitizer; then
  examples=$build/examples probe=$build/bin/roofcheck-probe
  for t in memcheck racecheck; do
    sanitize $t "vector_add 1048576 --reps 1" 30 -- "$examples/vector_add" 1048576 --reps 1
    sanitize $t "matmul 256 both --reps 1" 30 -- "$examples/matmul" 256 both --reps 1
    sanitize $t "transpose 512 both --reps 1" 30 -- "$examples/transpose" 512 both --reps 1
    sanitize $t "softmax 1024 1024 both --reps 1" 30 -- "$examples/softmax" 1024 1024 both --reps 1
  done
  mkdir -p "$runs/sanitizer"
  sanitize memcheck "roofcheck-probe --quick" 90 -- "$probe" --quick --out "$runs/sanitizer/memcheck-ceilings.json"
  # One family at a time (on the H200 `shared` took 74 s under racecheck, the others 1-8 s); cuBLASLt's
  # matrix products (the tensor family) take minutes, so they come last.
  for family in dram l2 fp64 fp32 fp16 bf16 shared; do
    sanitize racecheck "roofcheck-probe --quick --only $family" 120 -- "$probe" --quick --only "$family" \
      --out "$runs/sanitizer/racecheck-$family-ceilings.json"
  done
  sanitize racecheck "roofcheck-probe --quick --only tensor" 60 -- "$probe" --quick --only tensor \
    --out "$runs/sanitizer/racecheck-tensor-ceilings.json"
fi

step table
"$python" "$here/faults.py" table --rows "$rows" --sanitizer "$sanitizer_rows" --about "$out/about.md" \
  >"$out/faults.md"
cat "$out/faults.md"
echo "wrote $out/faults.md in $SECONDS s"
