"""Checks a roofcheck.ceilings/1 file written on a GPU: every ceiling finite and positive, below the
theoretical peak that this script computes on its own from the device properties in the file and the clocks
measured during the probe (a ceiling above it is a measurement bug), and above a sanity floor (a fifth of
that peak: a stub or a broken kernel lands far below).

usage: check-ceilings.py FILE [EXPECTED ...]   EXPECTED: level/variant or bucket/dtype that must be present
"""
import json
import math
import sys

# Per multiprocessor and SM clock cycle on compute capability 9.x (Hopper), from the SM's pipe widths.
PER_SM_PER_CLOCK = {
    ("fp64", "fp64"): 64 * 2,       # DFMA lanes x 2 FLOP
    ("fp32", "fp32"): 128 * 2,      # FFMA lanes x 2 FLOP
    ("fp16", "fp16"): 64 * 2 * 2,   # HFMA2: the fmaheavy pipe's 64 lanes x 2 halves x 2 FLOP
    ("bf16", "bf16"): 64 * 2 * 2,
    ("tensor", "fp16"): 1024 * 4,   # dense MMA: 1024 FMA per SM per clock
    ("tensor", "bf16"): 1024 * 4,
    ("tensor", "tf32"): 512 * 4,
    ("tensor", "fp8"): 2048 * 4,
    ("tensor", "fp64"): 128 * 2,    # DMMA
    ("shared", "read"): 32 * 4,     # 32 banks x 4 bytes
    ("l2", "read"): 64,             # L2 -> SM bytes per clock (a loose upper bound)
}
FLOOR = 0.2

def fail(message):
    print("FAIL: " + message)
    sys.exit(1)

doc = json.load(open(sys.argv[1]))
if doc.get("schema") != "roofcheck.ceilings/1":
    fail("schema is %r" % doc.get("schema"))
props = doc["environment"]["device_properties"]
sms = props["multiprocessors"]
if sms != doc["device"]["multiprocessors"]:
    fail("device and environment disagree on the SM count")

def highest(provenance, key):
    seen = [provenance[k][key] for k in ("clocks_before", "clocks_during", "clocks_after")
            if provenance[k][key] is not None]
    return max(seen) if seen else None

found = set()
rows = [("memory", c["level"], c["variant"], c["bytes_per_second"], c) for c in doc["memory"]] + \
       [("compute", c["bucket"], c["dtype"], c["flops_per_second"], c) for c in doc["compute"]]
for kind, a, b, rate, ceiling in rows:
    name = a + "/" + b
    found.add(name)
    p = ceiling["provenance"]
    for value in (rate, p["median"], p["min"], p["max"]):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            fail("%s: %r is not finite and positive" % (name, value))
    if not (p["min"] <= p["median"] <= p["max"]) or p["repetitions"] < 3:
        fail("%s: inconsistent statistics %r" % (name, p))
    if a == "dram":
        mem = highest(p, "memory_mhz") or props["memory_clock_mhz"]
        peak = 2 * mem * 1e6 * props["memory_bus_width_bits"] / 8
    else:
        sm = highest(p, "sm_mhz") or props["max_sm_clock_mhz"]
        peak = sms * PER_SM_PER_CLOCK[(a, b)] * sm * 1e6
    if rate > peak:
        fail("%s: %.4g above the theoretical peak %.4g" % (name, rate, peak))
    if rate < FLOOR * peak:
        fail("%s: %.4g below %.0f%% of the theoretical peak %.4g" % (name, rate, 100 * FLOOR, peak))
    print("ok %-12s %.4g (%.1f%% of %.4g)" % (name, rate, 100 * rate / peak, peak))

missing = [e for e in sys.argv[2:] if e not in found]
if missing:
    fail("missing ceilings: " + ", ".join(missing))
extra = sorted(found - set(sys.argv[2:])) if len(sys.argv) > 2 else []
if extra:
    fail("unexpected ceilings: " + ", ".join(extra))
print("checked %d ceilings" % len(rows))
