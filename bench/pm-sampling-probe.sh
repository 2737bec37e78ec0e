#!/usr/bin/env bash
# PM sampling on a GPU machine (issue #18, item 1): bench/pm-sampling-probe.cu's launches with their sampled
# DRAM bytes (INTERVALS in ns, default "1000 10000"), then the same launches counted by ncu alone, and the
# per-launch comparison (launches of at least 20 us: within 5% of ncu?) and per-kernel totals.
# usage: bench/pm-sampling-probe.sh BUILD_DIR OUT_DIR [INTERVALS]
#   CACHE_CONTROL=none: ncu leaves L2 as the previous launch left it (default all: flushed before each launch)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
intervals=${3:-1000 10000}
mkdir -p "$out"
probe=$build/bench/roofcheck-pm-sampling-probe
for interval in $intervals; do
  "$probe" "$interval" "$out/samples-$interval.csv" >"$out/pm-$interval.txt" 2>&1
  echo "interval $interval: exit $?; $(head -3 "$out/pm-$interval.txt" | tr '\n' ' ')"
done
# The probe without sampling runs the workload twice (warm-up, then the one measured): ncu counts both.
ncu --clock-control none --cache-control "${CACHE_CONTROL:-all}" --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum --csv \
  "$probe" --no-sampling >"$out/ncu.csv" 2>"$out/ncu.stderr"
echo "ncu exit $?"
python3 - "$out" $intervals <<'PY'
import csv, sys
from collections import defaultdict
out, intervals = sys.argv[1], sys.argv[2:]
rows = [r for r in csv.reader(l for l in open(f"{out}/ncu.csv") if l.startswith('"'))]
header, rows = rows[0], rows[1:]
launches = defaultdict(dict)
for row in rows:
    r = dict(zip(header, row))
    launches[int(r["ID"])][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
ids = sorted(launches)
measured = [launches[i] for i in ids[len(ids) // 2:]]  # the second workload run
for interval in intervals:
    lines = open(f"{out}/pm-{interval}.txt").read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("kernel bytes")), None)
    if start is None:
        print(f"\ninterval {interval} ns: no launches sampled ({'; '.join(lines[:2])})")
        continue
    probe = [l.split() for l in lines[start + 1:] if not l.startswith("warning")]
    print(f"\ninterval {interval} ns: {len(probe)} launches sampled, {len(measured)} counted by ncu")
    if len(probe) != len(measured):
        print("  launch counts differ: no comparison")
        continue
    print(f"  {'kernel':6} {'MiB':>6} {'us':>8} {'read/ncu':>9} {'write/ncu':>9} {'shared':>6}")
    within, long_launches = 0, 0
    totals = defaultdict(lambda: [0.0] * 6)
    for p, n in zip(probe, measured):
        kernel, size, us = p[0], int(p[1]), float(p[2])
        sr, sw = float(p[4]), float(p[7])
        nr, nw = n["dram__bytes_read.sum"], n["dram__bytes_write.sum"]
        rr = sr / nr if nr else float("nan")
        wr = sw / nw if nw else float("nan")
        key = f"{kernel} {size >> 20} MiB"
        t = totals[key]
        t[0] += sr; t[1] += nr; t[2] += sw; t[3] += nw; t[4] += float(p[3]); t[5] += float(p[6])
        if us >= 20:
            long_launches += 1
            ok = all(abs(x - 1) <= 0.05 for x, base in ((rr, nr), (wr, nw)) if base > 1e6)
            within += ok
        print(f"  {kernel:6} {size >> 20:6} {us:8.1f} {rr:9.4f} {wr:9.4f} {p[10]:>6}")
    print(f"  launches of at least 20 us within 5% of ncu (read and write over 1 MB): {within} of {long_launches}")
    print("  per kernel and size, over the five launches: sampled/ncu read, write; sampled/ideal read, write")
    ratio = lambda a, b: a / b if b else float("nan")
    for key, (sr, nr, sw, nw, er, ew) in totals.items():
        print(f"    {key:16} {ratio(sr, nr):8.4f} {ratio(sw, nw):8.4f} {ratio(sr, er):8.4f} {ratio(sw, ew):8.4f}")
PY
