#!/usr/bin/env python3
"""Static FLOPs against the hardware's, kernel by kernel, for programs we did not write.

usage: bench/lint-vs-measured.py ROOFCHECK NAME=STATIC.json:MEASURED_DIR [NAME=...]...

For each program: `roofcheck report` joins the static file (roofcheck lint on the program's TU, with its own
flags) with the measured files of a `roofcheck run` of it (every profiled launch's FLOP counters are Nsight
Compute's own metrics, evaluated by the report with that launch's grid, block and scalar arguments). A kernel
agrees when the report has no `flops-differ` explanation (static within 1% of measured); otherwise the table
gives both counts and the report's reason: special functions that compile to FMUL/FFMA sequences (the
source convention counts them in `special`), or a static count that misses or overcounts arithmetic.
Prints a Markdown table and a summary; exits 0."""
import json
import os
import re
import subprocess
import sys
import tempfile


def number(text):
    return float(text.replace(",", ""))


def main():
    roofcheck, pairs = sys.argv[1], sys.argv[2:]
    rows = []
    for pair in pairs:
        name, files = pair.split("=", 1)
        static, measured_dir = files.split(":", 1)
        measured = [os.path.join(measured_dir, f) for f in sorted(os.listdir(measured_dir))]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "report.json")
            subprocess.run([roofcheck, "report", "--quiet", "--static", static, "--measured", *measured, "--json", out],
                           check=True)
            report = json.load(open(out))
        for k in report["kernels"]:
            counts = k.get("measured_counts") or {}
            predicted = k.get("predicted_counts") or {}
            static_known = (predicted.get("flops") or {}).get("expr") is not None
            if counts.get("flops") is None or not static_known:
                verdict = "not compared: " + ("static unknown" if not static_known else "no FLOP counters")
                rows.append((name, k["name"], None, None, verdict))
                continue
            differ = next((e for e in k["explanations"] if e["kind"] == "flops-differ"), None)
            if not differ:
                rows.append((name, k["name"], None, counts["flops"], "agrees (within 1%)"))
                continue
            m = re.match(r"static flops.total ([\d,.e+]+), special ([\d,.e+]+) .*; measured ([\d,.e+]+)",
                         differ["evidence"][0])
            static, special, measured_flops = (number(m.group(i)) for i in (1, 2, 3))
            if measured_flops > static and special > 0 and differ["severity"] == "note":
                verdict = "special functions expand (%.1f FLOPs each)" % ((measured_flops - static) / special)
            else:
                verdict = "differs: " + differ["message"].split(":")[0]
            rows.append((name, k["name"], static, measured_flops, verdict))
    print("| program | kernel | static FLOPs (profiled launches) | measured | verdict |")
    print("|---|---|---:|---:|---|")
    for program, kernel, static, measured, verdict in rows:
        fmt = lambda v: "" if v is None else "{:,.0f}".format(v)
        print(f"| {program} | `{kernel[:60]}` | {fmt(static)} | {fmt(measured)} | {verdict} |")
    compared = [r for r in rows if not r[4].startswith("not compared")]
    agree = [r for r in compared if r[4].startswith("agrees")]
    special = [r for r in compared if r[4].startswith("special")]
    print(f"\nkernels: {len(rows)}; compared: {len(compared)}; agree within 1%: {len(agree)}; "
          f"differ only by special-function expansion: {len(special)}; "
          f"other differences: {len(compared) - len(agree) - len(special)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
