#!/usr/bin/env bash
# A short run of every libFuzzer target (the test suite's fuzz smoke): builds them with clang++-22 in a
# build tree of their own, then runs each for SECONDS on its seed corpus, in a scratch copy.
# usage: fuzz-smoke.sh SOURCE_DIR FUZZ_BUILD_DIR [SECONDS]      exit 0 clean, 1 a finding, 77 no Clang
set -euo pipefail
src=$1
build=$2
seconds=${3:-20}
if ! command -v clang++-22 >/dev/null || [ ! -e /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  echo "fuzz smoke skipped: needs clang++-22 and libclang-rt-22-dev"
  exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 -DROOFCHECK_FUZZ=ON \
    -DROOFCHECK_WITH_CLANG=OFF -DROOFCHECK_WITH_CUDA=OFF -DROOFCHECK_BUILD_TESTS=OFF >/dev/null
fi
ninja -C "$build" --quiet fuzz-all

# The cubin reader's seed is a cubin of printing kernels, where nvcc is there to write one.
cubins=$(mktemp -d)
trap 'rm -rf "$cubins"' EXIT
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] && "$nvcc" -arch=sm_90 -cubin -o "$cubins/printing.cubin" "$src/test/unit/runtime/Inputs/printing.cu" ||
  echo "fuzz-cubin: no nvcc, no seed cubin"

# Seeds: the tree's own corpus, plus every sample and test document of the matching kind.
declare -A seeds=(
  [expr]="$src/fuzz/corpus/expr"
  [claims]="$src/fuzz/corpus/claims"
  [static]="$src/docs/schemas/examples/static.json $src/test/report/Inputs/*.static.json $src/test/audit/Inputs/*.static.json"
  [measured]="$src/fuzz/corpus/measured $src/test/report/Inputs/*.jsonl"
  [ceilings]="$src/fuzz/corpus/ceilings $src/docs/schemas/examples/ceilings.json $src/test/report/Inputs/*.ceilings.json"
  [report]="$src/docs/schemas/examples/report.json"
  [nvcc]="$src/fuzz/corpus/nvcc"
  [cubin]="$cubins"
)
status=0
for target in expr claims static measured ceilings report nvcc cubin; do
  work=$(mktemp -d)
  for seed in ${seeds[$target]}; do
    [ -e "$seed" ] && cp -r "$seed" "$work/" 2>/dev/null || true
  done
  find "$work" -mindepth 2 -type f -exec mv -t "$work" {} + 2>/dev/null || true
  log=$work.log
  max_len=4096
  [ "$target" = cubin ] && max_len=32768 # a cubin's section table comes last
  if "$build/fuzz/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
       -artifact_prefix="$build/fuzz/crash-$target-" -print_final_stats=1 "$work" >"$log" 2>&1; then
    runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" || echo "?")
    echo "fuzz-$target: $runs inputs in ${seconds}s, no finding"
  else
    echo "fuzz-$target: FINDING (artifact in $build/fuzz/):"
    grep -E "ERROR|SUMMARY|==[0-9]+==|Test unit written" "$log" | head -20
    status=1
  fi
  rm -rf "$work" "$log"
done
exit $status
