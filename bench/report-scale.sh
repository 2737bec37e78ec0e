#!/usr/bin/env bash
# The report on a long run: generates a measured file of LAUNCHES launches (bench/report-scale.py, default
# 10,000,000) and times `roofcheck report` on it, with its peak memory (GNU time). Targets (issue #17):
# at most 30 s and 1 GiB on the 2-core development machine. BASELINE_BUILD=DIR times that build's report too,
# run for run in turn with this one, on the same file.
# usage: bench/report-scale.sh BUILD_DIR [LAUNCHES] [SCRATCH_DIR]
set -euo pipefail
build=$(cd "${1:?usage: report-scale.sh BUILD_DIR [LAUNCHES] [SCRATCH_DIR]}" && pwd)
launches=${2:-10000000}
scratch=$(mktemp -d "${3:-${TMPDIR:-/tmp}}/report-scale.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/report-scale.py" "$launches" "$scratch/run.jsonl"
echo "file: $launches launches, $(stat -c %s "$scratch/run.jsonl") bytes; $(nproc) cores"
cat "$scratch/run.jsonl" >/dev/null # in the page cache for every run alike
builds=("$build")
[ -z "${BASELINE_BUILD:-}" ] || builds+=("$(cd "$BASELINE_BUILD" && pwd)")
for run in 1 2 3; do
  for b in "${builds[@]}"; do
    /usr/bin/time -f "run $run, $b: %e s wall, %U s user, %S s sys, %M KiB peak" \
      "$b/bin/roofcheck-report" "$scratch/run.jsonl" --quiet --json "$scratch/report.json"
  done
done
