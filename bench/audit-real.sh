#!/usr/bin/env bash
# Test data for `roofcheck audit` on kernels we did not write: HeCBench's rodrigues (rotate, rotate2: outputs
# of 240 and 320 MB, larger than the H200's L2) and nbody (update_particles and friends: 16,000 particles,
# everything in L2), measured on the H200 with their own Makefiles and run arguments (accuracy.json), and
# linted here from a copy of their sources with true claims of ours written above the kernels. Only our
# outputs are committed (test/audit/Inputs/hecbench-*), never their sources.
#
# usage: bench/audit-real.sh stage CORPUS_DIR STAGE_DIR   copy the two programs out of the corpus checkout
#        bench/audit-real.sh record STAGE_DIR OUT_DIR     on the GPU machine: build, run under roofcheck run
#        bench/audit-real.sh static STAGE_DIR OUT_DIR     here: insert the claims, lint with the Makefiles' flags
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 3 ] || { sed -n '8,10p' "$0" >&2; exit 2; }
mode=$1 from=$2 to=$3
programs=(rodrigues nbody)
declare -A run_args=([rodrigues]="20000000 10" [nbody]="16000 5")
declare -A lint_files=([rodrigues]="main.cu" [nbody]="GSimulation.cu")

# Our claims, one per kernel: the file, the line that starts the kernel's declaration, the claim text. The
# figures are derived by hand: rodrigues reads and writes 12 (float3) or 16 (float4) bytes an element;
# nbody's Particle is 40 bytes, update_particles does 6 FMAs and a mass * |v|^2 (18 FLOPs) a particle, and
# accelerate_particles 19 FLOPs a pair (one reciprocal square root apart, in its own bucket).
claims() {
  cat <<'EOF'
rodrigues/main.cu	7	bytes == 24 * n; bytes.read == 12 * n; bytes.write == 12 * n
rodrigues/main.cu	38	bytes == 32 * n; bytes.write == 16 * n
nbody/GSimulationKernels.hpp	1	flops == 19 * n * n
nbody/GSimulationKernels.hpp	37	flops == 18 * n; bytes == 80 * n; bytes.write == 40 * n
nbody/GSimulationKernels.hpp	66	flops == (n - 1) * gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z
EOF
}

case $mode in
stage)
  mkdir -p "$to"
  for p in "${programs[@]}"; do
    rm -rf "${to:?}/$p"
    cp -r "$from/hecbench/src/$p-cuda" "$to/$p"
  done
  ;;
record)
  mkdir -p "$to"
  to=$(cd "$to" && pwd)
  build=$root/build-gpu
  [ -x "$build/bin/roofcheck-run" ] || { echo "audit-real.sh: build the runtime side first (scripts/gpu-build.sh)" >&2; exit 2; }
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$to/clocks-before.txt"
  for p in "${programs[@]}"; do
    (cd "$from/$p" && make -s ARCH=sm_90 > "$to/$p.build.log" 2>&1)
    mkdir -p "$to/$p"
    # The default counter sets: the first 3 launches of each signature sampled, every second one in one pass.
    (cd "$from/$p" && "$build/bin/roofcheck-run" --output-dir "$to/$p" -- ./main ${run_args[$p]}) \
      > "$to/$p.run.log" 2>&1
  done
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$to/clocks-after.txt"
  ;;
static)
  mkdir -p "$to"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$from/." "$work/"
  # Bottom-up within a file, so that each insertion leaves the line numbers above it alone.
  claims | sort -t$'\t' -k1,1 -k2,2nr | while IFS=$'\t' read -r file line text; do
    sed -i "${line}i // roofcheck-claim: $text" "$work/$file"
  done
  for p in "${programs[@]}"; do
    (cd "$work/$p" && "$root/build/bin/roofcheck-lint" --quiet --json "$to/hecbench-$p.static.json" \
      ${lint_files[$p]} -- -std=c++17 -Xcompiler -Wall -arch=sm_90 -O3) || [ $? -eq 1 ] # 1: findings
  done
  ;;
*)
  sed -n '8,10p' "$0" >&2
  exit 2
  ;;
esac
