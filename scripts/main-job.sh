#!/usr/bin/env bash
# The main job on the bundled examples: lint -> (probe -> run, where a GPU is usable) -> report.
# usage: scripts/main-job.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
bin=$build/bin
out=$build/main-job
mkdir -p "$out"

has() { [ -x "$bin/roofcheck-$1" ]; }
gpu_usable() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q "^GPU "; }

echo "roofcheck main job on $root/examples ($("$bin/roofcheck" --version))"
examples=("$root"/examples/*.cu)

if ! has lint; then
  echo "main-job: error: roofcheck-lint is not built (configure with -DROOFCHECK_WITH_CLANG=ON)" >&2
  exit 2
fi
# Bindings: the default sizes the example programs launch with.
"$bin/roofcheck" lint "${examples[@]}" --json "$out/examples.static.json" -- -I"$root/examples"

report_args=(--static "$out/examples.static.json")
if gpu_usable && has probe && has run; then
  "$bin/roofcheck" probe --quick --out "$out/ceilings.json"
  for program in vector_add matmul transpose softmax; do
    "$bin/roofcheck" run --output-dir "$out/measured" -- "$build/examples/$program"
  done
  report_args+=(--ceilings "$out/ceilings.json" --measured "$out"/measured/*.jsonl --html "$out/report.html")
else
  echo "main-job: no usable GPU here: static estimates only (no measured dots, no ceilings)"
fi
if has report; then
  "$bin/roofcheck" report "${report_args[@]}"
fi
