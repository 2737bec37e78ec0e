#!/usr/bin/env bash
# Overhead of `roofcheck run` on a program of 10,400 short launches (bench/runtime-launches.cu), all in one
# run: native, --metrics time, CUPTI's floor (bench/cupti-floor.cpp, where built), default metrics (counters
# for the first launches of each of the 4 signatures, every metric or the one-pass traffic set by turns), the
# same with --traffic-set off (3 launches of each with every metric), and ncu collecting every metric on as
# many launches as the default run profiled (--launch-count). Wall time of the whole process, median of REPEATS
# runs each, and for --metrics time and the floor also the median of each round's ratio to native.
# usage: bench/runtime-overhead.sh BUILD_DIR [REPEATS]   (needs a GPU, nvcc and ncu)
set -euo pipefail
build=$(cd "${1:?usage: runtime-overhead.sh BUILD_DIR [REPEATS]}" && pwd)
repeats=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/launches-bench.sh"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

"$work/launches" >/dev/null # warm the driver and the file cache
mkdir -p "$work/time" "$work/default"
"$run" --output-dir "$work/default" -- "$work/launches" >/dev/null 2>"$work/first-default"
metrics=$(python3 -c 'import json,sys; h=json.loads(open(sys.argv[1]).readline()); print(",".join(h["options"].get("collected_metrics") or ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"]))' "$(ls "$work"/default/*.jsonl | head -1)")
profiled=$(grep -o '[0-9]* profiled' "$work/first-default" | grep -o '[0-9]*' || true)
[ "${profiled:-0}" -gt 0 ] || profiled=12 # counters failed: still compare with ncu on 12 launches
echo "metrics ($(echo "$metrics" | tr ',' '\n' | wc -l)): $metrics"
echo "profiled launches in the default run: $profiled"

native=() time_mode=() floor_both=() default=() full=() ncu=() native0=() time0=() native10=() time10=() none10=()
for _ in $(seq "$repeats"); do
  native+=("$(wall_ms "$work/launches")")
  time_mode+=("$(wall_ms "$run" --metrics time --output-dir "$work/time" -- "$work/launches")")
  # CUPTI asked for what --metrics time asks, nothing done with it: the least any CUPTI tracer of every
  # launch costs, measured in the same rounds (where the floor library is built).
  [ -f "$floor" ] &&
    floor_both+=("$(wall_ms env CUDA_INJECTION64_PATH="$floor" ROOFCHECK_FLOOR=both "$work/launches")")
  # Where the time goes: the same program with no launches (fixed cost) and with ten times as many.
  native0+=("$(wall_ms "$work/launches" 0)")
  time0+=("$(wall_ms "$run" --metrics time --output-dir "$work/time" -- "$work/launches" 0)")
  native10+=("$(wall_ms "$work/launches" 26000)")
  time10+=("$(wall_ms "$run" --metrics time --output-dir "$work/time" -- "$work/launches" 26000)")
  # The shim attached but recording nothing (a filter no kernel matches): CUPTI's own cost per launch.
  none10+=("$(wall_ms "$run" --metrics time --kernel '^$' --output-dir "$work/time" -- "$work/launches" 26000)")
  default+=("$(wall_ms "$run" --output-dir "$work/default" -- "$work/launches")")
  full+=("$(wall_ms "$run" --traffic-set off --output-dir "$work/default" -- "$work/launches")")
  ncu+=("$(wall_ms ncu --clock-control none --cache-control none --launch-count "$profiled" --metrics "$metrics" "$work/launches")")
done
n=$(echo "${native[*]}" | median); t=$(echo "${time_mode[*]}" | median)
d=$(echo "${default[*]}" | median); u=$(echo "${ncu[*]}" | median); o=$(echo "${full[*]}" | median)
echo "runs per configuration: $repeats (all times: native ${native[*]} | time ${time_mode[*]} | default ${default[*]} |" \
  "traffic set off ${full[*]} | ncu ${ncu[*]})"
printf '%-34s %10s %8s\n' configuration "median ms" ratio
printf '%-34s %10d %8s\n' native "$n" 1.00
printf '%-34s %10d %8s   (target <= 1.10 x native; paired by round: %s)\n' "roofcheck run --metrics time" "$t" \
  "$(ratio "$t" "$n")" "$(paired_ratio "${time_mode[*]}" "${native[*]}")"
if [ ${#floor_both[@]} -gt 0 ]; then
  f=$(echo "${floor_both[*]}" | median)
  printf '%-34s %10d %8s   (paired by round: %s; all times: %s)\n' "CUPTI floor (callbacks + records)" "$f" \
    "$(ratio "$f" "$n")" "$(paired_ratio "${floor_both[*]}" "${native[*]}")" "${floor_both[*]}"
fi
printf '%-34s %10d %8s   (target <= 0.50 x ncu)\n' "roofcheck run (default metrics)" "$d" "$(ratio "$d" "$u")"
printf '%-34s %10d %8s   (x ncu)\n' "same, --traffic-set off" "$o" "$(ratio "$o" "$u")"
printf '%-34s %10d %8s\n' "ncu, same metrics, same launches" "$u" "$(ratio "$u" "$n")"
n0=$(echo "${native0[*]}" | median); t0=$(echo "${time0[*]}" | median)
n10=$(echo "${native10[*]}" | median); t10=$(echo "${time10[*]}" | median); z10=$(echo "${none10[*]}" | median)
printf '%-34s %10d %8s\n' "native, 0 launches" "$n0" 1.00
printf '%-34s %10d %8s\n' "--metrics time, 0 launches" "$t0" "$(ratio "$t0" "$n0")"
printf '%-34s %10d %8s\n' "native, 104,000 launches" "$n10" 1.00
printf '%-34s %10d %8s\n' "--metrics time, 104,000 launches" "$t10" "$(ratio "$t10" "$n10")"
printf '%-34s %10d %8s\n' "same, --kernel matching none" "$z10" "$(ratio "$z10" "$n10")"
echo "per launch under --metrics time: $(awk -v a="$t10" -v b="$n10" -v c="$t" -v d="$n" 'BEGIN { printf "%.1f", ((a - b) - (c - d)) * 1000 / 93600 }') us beyond native (from the 10,400 and 104,000 runs)"
# Where the shim's time goes (ROOFCHECK_SHIM_TIMING=1: per phase, summed over the run; docs/runtime.md).
for launches in 2600 26000; do
  ROOFCHECK_SHIM_TIMING=1 "$run" --metrics time --output-dir "$work/time" -- "$work/launches" "$launches" >/dev/null 2>"$work/timing"
  echo "shim phases, --metrics time, $((4 * launches)) launches: $(grep -o 'timing: .*' "$work/timing")"
done
