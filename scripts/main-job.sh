#!/usr/bin/env bash
# The main job on the bundled examples: lint -> (probe -> run, where a GPU is usable) -> report.
# usage: scripts/main-job.sh BUILD_DIR        outputs in BUILD_DIR/main-job/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
roofcheck=$build/bin/roofcheck
out=$build/main-job
rm -rf "$out"
mkdir -p "$out/static"

has() { [ -x "$build/bin/roofcheck-$1" ]; }
gpu_usable() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q "^GPU "; }

echo "$("$roofcheck" --version): the roofline of the bundled examples"
if ! has lint; then
  echo "main-job: error: roofcheck-lint is not built (configure with -DROOFCHECK_WITH_CLANG=ON)" >&2
  exit 2
fi
# Each kernel is estimated for the launch its program makes by default (examples/launches.txt).
while IFS='|' read -r kernel file grid block args; do
  bindings=()
  for a in $args; do bindings+=(--arg "$a"); done
  # The rules' findings for this launch are shown; exit 1 (findings) is what lint is for, 2 is an error.
  status=0
  "$roofcheck" lint "$root/$file" --kernel "$kernel" --grid "$grid" --block "$block" "${bindings[@]}" \
    --json "$out/static/$kernel.json" --quiet 2>/dev/null || status=$?
  [ "$status" -le 1 ] || exit "$status"
done < <(grep -v '^#' "$root/examples/launches.txt")
echo "lint: $(ls "$out/static" | wc -l) kernels estimated -> $out/static/"

report_args=(--static "$out"/static/*.json --html "$out/report.html" --markdown "$out/report.md")
if gpu_usable && has probe && has run; then
  "$roofcheck" probe --quick --out "$out/ceilings.json"
  for program in vector_add matmul transpose softmax; do
    "$roofcheck" run --output-dir "$out/measured" -- "$build/examples/$program" >/dev/null
  done
  report_args+=(--ceilings "$out/ceilings.json" --measured "$out"/measured/*.jsonl)
else
  echo "main-job: no usable GPU here: the report shows static estimates only (no measured dots, no ceilings)"
fi
"$roofcheck" report "${report_args[@]}"
echo "main-job: HTML roofline in $out/report.html, Markdown in $out/report.md"
