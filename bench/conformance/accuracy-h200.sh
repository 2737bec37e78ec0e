#!/usr/bin/env bash
# The GPU half of the static accuracy benchmark (accuracy.py is the other half): on a GPU machine without
# LLVM, builds roofcheck's runtime side, then for every program of accuracy.json builds it with its own
# build command in a copy of its checkout, runs it once under `roofcheck run --metrics time` (each launch's
# grid, block and scalar arguments, no replay) and once under Nsight Compute (the first launch of every
# kernel configuration: FLOPs per precision, DRAM bytes, duration), never both at once (one CUPTI client at a
# time). Clocks are never set: they are logged before and after.
#
# usage: bench/conformance/accuracy-h200.sh CORPUS_COPY OUT_DIR [PROGRAM...]
#   CORPUS_COPY  a folder holding each program's `dir` of accuracy.json (bench/conformance/accuracy.py
#                --stage writes one); builds happen in it
#   OUT_DIR      gets logs/, measured/<program>/, ncu/<program>.csv and sass/<program>.json (each function's
#                fp16 instructions and how many are register moves: source-convention/sass-fp16.py)
# ACCURACY_STEP_TIMEOUT_S (default 120) bounds each build and each run. The builds run side by side.
# ACCURACY_CONVENTION=source builds every program with source-convention/nvcc (special functions and
# divisions turned into integer operations, packed halves into one instruction a lane): ncu's FLOPs are
# then its count in the source convention, the referee for kernels with special functions or packed
# halves (accuracy.py --source-results). Give it a CORPUS_COPY and OUT_DIR of its own.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: accuracy-h200.sh CORPUS_COPY OUT_DIR [PROGRAM...]" >&2; exit 2; }
corpus=$(cd "$1" && pwd) || exit 2
out=$2
shift 2
limit=${ACCURACY_STEP_TIMEOUT_S:-120}
# The PATH the programs are built with (roofcheck's own build keeps the real nvcc).
case ${ACCURACY_CONVENTION:-hardware} in
hardware) program_path=$PATH ;;
source) program_path="$here/source-convention:$PATH" ;; # its nvcc runs the toolkit's
*) echo "accuracy-h200.sh: error: ACCURACY_CONVENTION is 'hardware' or 'source'" >&2; exit 2 ;;
esac
mkdir -p "$out/logs" "$out/measured" "$out/ncu" "$out/sass"
out=$(cd "$out" && pwd)

build=$root/build-gpu
if [ ! -x "$build/bin/roofcheck-run" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DROOFCHECK_WITH_CLANG=OFF -DROOFCHECK_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$out/logs/roofcheck-build.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >> "$out/logs/roofcheck-build.log" 2>&1 ||
    { echo "accuracy-h200.sh: error: roofcheck's runtime side did not build (logs/roofcheck-build.log)" >&2; exit 2; }
fi

# Nsight Compute's FLOP convention per precision (fadd + fmul + 2 ffma), DRAM bytes and the duration.
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for p in f d h; do
  for op in add mul fma; do metrics+=,smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum; done
done

clocks() { nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem --format=csv,noheader; }
echo "clocks before: $(clocks)" | tee "$out/logs/clocks.txt"
ncu --version | tail -1 >> "$out/logs/clocks.txt"

# One line per program: name, dir, build command, binary, then the run arguments (tab-separated).
python3 - "$here/accuracy.json" "$@" > "$out/logs/programs.tsv" <<'PY'
import json, sys
wanted = set(sys.argv[2:])
for p in json.load(open(sys.argv[1]))["programs"]:
    if not wanted or p["program"] in wanted:
        print("\t".join([p["program"], p["dir"], p["build"], p["binary"], *p["run"]]))
PY

# Builds first, side by side (each in its own folder or to its own binary), then the runs one at a time.
build_one() {
  local name=$1 dir=$2 command=$3
  (cd "$corpus/$dir" && PATH=$program_path timeout "$limit" bash -c "$command") > "$out/logs/$name.build.log" 2>&1 ||
    echo "=== $name: build failed: $(tail -2 "$out/logs/$name.build.log")"
}
while IFS=$'\t' read -r -a fields; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  build_one "${fields[0]}" "${fields[1]}" "${fields[2]}" &
done < "$out/logs/programs.tsv"
wait
echo "builds done (${SECONDS} s)"

while IFS=$'\t' read -r -a fields; do
  name=${fields[0]} dir=$corpus/${fields[1]} binary=${fields[3]}
  args=("${fields[@]:4}")
  [ -x "$dir/$binary" ] || continue
  cuobjdump -sass "$dir/$binary" 2>> "$out/logs/$name.build.log" |
    python3 "$here/source-convention/sass-fp16.py" > "$out/sass/$name.json"
  echo "=== $name ($(date +%T), ${SECONDS} s)"
  mkdir -p "$out/measured/$name"
  (cd "$dir" && timeout "$limit" "$build/bin/roofcheck-run" --metrics time --output-dir "$out/measured/$name" \
    -- "$binary" "${args[@]}") > "$out/logs/$name.run.log" 2>&1
  echo "roofcheck run: exit $? ($(tail -1 "$out/logs/$name.run.log"))"
  # The program's own output goes to the log; the CSV comes from the saved report. Launch configurations
  # are told apart by mangled name: by the default base name, a template's instantiations are one kernel.
  (cd "$dir" && timeout "$limit" ncu --clock-control none --kernel-name-base mangled \
    --filter-mode per-launch-config --launch-count 1 \
    --metrics "$metrics" --force-overwrite -o "$out/ncu/$name" "$binary" "${args[@]}") > "$out/logs/$name.ncu.log" 2>&1
  status=$?
  ncu --import "$out/ncu/$name.ncu-rep" --csv --page raw --print-units base --print-kernel-base mangled \
    > "$out/ncu/$name.csv" 2>> "$out/logs/$name.ncu.log"
  rm -f "$out/ncu/$name.ncu-rep"
  echo "ncu: exit $status ($(grep -c '^"[0-9]' "$out/ncu/$name.csv") kernel rows)"
done < "$out/logs/programs.tsv"
echo "clocks after: $(clocks)" | tee -a "$out/logs/clocks.txt"
