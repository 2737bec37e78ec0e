#!/usr/bin/env bash
# The README's two commands:
#   scripts/setup.sh main   install what is missing, build, run roofcheck on the bundled examples
#   scripts/setup.sh test   install what is missing, build, run every test
# Idempotent, and quiet when nothing is missing. Exit 2 when the machine cannot be set up.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${ROOFCHECK_BUILD_DIR:-$root/build}
mode=${1:-}
case "$mode" in
  main|test) ;;
  *) echo "usage: scripts/setup.sh main|test" >&2; exit 2 ;;
esac

# Debian packages the build and the tests need.
packages=(cmake ninja-build g++ python3 git
          clang-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev llvm-22-tools
          nlohmann-json3-dev libgtest-dev python3-jsonschema chromium libclang-rt-22-dev pre-commit)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# CUDA 13 is not a Debian package: check for it and say where to get it.
cuda=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
if ! "$cuda/bin/nvcc" --version 2>/dev/null | grep -q "release 13\."; then
  echo "setup: error: no CUDA 13 toolkit at $cuda (set CUDA_HOME to another place); get it from https://developer.nvidia.com/cuda-downloads" >&2
  exit 2
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCUDAToolkit_ROOT="$cuda" >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2
    exit 2
  }
  rm -f "$build.configure.log"
fi
ninja -C "$build" --quiet

if [ "$mode" = test ]; then
  # The official SARIF 2.1.0 schema, for the test that validates `roofcheck lint --sarif` (fetched once).
  schema=$build/third-party/sarif-2.1.0-rtm.5.json
  [ -f "$schema" ] || /usr/bin/python3 "$root/test/tools/fetch-sarif-schema.py" "$schema" || {
    echo "setup: error: cannot fetch the SARIF 2.1.0 schema (registry.npmjs.org) for the tests" >&2
    exit 2
  }
  exec ctest --test-dir "$build" --output-on-failure --timeout 1800
fi
exec "$root/scripts/main-job.sh" "$build"
