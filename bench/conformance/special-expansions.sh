#!/usr/bin/env bash
# Measures on the GPU what Nsight Compute's FLOPs hold of each special operation (special-expansions.cu),
# with the accuracy programs' flags. Usage: special-expansions.sh OUT_DIR
#   OUT_DIR gets special-expansions.csv (ncu's raw page, one row per operation) and the logs.
set -u
out=${1:?usage: special-expansions.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o "$out/special-expansions" "$here/special-expansions.cu" > "$out/build.log" 2>&1 || {
  cat "$out/build.log"; exit 2; }
metrics=launch__grid_size,launch__block_size
for p in f d h; do
  for op in add mul fma; do
    metrics+=",smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum"
  done
done
ncu --clock-control none --metrics "$metrics" --force-overwrite -o "$out/special-expansions" \
  "$out/special-expansions" > "$out/ncu.log" 2>&1
status=$?
ncu --import "$out/special-expansions.ncu-rep" --csv --page raw --print-units base > "$out/special-expansions.csv"
rm -f "$out/special-expansions.ncu-rep" "$out/special-expansions"
echo "ncu: exit $status, $(grep -c '^"[0-9]' "$out/special-expansions.csv") kernel rows"
