#!/usr/bin/env bash
# Sampled traffic (PM sampling in the shim, --sampled-traffic) measured three ways, in parts:
#   overhead  the 10,400 short launches of bench/runtime-launches.cu: native, --metrics time without
#             sampled traffic and with it every 10 and every 20 us; REPEATS rounds, in turn
#   accuracy  a PyTorch MLP training run (bench/report-pytorch.py, ACCURACY_STEPS steps) under
#             --metrics time --sampled-traffic US (10 and 20, and 10 with CUDA_LAUNCH_BLOCKING=1: each
#             kernel alone in its samples, as ncu runs it), and twice under ncu counting DRAM bytes
#             in one pass on every launch (--cache-control none: L2 as the previous kernel left it, as in
#             the program's own run); bench/sampled-traffic.py compares them launch by launch; each sampled
#             run's samples and kernel spans go to samples.txt beside its file (ROOFCHECK_SHIM_SAMPLES), for
#             bench/pm-attribution.py
#   pytorch   the same program (PYTORCH_STEPS steps) timed: native, --metrics time with and without
#             --sampled-traffic 10, the default run, and ncu with the default run's metrics on 3 launches
#             of each configuration (--filter-mode per-launch-config --launch-count 3, as issue #18
#             measured); PYTORCH_ROUNDS rounds, in turn; the printed loss must be the same in every run
# usage: bench/sampled-traffic.sh BUILD_DIR OUT_DIR [PART...]   (default: all three; needs a GPU, nvcc, ncu,
# python3 with torch)
set -euo pipefail
build=$(cd "${1:?usage: sampled-traffic.sh BUILD_DIR OUT_DIR [PART...]}" && pwd)
out=${2:?usage: sampled-traffic.sh BUILD_DIR OUT_DIR [PART...]}
shift 2
parts=${*:-overhead accuracy pytorch}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
source "$here/launches-bench.sh"
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ncu_traffic=(ncu --clock-control none --cache-control none --print-kernel-base mangled --csv --print-units base
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum)

