#!/usr/bin/env python3
"""Compares a roofcheck measured file with an ncu --csv --print-units base run of the same program,
launch by launch (the n-th launch of a kernel in one against the n-th in the other).

Criteria (docs/runtime.md): DRAM bytes read and written within 2% for launches of at least 20 us, FLOPs per
precision equal, gpu__time_duration within 5%. Prints one row a launch and a verdict line. The referee's own
repeatability is printed too: where ncu's identical launches of a kernel (same program, same arguments)
differ among themselves by more than our difference from them, a DRAM miss is marked as inside that spread
(the L2's state before the kernel, not the counting, decides such numbers); the strict verdict stays.
usage: runtime-compare.py MEASURED.jsonl NCU.csv
"""
import csv
import json
import sys
from collections import defaultdict

SASS = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum"


def flops(metrics, add, mul, fma):
    names = [SASS.format(op) for op in (add, mul, fma)]
    if not all(n in metrics for n in names):
        return None
    return metrics[names[0]] + metrics[names[1]] + 2 * metrics[names[2]]


def short(name):
    return name.split("(")[0].split("<")[0].split(" ")[-1]


def ours(path):
    launches = []
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("record") == "launch" and record.get("profiled"):
                launches.append(record)
    launches.sort(key=lambda r: r["index"])
    by_kernel = defaultdict(list)
    for r in launches:
        by_kernel[short(r["name"])].append(r)
    return by_kernel


def theirs(path):
    rows = defaultdict(dict)
    order = []
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        key = int(row["ID"])
        if key not in rows:
            order.append((key, short(row["Kernel Name"])))
        value = row["Metric Value"].replace(",", "")
        try:
            rows[key][row["Metric Name"]] = float(value)
        except ValueError:
            pass
    by_kernel = defaultdict(list)
    for key, name in order:
        by_kernel[name].append(rows[key])
    return by_kernel


def rel(a, b):
    if a is None or b is None:
        return None
    if b == 0:
        return 0.0 if a == 0 else float("inf")
    return abs(a - b) / b


def spread(launches, metric):
    """(max - min) / min of a metric over a kernel's launches in ncu's run; None with fewer than 2."""
    values = [n[metric] for n in launches if metric in n]
    if len(values) < 2 or min(values) <= 0:
        return None
    return (max(values) - min(values)) / min(values)


def main():
    mine, ncu = ours(sys.argv[1]), theirs(sys.argv[2])
    failures = compared = within_spread = 0
    fmt = lambda v: "-" if v is None else f"{v:.0f}"
    pct = lambda v: "-" if v is None else f"{100 * v:.1f}%"
    print(f"{'kernel':<20} {'#':>2} {'us':>9} {'dram rd ours':>14} {'ncu':>14} {'err':>7} {'dram wr ours':>14} "
          f"{'ncu':>14} {'err':>7} {'fp32 ours':>12} {'ncu':>12} {'t err':>7} {'act/ncu t':>9}")
    for kernel, launches in sorted(mine.items()):
        spreads = {m: spread(ncu.get(kernel, []), m) for m in ("dram__bytes_read.sum", "dram__bytes_write.sum")}
        for i, r in enumerate(launches):
            if i >= len(ncu.get(kernel, [])):
                print(f"{kernel:<20} {i:>2} no ncu launch to compare")
                failures += 1
                continue
            m, n = r["metrics"], ncu[kernel][i]
            t_ncu = n.get("gpu__time_duration.sum")
            us = (t_ncu or 0) / 1000
            rd = rel(m.get("dram__bytes_read.sum"), n.get("dram__bytes_read.sum"))
            wr = rel(m.get("dram__bytes_write.sum"), n.get("dram__bytes_write.sum"))
            te = rel(m.get("gpu__time_duration.sum"), t_ncu)
            activity = rel(r.get("duration_ns"), t_ncu)
            ok = True
            dram_miss = us >= 20 and (rd is None or rd > 0.02 or wr is None or wr > 0.02)
            if dram_miss:
                ok = False
            inside = dram_miss and all(
                e is not None and (e <= 0.02 or (sp is not None and e <= sp))
                for e, sp in ((rd, spreads["dram__bytes_read.sum"]), (wr, spreads["dram__bytes_write.sum"])))
            for prec in (("fadd", "fmul", "ffma"), ("dadd", "dmul", "dfma"), ("hadd", "hmul", "hfma")):
                if flops(m, *prec) != flops(n, *prec):
                    ok = False
            if te is None or te > 0.05:
                ok = False
            compared += 1
            failures += 0 if ok else 1
            timing_and_flops_ok = te is not None and te <= 0.05 and all(
                flops(m, *prec) == flops(n, *prec)
                for prec in (("fadd", "fmul", "ffma"), ("dadd", "dmul", "dfma"), ("hadd", "hmul", "hfma")))
            inside = inside and timing_and_flops_ok
            within_spread += 1 if inside else 0
            print(f"{kernel:<20} {i:>2} {us:>9.1f} {fmt(m.get('dram__bytes_read.sum')):>14} "
                  f"{fmt(n.get('dram__bytes_read.sum')):>14} {pct(rd):>7} {fmt(m.get('dram__bytes_write.sum')):>14} "
                  f"{fmt(n.get('dram__bytes_write.sum')):>14} {pct(wr):>7} {fmt(flops(m, 'fadd', 'fmul', 'ffma')):>12} "
                  f"{fmt(flops(n, 'fadd', 'fmul', 'ffma')):>12} {pct(te):>7} {pct(activity):>9}"
                  + ("" if ok else "  MISS (DRAM inside ncu's own spread)" if inside else "  MISS"))
        if any(v is not None for v in spreads.values()):
            print(f"{kernel:<20} ncu's own launches differ by {pct(spreads['dram__bytes_read.sum'])} (DRAM read), "
                  f"{pct(spreads['dram__bytes_write.sum'])} (DRAM write)")
    print(f"verdict: {compared - failures}/{compared} launches within the criteria; of the misses, {within_spread} "
          f"differ from ncu in DRAM bytes by no more than ncu's own launches of that kernel differ among themselves")


if __name__ == "__main__":
    main()
