#!/usr/bin/env python3
"""Compares a roofcheck measured file with ncu --csv --print-units base runs of the same program, launch by
launch (the n-th launch of a kernel in one against the n-th in the other).

Each launch of ours is compared with ncu counting the same way: a launch counted with the traffic set (one
pass, `replay_passes` 1, while the full set needs replay) against NCU_TRAFFIC.csv, ncu collecting the traffic
metrics (one pass, no replay); every other launch against NCU.csv, ncu collecting every metric we did.
Criteria (docs/runtime.md): DRAM bytes read and written within 2% for launches of at least 20 us, on the
launches whose DRAM bytes the report uses (the traffic-set ones; a kernel without any: its replayed ones);
FLOPs per precision equal on the launches with instruction counters; gpu__time_duration within 5% on all.
Prints one row a launch and a verdict line. The referee's own repeatability is printed too: where ncu's
identical launches of a kernel (same program, same arguments) differ among themselves by more than our
difference from them, a DRAM miss is marked as inside that spread (the L2's state before the kernel, not the
counting, decides such numbers); the strict verdict stays.
usage: runtime-compare.py MEASURED.jsonl NCU.csv [NCU_TRAFFIC.csv]
"""
import csv
import json
import sys
from collections import defaultdict

import measured

SASS = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum"


def flops(metrics, add, mul, fma):
    names = [SASS.format(op) for op in (add, mul, fma)]
    if not all(n in metrics for n in names):
        return None
    return metrics[names[0]] + metrics[names[1]] + 2 * metrics[names[2]]


def short(name):
    return name.split("(")[0].split("<")[0].split(" ")[-1]


def ours(path):
    launches = list(measured.launches(path))
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


PRECISIONS = (("fadd", "fmul", "ffma"), ("dadd", "dmul", "dfma"), ("hadd", "hmul", "hfma"))
DRAM = ("dram__bytes_read.sum", "dram__bytes_write.sum")


def main():
    mine, full = ours(sys.argv[1]), theirs(sys.argv[2])
    traffic = theirs(sys.argv[3]) if len(sys.argv) > 3 else {}
    failures = compared = within_spread = 0
    fmt = lambda v: "-" if v is None else f"{v:.0f}"
    pct = lambda v: "-" if v is None else f"{100 * v:.1f}%"
    print(f"{'kernel':<20} {'#':>2} {'set':>7} {'us':>9} {'dram rd ours':>14} {'ncu':>14} {'err':>7} "
          f"{'dram wr ours':>14} {'ncu':>14} {'err':>7} {'fp32 ours':>12} {'ncu':>12} {'t err':>7} {'act/ncu t':>9}")
    for kernel, launches in sorted(mine.items()):
        one_pass = lambda r: r.get("replay_passes") == 1 and kernel in traffic
        dram_from_traffic = any(one_pass(r) for r in launches)
        for i, r in enumerate(launches):
            if not r.get("profiled"):
                continue  # its position still counts: the i-th launch of the kernel in both runs
            reference = traffic if one_pass(r) else full
            name = "traffic" if one_pass(r) else "full"
            if i >= len(reference.get(kernel, [])):
                print(f"{kernel:<20} {i:>2} {name:>7} no ncu launch to compare")
                failures += 1
                continue
            m, n = r["metrics"], reference[kernel][i]
            t_ncu = n.get("gpu__time_duration.sum")
            us = (t_ncu or 0) / 1000
            rd, wr = (rel(m.get(d), n.get(d)) for d in DRAM)
            te = rel(m.get("gpu__time_duration.sum"), t_ncu)
            activity = rel(r.get("duration_ns"), t_ncu)
            dram_scored = one_pass(r) or not dram_from_traffic
            dram_miss = dram_scored and us >= 20 and (rd is None or rd > 0.02 or wr is None or wr > 0.02)
            flops_ok = all(flops(m, *p) == flops(n, *p) for p in PRECISIONS if flops(m, *p) is not None)
            time_ok = te is not None and te <= 0.05
            ok = not dram_miss and flops_ok and time_ok
            spreads = [spread(reference.get(kernel, []), d) for d in DRAM]
            inside = dram_miss and flops_ok and time_ok and all(
                e is not None and (e <= 0.02 or (sp is not None and e <= sp)) for e, sp in zip((rd, wr), spreads))
            compared += 1
            failures += 0 if ok else 1
            within_spread += 1 if inside else 0
            print(f"{kernel:<20} {i:>2} {name:>7} {us:>9.1f} {fmt(m.get(DRAM[0])):>14} {fmt(n.get(DRAM[0])):>14} "
                  f"{pct(rd):>7} {fmt(m.get(DRAM[1])):>14} {fmt(n.get(DRAM[1])):>14} {pct(wr):>7} "
                  f"{fmt(flops(m, 'fadd', 'fmul', 'ffma')):>12} {fmt(flops(n, 'fadd', 'fmul', 'ffma')):>12} "
                  f"{pct(te):>7} {pct(activity):>9}" + ("" if dram_scored else "  (DRAM not scored: replayed)")
                  + ("" if ok else "  MISS (DRAM inside ncu's own spread)" if inside else "  MISS"))
        for name, reference in (("full", full), ("traffic", traffic)):
            spreads = [spread(reference.get(kernel, []), d) for d in DRAM]
            if any(v is not None for v in spreads):
                print(f"{kernel:<20} ncu's own launches ({name} metrics) differ by {pct(spreads[0])} (DRAM read), "
                      f"{pct(spreads[1])} (DRAM write)")
    print(f"verdict: {compared - failures}/{compared} launches within the criteria; of the misses, {within_spread} "
          f"differ from ncu in DRAM bytes by no more than ncu's own launches of that kernel differ among themselves")


if __name__ == "__main__":
    main()
