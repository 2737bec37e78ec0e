# Sourced by bench/runtime-overhead.sh, bench/runtime-floor.sh and bench/runtime-floor-settings.sh with $build
# set (the build folder): the program of short launches they time (bench/runtime-launches.cu, built as
# $work/launches in a scratch folder removed at exit), what they run it under ($run, roofcheck-run; $floor,
# the CUPTI floor of bench/cupti-floor.cpp, where built), and their timer, wall_ms COMMAND...: runs the
# command quietly and prints its wall time in ms; a failing command ends the script with its stderr;
# require_floor (below); paired_ratio "A1 A2 ..." "B1 B2 ...": the median of the ratios Ai / Bi, runs i of a
# round being back to back, so that slow drifts of the machine cancel. Needs nvcc.
run=$build/bin/roofcheck-run
floor=$build/bench/libroofcheck-cupti-floor.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -arch=sm_90 -o "$work/launches" "$(dirname "${BASH_SOURCE[0]}")/runtime-launches.cu"

wall_ms() {
  local start end
  start=$(date +%s%N)
  "$@" >"$work/stdout" 2>"$work/stderr" || { echo "failed: $*" >&2; cat "$work/stderr" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

# require_floor SCRIPT: ends SCRIPT when the CUPTI floor library was not built.
require_floor() {
  [ -f "$floor" ] || { echo "$1: $floor is missing (build the runtime first)" >&2; exit 2; }
}

paired_ratio() {
  paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) | awk '{ print $1 / $2 }' | sort -g |
    awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'
}
