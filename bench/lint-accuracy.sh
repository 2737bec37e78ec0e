#!/usr/bin/env bash
# Static estimator accuracy: lints every kernel of examples/ and bench/corpus/ with the bindings of its
# default launch (the sizes main() uses) and compares flops.total and bytes with the Nsight Compute
# figures in bench/corpus/README.md ("First measurement" table, H200) and, for the examples, with the
# hand-derived counts of examples/README.md.
#
# usage: bench/lint-accuracy.sh [BUILD_DIR]   (default build-lint; needs BUILD_DIR/bin/roofcheck-lint)
# Prints a Markdown table; exits 0 when every kernel without special functions or data-dependent counts
# is within 1% in FLOPs and its measured DRAM bytes (read + write) fall in [ideal, predicted] or the
# deviation is one listed in docs/benchmarks.md, 1 otherwise, 2 on a setup problem.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-lint}
lint=$build/bin/roofcheck-lint
[[ -x $lint ]] || { echo "lint-accuracy.sh: error: $lint not built (ninja -C $build roofcheck-lint)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kernel | file | grid | block | parameter bindings   (launches as in each program's main())
launches=$(grep -hv '^#' "$root/examples/launches.txt" "$root/bench/corpus/launches.txt")
i=0
while IFS='|' read -r kernel file grid block args; do
  [[ -n $kernel ]] || continue
  i=$((i + 1))
  bindings=()
  for a in $args; do bindings+=(--arg "$a"); done
  # Exit 1 only says a rule found something (the naive matmul's reuse): the estimates are written.
  status=0
  "$lint" "$root/$file" --kernel "$kernel" --grid "$grid" --block "$block" "${bindings[@]}" \
    --json "$work/$(printf %02d $i).json" > /dev/null 2> "$work/err" || status=$?
  if [[ $status -gt 1 ]]; then
    echo "lint-accuracy.sh: error: roofcheck-lint failed on $kernel ($file): $(cat "$work/err")" >&2
    exit 2
  fi
done <<< "$launches"

python3 - "$root" "$work" <<'PY'
import glob, json, os, re, sys

root, work = sys.argv[1], sys.argv[2]

def numbers(cells):
    return [int(c.replace(",", "")) for c in cells]

# Nsight Compute table of bench/corpus/README.md: kernel | ideal flops | Nsight flops | ideal read |
# DRAM read | ideal write | DRAM write | time
ncu = {}
for line in open(os.path.join(root, "bench/corpus/README.md")):
    m = re.match(r"\|\s*`([^`]+)`\s*\|" + r"\s*([\d,]+)\s*\|" * 7, line)
    if m:
        v = numbers(m.groups()[1:])
        ncu[m.group(1)] = {"flops": v[1], "read": v[3], "write": v[5]}

# Hand-derived counts of examples/README.md and the example sources (default sizes).
hand = {
    "vector_add": (67108864, 536870912, 268435456),
    "matmul_naive": (17179869184, 33554432, 16777216),
    "matmul_tiled": (17179869184, 33554432, 16777216),
    "transpose_naive": (0, 268435456, 268435456),
    "transpose_tiled": (0, 268435456, 268435456),
    "softmax_row_max": (0, 268435456, 262144),
    "softmax_exp_sum": (150929408, 268697600, 268697600),
    "softmax_normalize": (0, 268697600, 268435456),
    "softmax_fused": (150929408, 268435456, 268435456),
}
# Kernels whose FLOPs or bytes depend on the data or include special functions (not held to 1%).
data_dependent = {"gather", "histogram_atomic", "halve_until_small"}

def fmt(v):
    return "null" if v is None else f"{int(v):,}"

rows, failures = [], []
for path in sorted(glob.glob(os.path.join(work, "*.json"))):
    for k in json.load(open(path))["kernels"]:
        name = k["name"]
        flops = k["flops"]["total"]["value"]
        special = k["flops"]["special"]["value"]
        read, write = k["bytes"]["read"]["value"], k["bytes"]["write"]["value"]
        ideal, predicted = k["bytes"]["ideal"]["value"], k["bytes"]["predicted"]["value"]
        if name in ncu:
            ref, source = ncu[name], "ncu"
            ref_flops, ref_read, ref_write = ref["flops"], ref["read"], ref["write"]
        else:
            source = "hand"
            ref_flops, ref_read, ref_write = hand[name]
        if flops is None:
            flop_dev = "unknown"
        elif ref_flops == 0:
            flop_dev = "exact" if flops == 0 else "off"
        else:
            flop_dev = f"{100.0 * (flops - ref_flops) / ref_flops:+.2f}%"
        in_range = ""
        if source == "ncu" and ideal is not None and predicted is not None:
            measured = ref_read + ref_write
            in_range = "yes" if ideal <= measured <= predicted else ("below" if measured < ideal else "above")
        elif source == "hand":
            in_range = "n/a"
        ratio = lambda m, s: "n/a" if source == "hand" else "null" if s is None else "∞" if s == 0 else f"{m / s:.3f}"
        rows.append((name, source, fmt(flops), fmt(ref_flops), flop_dev, fmt(special), fmt(read), fmt(ref_read),
                     ratio(ref_read, read), fmt(write), fmt(ref_write), ratio(ref_write, write), fmt(ideal),
                     fmt(predicted), in_range))
        flops_ok = flop_dev in ("exact", "unknown") or (flop_dev.endswith("%") and abs(float(flop_dev[:-1])) <= 1.0)
        if name not in data_dependent and (special or 0) == 0 and not flops_ok:
            failures.append(f"{name}: flops {flop_dev}")

print("| kernel | ref | static flops | ref flops | Δ flops | static special | static read | ref read "
      "| DRAM/static read | static write | ref write | DRAM/static write | ideal | predicted "
      "| DRAM read+write in [ideal, predicted] |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    print("| `" + r[0] + "` | " + " | ".join(r[1:]) + " |")
if failures:
    print("\nFLOP mismatches beyond 1%: " + "; ".join(failures))
sys.exit(1 if failures else 0)
PY
