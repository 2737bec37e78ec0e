#!/usr/bin/env bash
# Where the overhead of `roofcheck run --metrics time` goes, on bench/runtime-launches.cu with 0, 10,400 and
# 104,000 launches, all configurations interleaved in one run (REPEATS rounds, medians and ranges):
#   native
#   floor-load, floor-callbacks, floor-activity, floor-both   bench/cupti-floor.cpp: CUPTI asked for what the
#       shim asks, nothing done with it (floor-both is the least any CUPTI tracer of every launch costs)
#   floor-pm  floor-both with PM sampling of DRAM bytes started before the first launch and stopped at exit,
#       nothing decoded: the least `--sampled-traffic 10` can cost
#   shim      libroofcheck-inject.so injected directly, with the environment roofcheck-run gives it
#   run       roofcheck-run --metrics time (the launcher, then the shim)
#   sampled   roofcheck-run --metrics time --sampled-traffic 10
# CONFIGS picks some of them (native always runs). Then the shim's own phases (ROOFCHECK_SHIM_TIMING=1) on the
# 10,400-launch program.
# usage: bench/runtime-floor.sh BUILD_DIR [REPEATS]   (needs a GPU and nvcc)
set -euo pipefail
build=$(cd "${1:?usage: runtime-floor.sh BUILD_DIR [REPEATS]}" && pwd)
repeats=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
all_configs="floor-load floor-callbacks floor-activity floor-both floor-pm shim run sampled"
read -ra configs <<<"native ${CONFIGS:-$all_configs}"
for config in "${configs[@]}"; do
  [[ " native $all_configs " == *" $config "* ]] ||
    { echo "runtime-floor.sh: unknown configuration '$config' in CONFIGS (one of: $all_configs)" >&2; exit 2; }
done
source "$here/launches-bench.sh"
require_floor runtime-floor
mkdir -p "$work/out"

# The environment the launcher gives the program: the shim is then run without the launcher in between.
"$run" --metrics time --output-dir "$work/out" -- /usr/bin/env >"$work/env" 2>/dev/null
shim_env=()
while IFS= read -r line; do
  case $line in CUDA_INJECTION64_PATH=* | ROOFCHECK_OPTIONS=* | NVTX_INJECTION64_PATH=*) shim_env+=("$line") ;; esac
done <"$work/env"

time_config() { # CONFIG LAUNCHES: the wall ms of one run of that configuration
  case $1 in
  native) wall_ms "$work/launches" "$2" ;;
  floor-*) wall_ms env CUDA_INJECTION64_PATH="$floor" ROOFCHECK_FLOOR="${1#floor-}" "$work/launches" "$2" ;;
  shim) wall_ms env "${shim_env[@]}" "$work/launches" "$2" ;;
  run) wall_ms "$run" --metrics time --output-dir "$work/out" -- "$work/launches" "$2" ;;
  sampled) wall_ms "$run" --metrics time --sampled-traffic 10 --output-dir "$work/out" -- "$work/launches" "$2" ;;
  esac
}
"$work/launches" >/dev/null # warm the driver and the file cache
declare -A times
for _ in $(seq "$repeats"); do
  for launches in 0 2600 26000; do
    for config in "${configs[@]}"; do
      times[$config/$launches]+="$(time_config "$config" "$launches") "
      rm -f "$work"/out/*
    done
  done
done
stats() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {printf "%d %d %d", a[int((NR+1)/2)], a[1], a[NR]}'; }
median() { stats <<<"$1" | cut -d' ' -f1; }
echo "runs per configuration: $repeats, interleaved; wall ms of the whole process, median (range)"
printf '%-16s %16s %16s %16s %8s %9s %11s\n' configuration "0 launches" "10,400" "104,000" "10,400 /" \
  "fixed ms" "us a launch"
printf '%-16s %16s %16s %16s %8s %9s %11s\n' "" "" "" "" "native*" "" ""
n0=$(median "${times[native/0]}") n1=$(median "${times[native/2600]}") n2=$(median "${times[native/26000]}")
for config in "${configs[@]}"; do
  cells=()
  for launches in 0 2600 26000; do
    read -r m lo hi <<<"$(stats <<<"${times[$config/$launches]}")"
    cells+=("$(printf '%d (%d-%d)' "$m" "$lo" "$hi")")
  done
  m0=$(median "${times[$config/0]}") m1=$(median "${times[$config/2600]}") m2=$(median "${times[$config/26000]}")
  printf '%-16s %16s %16s %16s %8s %9d %11s\n' "$config" "${cells[@]}" \
    "$(paired_ratio "${times[$config/2600]}" "${times[native/2600]}")" $((m0 - n0)) \
    "$(awk -v a="$m2" -v b="$n2" -v c="$m1" -v d="$n1" 'BEGIN { printf "%.2f", ((a - b) - (c - d)) * 1000 / 93600 }')"
done
echo "* the median of the rounds' ratios; fixed: the 0-launch program's extra median time; a launch: the extra"
echo "  median time that 93,600 more launches add, per launch"
echo "all times, in round order:"
for key in "${!times[@]}"; do echo "  $key: ${times[$key]}"; done | sort
for launches in 0 2600; do
  ROOFCHECK_SHIM_TIMING=1 "$run" --metrics time --output-dir "$work/out" -- "$work/launches" "$launches" \
    >/dev/null 2>"$work/timing"
  echo "shim phases, $((4 * launches)) launches: $(grep -o 'timing: .*' "$work/timing" || echo none)"
  rm -f "$work"/out/*
done
