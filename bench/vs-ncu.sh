#!/usr/bin/env bash
# The default `roofcheck run` against Nsight Compute on programs we did not write (issue #18 item 2): for each
# program, in turn within a round, the program alone, `roofcheck run` with the default metrics, and ncu
# collecting the same metrics on the same launches (`--filter-mode per-launch-config --launch-count 3`, 3
# being the run's --samples; clocks not controlled, as the run does not control them). Wall time of the whole
# process, medians over ROUNDS rounds, and the median of each round's ratio (runs of a round are back to
# back, so slow drifts cancel). With BEFORE_BUILD (another build of roofcheck-run, e.g. of the commit before a
# change), its default run joins every round too: the two compared side by side. One default run of each
# program under ROOFCHECK_SHIM_TIMING=1 says where its time goes (profile-begin: the range profiler enabled,
# configured, started; profile-replay: the launch and its passes).
# Programs: a PyTorch MLP training run (bench/report-pytorch.py, PYTORCH_STEPS steps, default 50), and two
# of the conformance corpus, staged by `bench/conformance/accuracy.py --stage STAGE` and built here with their
# own build commands: BabelStream (-n BABELSTREAM_N, default 1000) and HeCBench's layernorm (REPEAT
# launches of each variant, default 200). PROGRAMS picks some of them (default: pytorch-mlp babelstream layernorm).
# usage: bench/vs-ncu.sh BUILD_DIR STAGE_DIR OUT_DIR [ROUNDS]   (needs a GPU, nvcc, ncu, python3 with torch)
set -euo pipefail
build=$(cd "${1:?usage: vs-ncu.sh BUILD_DIR STAGE_DIR OUT_DIR [ROUNDS]}" && pwd)
stage=$(cd "${2:?usage: vs-ncu.sh BUILD_DIR STAGE_DIR OUT_DIR [ROUNDS]}" && pwd)
out=$(mkdir -p "${3:?usage: vs-ncu.sh BUILD_DIR STAGE_DIR OUT_DIR [ROUNDS]}" && cd "$3" && pwd)
rounds=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
run=$build/bin/roofcheck-run
before=${BEFORE_BUILD:+$(cd "$BEFORE_BUILD" && pwd)/bin/roofcheck-run}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

wall_ms() { # wall_ms LOG COMMAND...: the command's wall time in ms; its output goes to LOG.*
  local log=$1 start end
  shift
  start=$(date +%s%N)
  "$@" >"$log.stdout" 2>"$log.stderr" || { echo "failed: $* (see $log.stderr)" >&2; tail -3 "$log.stderr" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
paired_ratio() {
  paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) | awk '{ print $1 / $2 }' | median |
    awk '{printf "%.2f", $1}'
}

selected=" ${PROGRAMS:-pytorch-mlp babelstream layernorm} "
: >"$out/build.log"
if [[ $selected == *" babelstream "* ]]; then
  (cd "$stage/babelstream" && nvcc -O3 -DCUDA -DDEFAULT -DGRID_STRIDE -DUNROLL_FACTOR=4 --extended-lambda -arch=sm_90 \
    -std=c++17 -Isrc -Isrc/cuda src/main.cpp src/cuda/CUDAStream.cu -lnvidia-ml -o babelstream) >>"$out/build.log" 2>&1
fi
if [[ $selected == *" layernorm "* ]]; then
  make -C "$stage/hecbench/src/layernorm-cuda" ARCH=sm_90 >>"$out/build.log" 2>&1
fi
declare -A programs=(
  [pytorch-mlp]="python3 $here/report-pytorch.py ${PYTORCH_STEPS:-50}"
  [babelstream]="$stage/babelstream/babelstream -n ${BABELSTREAM_N:-1000}"
  [layernorm]="$stage/hecbench/src/layernorm-cuda/main 8 1024 768 ${REPEAT:-200}"
)
configs=(native default ncu)
[ -n "$before" ] && configs=(native default before ncu)

for name in $selected; do
  [ -n "${programs[$name]:-}" ] || { echo "vs-ncu.sh: no program $name" >&2; exit 2; }
  read -ra program <<<"${programs[$name]}"
  dir=$out/$name
  mkdir -p "$dir/first"
  ROOFCHECK_SHIM_TIMING=1 "$run" --output-dir "$dir/first" -- "${program[@]}" >"$dir/first.stdout" 2>"$dir/first.stderr" ||
    { echo "vs-ncu.sh: the first default run of $name failed (see $dir/first.stderr)" >&2; exit 1; }
  metrics=$(python3 -c 'import json,sys; print(",".join(json.loads(open(sys.argv[1]).readline())["options"]["collected_metrics"]))' \
    "$(ls "$dir"/first/roofcheck.*.measured.jsonl | head -1)")
  echo "== $name: ${program[*]}"
  echo "default run: $(grep 'launches seen' "$dir/first.stderr")"
  echo "its phases: $(grep -o 'timing: .*' "$dir/first.stderr" | tr '\n' ' ')"
  echo "metrics ($(tr ',' '\n' <<<"$metrics" | wc -l)): $metrics"
  declare -A wall=()
  for round in $(seq "$rounds"); do
    wall[native]+=" $(wall_ms "$work/native" "${program[@]}")"
    wall[default]+=" $(wall_ms "$work/default" "$run" --output-dir "$work" -- "${program[@]}")"
    if [ -n "$before" ]; then
      wall[before]+=" $(wall_ms "$work/before" "$before" --output-dir "$work" -- "${program[@]}")"
    fi
    wall[ncu]+=" $(wall_ms "$work/ncu" ncu --clock-control none --filter-mode per-launch-config --launch-count 3 \
      --metrics "$metrics" "${program[@]}")"
    rm -f "$work"/roofcheck.*.measured.jsonl
  done
  for c in "${configs[@]}"; do
    printf '%-8s median %7s ms  paired ratio to native %s, to ncu %s  (all: %s)\n' "$c" "$(echo "${wall[$c]}" | median)" \
      "$(paired_ratio "${wall[$c]}" "${wall[native]}")" "$(paired_ratio "${wall[$c]}" "${wall[ncu]}")" "${wall[$c]}"
  done
  unset wall
done
