"""Sampled traffic against Nsight Compute, launch by launch (bench/sampled-traffic.sh): each launch of a
roofcheck measured file (its "sampled" DRAM bytes, PM sampling in the shim) beside the same launch profiled
by ncu in one pass (dram__bytes_read/write.sum, --cache-control none), matched as the i-th launch of the same
mangled kernel in both. Prints the agreement for launches of at least MIN_US (reads and writes of over 1 MB
within 5%), where the misses are (launches sharing a sample or alone in theirs, reads or writes) and the
errors' median and 90th percentile, and per kernel (all its launches summed) within 2% where ncu's own two
runs agree within 2%; then ncu's second run against its first by the same launch criterion: the agreement
the counters themselves allow.
usage: sampled-traffic.py MEASURED.jsonl NCU1.csv NCU2.csv [MIN_US]"""
import collections
import csv
import sys

import measured

READ, WRITE, TIME = "dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"


def ncu_launches(path):
    """Per mangled kernel, its launches in order: {metric: value}."""
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]  # the CSV, without the program's output
    rows = collections.OrderedDict()
    for row in csv.DictReader(lines):
        key = (int(row["ID"]), row["Kernel Name"])
        value = row["Metric Value"].replace(",", "")
        try:
            rows.setdefault(key, {})[row["Metric Name"]] = float(value)
        except ValueError:
            continue
    by_kernel = collections.defaultdict(list)
    for (_, name), metrics in sorted(rows.items()):
        by_kernel[name].append(metrics)
    return by_kernel


def ours(path):
    by_kernel = collections.defaultdict(list)
    for launch in sorted(measured.launches(path), key=lambda l: l["index"]):
        by_kernel[launch["mangled"]].append(launch)
    return by_kernel


def as_measured(ncu):
    """An ncu run (ncu_launches) in the shape of ours(): its counts as the launches' sampled bytes."""
    return {name: [{"sampled": {READ: m.get(READ, 0.0), WRITE: m.get(WRITE, 0.0)}, "duration_ns": m.get(TIME, 0.0)}
                   for m in launches] for name, launches in ncu.items()}