# sampled_launches FILE: how many of a measured file's launches have sampled bytes.
sampled_launches() {
  (cd "$here" && python3 -c '
import sys, measured
launches = list(measured.launches(sys.argv[1]))
sampled = [l for l in launches if l.get("sampled")]
shared = sum(1 for l in sampled if l.get("sampled_shared"))
print(f"{len(sampled)} of {len(launches)} launches with sampled bytes, {shared} of them sharing a sample")' "$1")
}

for part in $parts; do
  case $part in
  overhead)
    echo "== overhead: 10,400 launches (bench/runtime-launches.cu), ${REPEATS:=5} rounds"
    "$work/launches" >/dev/null
    declare -A times=()
    configs=(native time sampled-10 sampled-20)
    for _ in $(seq "$REPEATS"); do
      times[native]+=" $(wall_ms "$work/launches")"
      times[time]+=" $(wall_ms "$run" --metrics time --output-dir "$work" -- "$work/launches")"
      times[sampled-10]+=" $(wall_ms "$run" --metrics time --sampled-traffic 10 --output-dir "$work" -- "$work/launches")"
      times[sampled-20]+=" $(wall_ms "$run" --metrics time --sampled-traffic 20 --output-dir "$work" -- "$work/launches")"
    done
    for c in "${configs[@]}"; do
      printf '%-14s median %6s ms  paired ratio to native %s  (all: %s)\n' "$c" "$(echo "${times[$c]}" | median)" \
        "$(paired_ratio "${times[$c]}" "${times[native]}")" "${times[$c]}"
    done
    "$run" --metrics time --sampled-traffic 10 --output-dir "$out" -- "$work/launches" >/dev/null 2>"$out/launches.err"
    tail -1 "$out/launches.err"
    sampled_launches "$(ls -t "$out"/roofcheck.*.measured.jsonl | head -1)"
    ;;
  accuracy)
    steps=${ACCURACY_STEPS:-10}
    program=(python3 "$here/report-pytorch.py" "$steps")
    echo "== accuracy: ${program[*]}"
    # 10-alone: every 10 us with CUDA_LAUNCH_BLOCKING=1, each kernel alone in its samples as ncu runs it.
    for run_name in 10 20 10-alone; do
      us=${run_name%-alone}
      blocking=$([ "$run_name" = 10-alone ] && echo 1 || echo 0)
      mkdir -p "$out/accuracy-$run_name"
      CUDA_LAUNCH_BLOCKING=$blocking ROOFCHECK_SHIM_SAMPLES=$out/accuracy-$run_name/samples.txt \
        "$run" --metrics time --sampled-traffic "$us" --output-dir "$out/accuracy-$run_name" -- "${program[@]}" \
        >"$out/accuracy-$run_name/stdout" 2>"$out/accuracy-$run_name/stderr"
      tail -1 "$out/accuracy-$run_name/stderr"
    done
    for n in 1 2; do
      "${ncu_traffic[@]}" --log-file "$out/ncu-traffic-$n.csv" "${program[@]}" >"$out/ncu-$n.stdout"
    done
    for run_name in 10 20 10-alone; do
      echo "-- sampled every ${run_name%-alone} us$([ "$run_name" = 10-alone ] && echo ', kernels alone (CUDA_LAUNCH_BLOCKING=1)')"
      (cd "$here" && python3 sampled-traffic.py "$out"/accuracy-$run_name/roofcheck.*.measured.jsonl \
        "$out/ncu-traffic-1.csv" "$out/ncu-traffic-2.csv")
    done
    ;;
  pytorch)
    steps=${PYTORCH_STEPS:-50}
    program=(python3 "$here/report-pytorch.py" "$steps")
    echo "== pytorch: ${program[*]}, ${PYTORCH_ROUNDS:=2} rounds"
    mkdir -p "$out/pytorch"
    "$run" --output-dir "$out/pytorch" -- "${program[@]}" >"$out/pytorch/default.stdout" 2>"$out/pytorch/first.err"
    profiled=$(grep -o '[0-9]* profiled' "$out/pytorch/first.err" | grep -o '[0-9]*')
    metrics=$(python3 -c 'import json,sys; print(",".join(json.loads(open(sys.argv[1]).readline())["options"]["collected_metrics"]))' \
      "$(ls "$out"/pytorch/roofcheck.*.measured.jsonl | head -1)")
    echo "default run: $(tail -1 "$out/pytorch/first.err")"
    declare -A wall=()
    for round in $(seq "$PYTORCH_ROUNDS"); do
      wall[native]+=" $(wall_ms "${program[@]}")"; cp "$work/stdout" "$out/pytorch/native.stdout"
      wall[time]+=" $(wall_ms "$run" --metrics time --output-dir "$work" -- "${program[@]}")"
      mkdir -p "$work/sampled-$round"
      wall[time-sampled]+=" $(wall_ms "$run" --metrics time --sampled-traffic 10 --output-dir "$work/sampled-$round" -- "${program[@]}")"
      cmp -s "$work/stdout" "$out/pytorch/native.stdout" || echo "time-sampled: output differs"
      echo "time-sampled, round $round: $(sampled_launches "$work"/sampled-$round/roofcheck.*.measured.jsonl)"
      wall[default]+=" $(wall_ms "$run" --output-dir "$work" -- "${program[@]}")"
      cmp -s "$work/stdout" "$out/pytorch/native.stdout" || echo "default: output differs"
      wall[ncu]+=" $(wall_ms ncu --clock-control none --filter-mode per-launch-config --launch-count 3 --metrics "$metrics" "${program[@]}")"
    done
    echo "profiled launches in the default run: $profiled; metrics: $metrics"
    for c in native time time-sampled default ncu; do
      printf '%-14s median %7s ms  paired ratio to native %s, to ncu %s  (all: %s)\n' "$c" "$(echo "${wall[$c]}" | median)" \
        "$(paired_ratio "${wall[$c]}" "${wall[native]}")" "$(paired_ratio "${wall[$c]}" "${wall[ncu]}")" "${wall[$c]}"
    done
    ;;
  *) echo "unknown part '$part' (overhead, accuracy, pytorch)" >&2; exit 2 ;;
  esac
done
