"""What a measured file spends per launch: records by kind, bytes per launch over the whole file, the
launch records' own sizes (median, 99th percentile, max), and launches whose registers are unknown (0).
usage: measured-size.py FILE..."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measured  # noqa: E402

for path in sys.argv[1:]:
    sizes, kinds = [], {}
    with open(path, "rb") as f:
        for line in f:
            try:
                kind = json.loads(line).get("record", "?")
            except json.JSONDecodeError:
                kind = "cut"
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "launch":
                sizes.append(len(line))
    launches = list(measured.launches(path))
    no_registers = sum(1 for l in launches if not l.get("registers"))
    profiled_no_registers = sum(1 for l in launches if l.get("profiled") and not l.get("registers"))
    total = os.path.getsize(path)
    sizes.sort()
    print(f"{path}: {total} bytes, records {kinds}")
    if sizes:
        print(f"  bytes per launch (whole file): {total / len(sizes):.0f}; launch records: median "
              f"{statistics.median(sizes):.0f}, p99 {sizes[int(0.99 * (len(sizes) - 1))]}, max {sizes[-1]}")
    print(f"  launches with registers 0: {no_registers} of {len(launches)} "
          f"({profiled_no_registers} of them profiled)")