def within(a, b, tolerance):
    return b > 0 and abs(a - b) / b <= tolerance


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def compare(mine, first, second, min_ns=20000, show=print):
    """mine: per mangled kernel, its launches in order (dicts with "sampled", "sampled_shared",
    "duration_ns"); first and second: ncu_launches of two ncu runs. Shows the comparison and returns
    (launches within 5%, launches compared, kernels within 2%, kernels ncu repeats within 2%)."""
    launches = long_ok = long_total = unsampled = shared = 0
    misses, kernels = [], []
    places = collections.Counter()  # launches checked and missed, sharing a sample or alone
    missed_on = collections.Counter()  # misses on reads only, writes only, both
    errors = ([], [])  # relative errors of reads and writes
    together = {"ours": [0.0, 0.0], "ncu": [0.0, 0.0]}  # every launch compared with sampled bytes
    for name, ours_list in mine.items():
        theirs = first.get(name, [])
        if len(theirs) != len(ours_list):
            show(f"kernel {name[:60]}: {len(ours_list)} launches here, {len(theirs)} under ncu: not compared")
            continue
        sums = {"ours": [0.0, 0.0], "ncu": [0.0, 0.0], "ncu2": [0.0, 0.0]}
        complete = True
        for i, (l, n) in enumerate(zip(ours_list, theirs)):
            launches += 1
            sampled = l.get("sampled")
            if not sampled:
                unsampled += 1
                complete = False
                continue
            shared += bool(l.get("sampled_shared"))
            got = [sampled.get(READ, 0.0), sampled.get(WRITE, 0.0)]
            want = [n.get(READ, 0.0), n.get(WRITE, 0.0)]
            repeat = second.get(name, [])
            again = [repeat[i].get(READ, 0.0), repeat[i].get(WRITE, 0.0)] if len(repeat) == len(theirs) else want
            for k in range(2):
                sums["ours"][k] += got[k]
                sums["ncu"][k] += want[k]
                sums["ncu2"][k] += again[k]
                together["ours"][k] += got[k]
                together["ncu"][k] += want[k]
            if (l.get("duration_ns") or 0) >= min_ns:
                checked = [k for k in range(2) if want[k] > 1e6]
                if not checked:
                    continue
                long_total += 1
                place = "sharing a sample" if l.get("sampled_shared") else "alone"
                places[place] += 1
                for k in checked:
                    errors[k].append(abs(got[k] - want[k]) / want[k])
                off = [k for k in checked if not within(got[k], want[k], 0.05)]
                if not off:
                    long_ok += 1
                else:
                    places[place + " missed"] += 1
                    missed_on[("reads", "writes", "both")[2 if len(off) == 2 else off[0]]] += 1
                    misses.append((name, i, l.get("duration_ns"), got, want, bool(l.get("sampled_shared"))))
        if complete and max(sums["ncu"]) > 1e6:
            repeatable = all(within(sums["ncu2"][k], sums["ncu"][k], 0.02) for k in range(2) if sums["ncu"][k] > 1e6)
            agree = all(within(sums["ours"][k], sums["ncu"][k], 0.02) for k in range(2) if sums["ncu"][k] > 1e6)
            kernels.append((name, len(ours_list), sums, repeatable, agree))
    show(f"launches compared: {launches}; without sampled bytes: {unsampled}; flagged shared: {shared}")
    show(f"launches of at least {min_ns / 1000:.0f} us moving over 1 MB: {long_ok} of {long_total} within 5% of ncu "
         f"(reads and writes)")
    show(f"  missed: {places['sharing a sample missed']} of {places['sharing a sample']} sharing a sample, "
         f"{places['alone missed']} of {places['alone']} alone; on reads only {missed_on['reads']}, writes only "
         f"{missed_on['writes']}, both {missed_on['both']}")
    show("  relative error, median and 90th percentile: " + ", ".join(
        f"{what} {100 * percentile(e, 0.5):.1f}% and {100 * percentile(e, 0.9):.1f}%"
        for what, e in zip(("reads", "writes"), errors)))
    for name, i, ns, got, want, was_shared in misses[:40]:
        show(f"  miss {name[:70]} #{i} {ns / 1000:.1f} us: read {got[0]:.4g} vs {want[0]:.4g}, "
             f"write {got[1]:.4g} vs {want[1]:.4g}{' (shared)' if was_shared else ''}")
    repeatable = [k for k in kernels if k[3]]
    kernels_ok = sum(1 for k in repeatable if k[4])
    show(f"kernels moving over 1 MB: {len(kernels)}; ncu repeats itself within 2% on {len(repeatable)}; of those, "
         f"sampled within 2% of ncu: {kernels_ok}")
    for name, count, sums, rep, agree in kernels:
        o, n, n2 = sums["ours"], sums["ncu"], sums["ncu2"]
        show(f"  {'ok  ' if agree else 'MISS'} {'rep' if rep else 'var'} {name[:70]} x{count}: read "
             f"{o[0] / max(n[0], 1):.4f} write {o[1] / max(n[1], 1):.4f} of ncu (ncu2/ncu {n2[0] / max(n[0], 1):.4f} "
             f"{n2[1] / max(n[1], 1):.4f}; ncu read {n[0]:.4g} write {n[1]:.4g})")
    o, n = together["ours"], together["ncu"]
    show(f"launches with sampled bytes together: read {o[0] / max(n[0], 1):.4f} write {o[1] / max(n[1], 1):.4f} of "
         f"ncu (ncu read {n[0]:.4g} write {n[1]:.4g})")
    return long_ok, long_total, kernels_ok, len(repeatable)


def main():
    min_ns = float(sys.argv[4]) * 1000 if len(sys.argv) > 4 else 20000
    first, second = ncu_launches(sys.argv[2]), ncu_launches(sys.argv[3])
    compare(ours(sys.argv[1]), first, second, min_ns)
    ok, total, _, _ = compare(as_measured(second), first, second, min_ns, show=lambda line: None)
    print(f"ncu's second run against its first: {ok} of {total} launches within 5% (reads and writes)")


if __name__ == "__main__":
    main()
