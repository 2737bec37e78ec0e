#!/usr/bin/env bash
# Agreement of `roofcheck run` with Nsight Compute on the examples and on the static corpus (bench/corpus):
# every launch profiled by both (roofcheck --samples 0; ncu --clock-control none --cache-control none with
# the metrics roofcheck collected, and once more with its traffic set where it had one, so that each launch
# is compared with ncu counting the same way), compared launch by launch by bench/runtime-compare.py.
# usage: bench/runtime-accuracy.sh BUILD_DIR [OUT_DIR [SETS]]   (SETS: "examples corpus", the default, or
# either; needs a GPU and ncu). ACCURACY_METRICS=LIST: roofcheck collects those (--metrics LIST), ncu too.
set -euo pipefail
build=$(cd "${1:?usage: runtime-accuracy.sh BUILD_DIR [OUT_DIR [SETS]]}" && pwd)
out=${2:-$(mktemp -d)}
sets=${3:-examples corpus}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
run=$build/bin/roofcheck-run
cases=()
[[ " $sets " == *" examples "* ]] &&
  cases+=("examples/vector_add" "examples/matmul 2048 both" "examples/transpose 8192 both" "examples/softmax 65536 1024 both")
# Each corpus program runs every kernel of its file at the size launches.txt records, 3 times: the full set,
# no counters (right after a replay), the traffic set.
[[ " $sets " == *" corpus "* ]] &&
  cases+=("bench/corpus/corpus-streaming --reps 3" "bench/corpus/corpus-stencil --reps 3"
    "bench/corpus/corpus-reduction --reps 3" "bench/corpus/corpus-control --reps 3")
for case in "${cases[@]}"; do
  read -r -a argv <<<"$case"
  program=$build/${argv[0]}
  name=$(basename "${argv[0]}")
  dir=$out/$name
  rm -rf "$dir" && mkdir -p "$dir"
  "$run" --samples 0 ${ACCURACY_METRICS:+--metrics "$ACCURACY_METRICS"} --output-dir "$dir" -- "$program" \
    "${argv[@]:1}" >"$dir/roofcheck.stdout" 2>"$dir/roofcheck.stderr"
  "$program" "${argv[@]:1}" >"$dir/native.stdout"
  file=$(ls "$dir"/roofcheck.*.measured.jsonl | head -1)
  header_list() { # a list from the measured file's header options, comma-separated
    python3 -c 'import json,sys; h=json.loads(open(sys.argv[1]).readline()); print(",".join(h["options"].get(sys.argv[2]) or []))' \
      "$file" "$1"
  }
  metrics=$(header_list collected_metrics)
  ncu --clock-control none --cache-control none \
    --metrics "${metrics:-gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum}" \
    --csv --print-units base "$program" "${argv[@]:1}" >"$dir/ncu.csv" 2>"$dir/ncu.stderr"
  traffic=$(header_list traffic_metrics)
  [[ -z $traffic ]] ||
    ncu --clock-control none --cache-control none --metrics "$traffic" --csv --print-units base \
      "$program" "${argv[@]:1}" >"$dir/ncu-traffic.csv" 2>"$dir/ncu-traffic.stderr"
  if diff <(grep -v '^time:' "$dir/native.stdout") <(grep -v '^time:' "$dir/roofcheck.stdout") >/dev/null; then
    echo "== $case: program output identical with and without the shim"
  else
    echo "== $case: PROGRAM OUTPUT DIFFERS with the shim"
  fi
  python3 "$here/runtime-compare.py" "$file" "$dir/ncu.csv" ${traffic:+"$dir/ncu-traffic.csv"}
done
