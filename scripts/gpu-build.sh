#!/usr/bin/env bash
# Configures and builds the GPU side (runtime, probes, examples) on a machine with CUDA but without
# LLVM 22, such as the lent H200. Test tools come from .gpukit/ (made by scripts/make-gpukit.sh on the
# development machine) when the machine has none of its own.
# usage: scripts/gpu-build.sh [BUILD_DIR]   (default build-gpu). ROOFCHECK_GIT_REVISION=REV names the
# revision the binaries report where the tree's git metadata is not its own (a copy on the lent machine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}
kit=$root/.gpukit
# A partial build: the suites' tests that need Clang, the schema tools or no GPU at all are listed as not
# run, rather than failing their suites (CI runs those in full).
args=(-G Ninja -DROOFCHECK_WITH_CLANG=OFF -DROOFCHECK_FULL_SUITES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
  -DROOFCHECK_GIT_REVISION="${ROOFCHECK_GIT_REVISION:-}")
if [ -d "$kit" ]; then
  export PATH=$kit/bin:$PATH
  export LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  args+=(-DROOFCHECK_LIT=$kit/bin/lit -DROOFCHECK_FILECHECK=$kit/bin/FileCheck -DGTEST_ROOT=$kit/gtest)
fi
cmake -S "$root" -B "$build" "${args[@]}"
cmake --build "$build" -j "$(nproc)"
