#!/usr/bin/env bash
# Speed of the static estimator: `roofcheck lint` on one example TU against
# `clang++-22 -fsyntax-only --cuda-device-only` on the same file (medians of several runs).
# Target: lint <= 1.5x the syntax-only parse.
#
# usage: bench/lint-speed.sh [BUILD_DIR] [FILE] [RUNS]   (defaults: build-lint, examples/matmul.cu, 7)
# Exits 0 when the ratio is at most 1.5, 1 when above, 2 on a setup problem.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-lint}
file=${2:-$root/examples/matmul.cu}
runs=${3:-7}
lint=$build/bin/roofcheck-lint
clang=$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)
[[ -x $lint ]] || { echo "lint-speed.sh: error: $lint not built" >&2; exit 2; }
[[ -x $clang ]] || { echo "lint-speed.sh: error: clang++-22 not found" >&2; exit 2; }
cuda=${CUDA_PATH:-/usr/local/cuda}

python3 - "$runs" "$lint" "$clang" "$file" "$cuda" <<'PY'
import statistics, subprocess, sys, time

runs, lint, clang, source, cuda = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
commands = {
    "roofcheck lint": [lint, source],
    "clang++ -fsyntax-only --cuda-device-only": [clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                                                 "--cuda-path=" + cuda, "-Wno-unknown-cuda-version", "-fsyntax-only",
                                                 source],
}
medians = {name: [] for name in commands}
for command in commands.values():
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # warm the file cache
# The two commands alternate run by run, so that load from other processes hits both alike.
for _ in range(runs):
    for name, command in commands.items():
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        medians[name].append(time.perf_counter() - start)
lint_s = statistics.median(medians["roofcheck lint"])
clang_s = statistics.median(medians["clang++ -fsyntax-only --cuda-device-only"])
ratio = lint_s / clang_s
print(f"file: {source}, runs: {runs} each (alternating)")
for name, times in medians.items():
    print(f"{name:45s} median {statistics.median(times):.3f} s  (min {min(times):.3f}, max {max(times):.3f})")
print(f"ratio lint / syntax-only: {ratio:.2f} (target <= 1.5)")
sys.exit(0 if ratio <= 1.5 else 1)
PY
