#!/usr/bin/env bash
# What CUPTI's kernel records cost depends on: bench/cupti-floor.cpp ("both": the launch callbacks and the
# kernel records --metrics time needs) with its activity flush period and buffer size varied, against native,
# on bench/runtime-launches.cu with 0 and 10,400 launches, all configurations interleaved (REPEATS rounds;
# median wall ms, and the median of the rounds' ratios to native).
# usage: bench/runtime-floor-settings.sh BUILD_DIR [REPEATS]   (needs a GPU and nvcc)
set -euo pipefail
build=$(cd "${1:?usage: runtime-floor-settings.sh BUILD_DIR [REPEATS]}" && pwd)
repeats=${2:-9}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/launches-bench.sh"
require_floor runtime-floor-settings

# name: flush period ms, buffer KiB
configs=("flush10-64k 10 64" "noflush-64k 0 64" "flush10-4m 10 4096" "noflush-4m 0 4096" "flush100-64k 100 64")
"$work/launches" >/dev/null # warm the driver and the file cache
declare -A times
for _ in $(seq "$repeats"); do
  for launches in 0 2600; do
    times[native/$launches]+="$(wall_ms "$work/launches" "$launches") "
    for config in "${configs[@]}"; do
      read -r name period kib <<<"$config"
      times[$name/$launches]+="$(wall_ms env CUDA_INJECTION64_PATH="$floor" ROOFCHECK_FLOOR=both \
        ROOFCHECK_FLOOR_FLUSH_MS="$period" ROOFCHECK_FLOOR_BUFFER_KIB="$kib" "$work/launches" "$launches") "
    done
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-14s %12s %12s %10s\n' configuration "0 launches" "10,400" "10,400 /native*"
for name in native $(printf '%s\n' "${configs[@]}" | cut -d' ' -f1); do
  printf '%-14s %12s %12s %10s\n' "$name" "$(median <<<"${times[$name/0]}")" "$(median <<<"${times[$name/2600]}")" \
    "$(paired_ratio "${times[$name/2600]}" "${times[native/2600]}")"
done
echo "* the median of the rounds' ratios"
for key in "${!times[@]}"; do echo "  $key: ${times[$key]}"; done | sort
