#!/usr/bin/env bash
# The README's two commands:
#   scripts/setup.sh main   install what is missing, build, run roofcheck on the bundled examples
#   scripts/setup.sh test   install what is missing, build, run every test, then the sanitizer suite:
#                           the same tests but the fuzz smoke, in an AddressSanitizer + UBSan build
#                           (build-asan/, or $ROOFCHECK_ASAN_BUILD_DIR; docs/reliability.md)
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

# configure_and_build DIR [CMAKE-OPTION...]
configure_and_build() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$root" -B "$dir" -G Ninja -DCUDAToolkit_ROOT="$cuda" "$@" >"$dir.configure.log" 2>&1 || {
      cat "$dir.configure.log" >&2
      exit 2
    }
    rm -f "$dir.configure.log"
  fi
  ninja -C "$dir" --quiet
}

configure_and_build "$build"
if [ "$mode" = main ]; then
  exec "$root/scripts/main-job.sh" "$build"
fi

# The official SARIF 2.1.0 schema, for the test that validates `roofcheck lint --sarif` (fetched once).
fetch_sarif_schema() {
  local schema=$1/third-party/sarif-2.1.0-rtm.5.json
  [ -f "$schema" ] || /usr/bin/python3 "$root/test/tools/fetch-sarif-schema.py" "$schema" || {
    echo "setup: error: cannot fetch the SARIF 2.1.0 schema (registry.npmjs.org) for the tests" >&2
    exit 2
  }
}
fetch_sarif_schema "$build"

status=0
ctest --test-dir "$build" --output-on-failure --timeout 1800 || status=1

# The sanitizer suite. A report aborts the program (UBSan does not recover), but a test that expects a
# failure would pass on that abort too, so every report also goes to a log file, and any log fails the run.
asan=${ROOFCHECK_ASAN_BUILD_DIR:-$root/build-asan}
# -O0 (Debug): instrumented -O2 code takes three times as long to compile; the suite's programs are short.
configure_and_build "$asan" -DROOFCHECK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
fetch_sarif_schema "$asan"
reports=$asan/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
echo "setup: the sanitizer suite (AddressSanitizer + UndefinedBehaviorSanitizer, $asan)"
ctest --test-dir "$asan" --exclude-regex '^fuzz-smoke$' --output-on-failure --timeout 1800 || status=1
if [ -n "$(ls -A "$reports")" ]; then
  echo "setup: sanitizer reports (in $reports):" >&2
  cat "$reports"/* >&2
  status=1
fi
exit $status
