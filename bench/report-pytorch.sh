#!/usr/bin/env bash
# Records the report's real-program test data on a GPU machine: bench/report-pytorch.py (a bf16 MLP
# training loop with AdamW) under `roofcheck run` with the default metrics, for STEPS steps (default 4).
# Builds only the runtime (no LLVM needed); writes OUT_DIR/pytorch-mlp.measured.jsonl, the program's
# output with and without the shim, and the shim's messages.
# usage: bench/report-pytorch.sh OUT_DIR [STEPS]   (needs a GPU and python3 with torch)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
steps=${2:-4}
build=$root/build-gpu
cmake -S "$root" -B "$build" -G Ninja -DROOFCHECK_WITH_CLANG=OFF -DROOFCHECK_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$out/build.log" 2>&1 &&
  cmake --build "$build" --target roofcheck-run roofcheck-inject >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 2; }
python3 "$root/bench/report-pytorch.py" "$steps" >"$out/native.stdout" 2>&1
echo "native exit=$?"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$build/bin/roofcheck-run" --output-dir "$scratch" -- python3 "$root/bench/report-pytorch.py" "$steps" \
  >"$out/shim.stdout" 2>"$out/shim.stderr"
echo "shim exit=$?"
cmp -s "$out/native.stdout" "$out/shim.stdout" && echo "output identical" || echo "output DIFFERS"
files=("$scratch"/roofcheck.*.measured.jsonl)
[ "${#files[@]}" -eq 1 ] || { echo "expected one measured file, got ${#files[@]}"; exit 1; }
cp "${files[0]}" "$out/pytorch-mlp.measured.jsonl"
echo "launches: $(grep -cE '"record": ?"launch"' "$out/pytorch-mlp.measured.jsonl"), bytes: $(wc -c <"$out/pytorch-mlp.measured.jsonl")"
