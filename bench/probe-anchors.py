#!/usr/bin/env python3
"""Runs roofcheck-probe's default suite and the best-known anchors on the same GPU in the same run, and
checks issue 5's done-when criteria:

  - DRAM copy >= torch `y.copy_(x)` on 1 GiB timed with triton.testing.do_bench, and >= 90% of 4.8 TB/s;
  - fp32 FMA >= 95% of SMs x 128 x 2 x the SM clock measured during the fp32 probe;
  - tensor bf16 and fp16 >= torch.matmul at 8192^3; tensor fp64 >= torch.matmul in float64 at 8192^3;
  - the default suite finishes in under 60 s.

Prints a Markdown table (ours, anchor, theoretical peak at the measured clock, spec labelled as spec) and
writes it with the raw numbers to OUTDIR. Exit status: 0 all criteria met, 1 one or more missed, 2 bad
setup (no probe binary, no torch/triton, no GPU).

usage: probe-anchors.py PROBE_BINARY OUTDIR
"""
import datetime
import json
import os
import subprocess
import sys
import time

SPEC_DRAM = 4.8e12  # H200 SXM datasheet; a spec value, used only for the 90% criterion the issue states


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    probe, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    ceilings_path = os.path.join(outdir, "ceilings.json")

    started = time.monotonic()
    run = subprocess.run([probe, "--out", ceilings_path], capture_output=True, text=True)
    probe_wall = time.monotonic() - started
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"probe-anchors: error: {probe} exited {run.returncode}", file=sys.stderr)
        return 2
    doc = json.load(open(ceilings_path))

    try:
        import torch
        import triton
        import triton.testing
    except ImportError as e:
        print(f"probe-anchors: error: the anchors need torch and triton ({e})", file=sys.stderr)
        return 2

    def median_ms(fn):
        return triton.testing.do_bench(fn, warmup=100, rep=500, return_mode="median")

    try:  # the SM clock right after each anchor, to set beside the probe's clocks
        import pynvml
        pynvml.nvmlInit()
        nvml_device = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())

        def sm_clock():
            return pynvml.nvmlDeviceGetClockInfo(nvml_device, pynvml.NVML_CLOCK_SM)
    except Exception as e:  # NVML missing: the anchors still run, their clocks are unknown
        print(f"probe-anchors: warning: no NVML for the anchors' clocks ({e})", file=sys.stderr)

        def sm_clock():
            return None

    anchor_clocks = {}

    anchors = {}
    # 1 GiB of float32, read and written: 2 x 1 GiB per copy.
    n = (1 << 30) // 4
    x = torch.rand(n, device="cuda") + 0.5
    y = torch.empty_like(x)
    ms = median_ms(lambda: y.copy_(x))
    anchors["dram_copy"] = 2 * n * 4 / (ms * 1e-3)
    anchor_clocks["dram_copy"] = sm_clock()
    del x, y
    size = 8192
    for name, dtype in (("bf16", torch.bfloat16), ("fp16", torch.float16), ("fp64", torch.float64)):
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        ms = median_ms(lambda: a @ b)
        anchors["matmul_" + name] = 2 * size ** 3 / (ms * 1e-3)
        anchor_clocks["matmul_" + name] = sm_clock()
        del a, b
    torch.cuda.synchronize()

    def memory(level, variant):
        return next(c for c in doc["memory"] if c["level"] == level and c["variant"] == variant)

    def compute(bucket, dtype):
        return next(c for c in doc["compute"] if c["bucket"] == bucket and c["dtype"] == dtype)

    def peak(ceiling):
        return ceiling["provenance"]["parameters"]["theoretical_peak"]

    def clock(ceiling):
        return ceiling["provenance"]["clocks_during"]["sm_mhz"]

    spec = doc["environment"].get("spec") or {}
    props = doc["environment"]["device_properties"]
    fp32 = compute("fp32", "fp32")
    fp32_clocks = [fp32["provenance"][k]["sm_mhz"] for k in ("clocks_before", "clocks_during", "clocks_after")]
    fp32_clock = max(c for c in fp32_clocks if c is not None)
    fp32_target = 0.95 * props["multiprocessors"] * 128 * 2 * fp32_clock * 1e6

    rows = []  # what, ours, anchor name, anchor value, theoretical, spec, criterion, met

    def row(what, ceiling, rate, anchor_name, anchor, spec_key, criterion, met, anchor_clock=None):
        rows.append({"ceiling": what, "ours": rate, "anchor": anchor_name, "anchor_value": anchor,
                     "anchor_sm_mhz_after": anchor_clock,
                     "theoretical": peak(ceiling)["value"], "theoretical_basis": peak(ceiling)["basis"],
                     "sm_mhz": clock(ceiling), "spec": spec.get(spec_key), "criterion": criterion, "met": met})

    dram = memory("dram", "copy")
    r = dram["bytes_per_second"]
    row("dram copy (B/s)", dram, r, "torch y.copy_(x), 1 GiB, do_bench median", anchors["dram_copy"],
        "dram_bytes_per_second", ">= anchor and >= 0.9 x 4.8 TB/s (spec)",
        r >= anchors["dram_copy"] and r >= 0.9 * SPEC_DRAM, anchor_clocks["dram_copy"])
    r = fp32["flops_per_second"]
    row("fp32 FFMA (FLOP/s)", fp32, r, "0.95 x SMs x 128 x 2 x %.0f MHz" % fp32_clock, fp32_target,
        "fp32_flops_per_second", ">= 95% of SMs x 128 x 2 x measured SM clock", r >= fp32_target)
    for dtype in ("bf16", "fp16", "fp64"):
        c = compute("tensor", dtype)
        r = c["flops_per_second"]
        row("tensor %s (FLOP/s)" % dtype, c, r, "torch.matmul %s 8192^3, do_bench median" % dtype,
            anchors["matmul_" + dtype], dtype + "_tensor_flops_per_second", ">= anchor", r >= anchors["matmul_" + dtype],
            anchor_clocks["matmul_" + dtype])
    suite_ok = probe_wall < 60

    def si(v):
        if v is None:
            return "-"
        for scale, prefix in ((1e12, "T"), (1e9, "G")):
            if v >= scale:
                return "%.3g %s" % (v / scale, prefix)
        return "%.3g" % v

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "Measured %s on %s (%d SMs), driver %s, CUDA %s, torch %s, triton %s; roofcheck %s." % (
            now, doc["device"]["name"], doc["device"]["multiprocessors"], doc["driver_version"], doc["cuda_version"],
            torch.__version__, triton.__version__, doc["roofcheck_version"]),
        "Default suite wall time %.1f s (criterion: < 60 s: %s). Environment at start: %s." % (
            probe_wall, "met" if suite_ok else "MISSED", json.dumps(doc["environment"].get("start"))),
        "",
        "| ceiling | ours | SM MHz during ours | anchor | anchor value | SM MHz after anchor | theoretical at measured clock | spec (datasheet) | criterion | met |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for rw in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s |" % (
            rw["ceiling"], si(rw["ours"]), rw["sm_mhz"], rw["anchor"], si(rw["anchor_value"]),
            rw["anchor_sm_mhz_after"] if rw["anchor_sm_mhz_after"] is not None else "-", si(rw["theoretical"]),
            rw["theoretical_basis"], "spec: " + si(rw["spec"]) if rw["spec"] else "-",
            rw["criterion"], "yes" if rw["met"] else "NO"))
    table = "\n".join(lines) + "\n"
    print()
    print(table)
    open(os.path.join(outdir, "anchors.md"), "w").write(table)
    json.dump({"rows": rows, "anchors": anchors, "probe_wall_seconds": probe_wall, "measured_at": now},
              open(os.path.join(outdir, "anchors.json"), "w"), indent=2)
    return 0 if suite_ok and all(rw["met"] for rw in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
