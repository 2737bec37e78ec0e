#!/usr/bin/env bash
# Registers per thread three ways for the kernels of bench/registers-probe.cu, on a GPU machine:
# the function attribute (numRegs), CUPTI's kernel activity record (`roofcheck run --metrics time`, no
# replay) and Nsight Compute's launch__registers_per_thread. usage: bench/registers-probe.sh BUILD OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
mkdir -p "$out/probe-measured"
nvcc -O3 -arch=sm_90 -o "$out/registers-probe" "$root/bench/registers-probe.cu"
"$out/registers-probe" >"$out/registers-attribute.txt"
"$build/bin/roofcheck" run --metrics time --output-dir "$out/probe-measured" -- "$out/registers-probe" >/dev/null
ncu --clock-control none --metrics launch__registers_per_thread --csv "$out/registers-probe" >"$out/registers-ncu.csv"
python3 - "$out" "$root/bench" <<'PY'
import csv, glob, json, re, sys
out = sys.argv[1]
attribute = {}
for line in open(f"{out}/registers-attribute.txt"):
    m = re.match(r"(pressure<\d+>) numRegs (\d+)", line)
    if m:
        attribute[m.group(1)] = int(m.group(2))
sys.path.insert(0, sys.argv[2])
import measured
activity = {}
for path in glob.glob(f"{out}/probe-measured/*.jsonl"):
    for launch in measured.launches(path):
        activity[re.sub(r"^void |\(.*$", "", launch["name"])] = launch["registers"]
ncu = {}
rows = [row for row in csv.reader(l for l in open(f"{out}/registers-ncu.csv") if l.startswith('"'))]
header = rows[0]
for row in rows[1:]:
    r = dict(zip(header, row))
    ncu[re.sub(r"^void |\(.*$", "", r["Kernel Name"])] = int(float(r["Metric Value"]))
print("kernel            attribute  activity  ncu")
for name in attribute:
    print(f"{name:16} {attribute[name]:10} {activity.get(name, '-'):>9} {ncu.get(name, '-'):>4}")
PY
