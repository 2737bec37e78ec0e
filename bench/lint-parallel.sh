#!/usr/bin/env bash
# Scaling of `roofcheck lint -j N` over a compilation database: every example TU (examples/*.cu) linted
# with -j 1 and with -j 2, alternating, several runs each, in one go. Target: the median wall time at
# -j 2 is at most 0.65x the median at -j 1 (on a machine with at least 2 free cores).
#
# usage: bench/lint-parallel.sh [BUILD_DIR] [RUNS]   (defaults: build, 5)
# Exits 0 when the ratio is at most 0.65, 1 when above, 2 on a setup problem.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
lint=$build/bin/roofcheck-lint
[[ -x $lint ]] || { echo "lint-parallel.sh: error: $lint not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The database the examples' own build would write: nvcc commands, one per TU.
/usr/bin/python3 - "$root/examples" "$work/compile_commands.json" <<'PY'
import glob, json, os, sys
examples, out = sys.argv[1:]
files = sorted(glob.glob(os.path.join(examples, "*.cu")))
json.dump([{"directory": examples, "file": f, "command": f"nvcc -O3 -arch=sm_90 -c {f} -o {os.path.basename(f)}.o"}
           for f in files], open(out, "w"))
print(f"{len(files)} translation units: {' '.join(os.path.basename(f) for f in files)}")
PY

/usr/bin/python3 - "$runs" "$lint" "$work" <<'PY'
import os, statistics, subprocess, sys, time

runs, lint, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
times = {1: [], 2: []}
outputs = {}
for _ in range(runs):
    for jobs in (1, 2):
        start = time.perf_counter()
        done = subprocess.run([lint, "-p", work, "-j", str(jobs), "--quiet"], capture_output=True, text=True)
        times[jobs].append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(f"lint-parallel.sh: error: -j {jobs} failed: {done.stderr.strip()}")
        outputs.setdefault(jobs, done.stdout)
if outputs[1] != outputs[2]:
    sys.exit("lint-parallel.sh: error: -j 1 and -j 2 printed different findings")
print(f"cores: {os.cpu_count()}, runs: {runs} each, alternating")
for jobs in (1, 2):
    t = times[jobs]
    print(f"-j {jobs}: median {statistics.median(t):.2f} s (min {min(t):.2f}, max {max(t):.2f})")
ratio = statistics.median(times[2]) / statistics.median(times[1])
print(f"ratio -j 2 / -j 1: {ratio:.2f} (target <= 0.65)")
sys.exit(0 if ratio <= 0.65 else 1)
PY
