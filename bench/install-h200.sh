#!/usr/bin/env bash
# The GPU side as installed: on a GPU machine without LLVM 22 (the lent H200), build the GPU side
# (scripts/gpu-build.sh), run its test suites, build the Debian packages, unpack them into a scratch root
# and, with the unpacked tools only, probe the ceilings (--quick), measure an example and report on it
# against its static file (linted elsewhere: scripts/main-job.sh writes build/main-job/static).
# usage: bench/install-h200.sh OUT_DIR [STATIC_FILE]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=$root/build-gpu
"$root/scripts/gpu-build.sh" "$build" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 2; }
export PATH=$root/.gpukit/bin:$PATH LD_LIBRARY_PATH=$root/.gpukit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ctest --test-dir "$build" -E fuzz-smoke >"$out/ctest.log" 2>&1
grep -E "tests passed|tests failed|run-lit-suite" "$out/ctest.log"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$build" && cpack -G DEB -B "$scratch/packages") >"$out/cpack.log" 2>&1 || { tail -20 "$out/cpack.log"; exit 2; }
for deb in "$scratch"/packages/*.deb; do
  echo "== $(basename "$deb")"
  dpkg-deb -f "$deb" Package Version Depends
  dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$'
  dpkg -x "$deb" "$scratch/root"
done
installed=$scratch/root/usr/bin/roofcheck
"$installed" probe --quick --only dram,fp32 --out "$scratch/ceilings.json" 2>&1 | tail -3
mkdir -p "$scratch/measured"
"$installed" run --output-dir "$scratch/measured" -- "$build/examples/vector_add"
echo "exit=$?"
static=()
[ -n "${2:-}" ] && static=(--static "$2")
"$installed" report "${static[@]}" --measured "$scratch"/measured/*.jsonl --ceilings "$scratch/ceilings.json" | head -12
cp "$scratch"/measured/*.jsonl "$out/" 2>/dev/null
