#!/usr/bin/env python3
"""Rewrites a PTX file, in place, for the source-convention referee (see nvcc beside it): the PTX
instructions that ptxas expands into FLOP-counted arithmetic but the source convention counts as special
operations (division, reciprocal, square root) become integer operations on their operands' bits, a
half-to-float conversion (which ptxas emits as an fp16 add, HADD2.F32) becomes an integer move, and packed
half arithmetic (f16x2, bf16x2: one instruction, two lanes) becomes one scalar instruction a lane, so that
Nsight Compute counts FLOPs per lane as the source convention does. Prints how many of each it rewrote.

usage: rewrite-ptx.py FILE.ptx"""
import re
import sys
from collections import Counter

PREDICATE = r"(?P<pred>@!?%\w+\s+)?"
SPECIAL = re.compile(PREDICATE +
                     r"(?P<op>div|rcp|sqrt)\.(?P<modifiers>(?:\w+\.)*)(?P<type>f32|f64)\s+"
                     r"(?P<d>[^,\s]+),\s*(?P<a>[^,;\s]+)(?:,\s*(?P<b>[^;\s]+))?;")
HALF_TO_FLOAT = re.compile(PREDICATE +
                           r"cvt\.f32\.(?P<from>f16|bf16)\s+(?P<d>[^,\s]+),\s*(?P<a>[^;\s]+);")
PACKED = re.compile(PREDICATE +
                    r"(?P<op>fma|add|sub|mul)\.(?P<modifiers>(?:\w+\.)*)(?P<type>f16x2|bf16x2)\s+"
                    r"(?P<operands>[^;]+);")

# A bit in the mantissa of each width: flipping it is one integer instruction.
MANTISSA_BIT = {"f32": ("b32", "4194304"), "f64": ("b64", "2251799813685248")}


def literal(operand):
    # PTX's float literals (0f3F800000, 0d3FF0...) are bit patterns: as integers for bit instructions.
    return "0x" + operand[2:] if re.fullmatch(r"0[fd][0-9A-Fa-f]+", operand) else operand


def special(m, counts):
    bits, bit = MANTISSA_BIT[m["type"]]
    pred = m["pred"] or ""
    counts[f"{m['op']}.{m['type']}"] += 1
    a = literal(m["a"])
    if m["b"] is None:
        return f"{pred}xor.{bits} {m['d']}, {a}, {bit};"
    # The result keeps a dependence on the divisor, so that the arithmetic computing it stays.
    b = literal(m["b"])
    return (f"{{ .reg .{bits} %rc_t; {pred}and.{bits} %rc_t, {b}, {bit}; "
            f"{pred}xor.{bits} {m['d']}, {a}, %rc_t; }}")


def half_to_float(m, counts):
    pred = m["pred"] or ""
    counts[f"cvt.f32.{m['from']}"] += 1
    # Through an untyped 16-bit register: the source may be declared .f16 (cuda_fp16.hpp's assembly).
    return (f"{{ .reg .b16 %rc_h; .reg .b32 %rc_t; {pred}mov.b16 %rc_h, {m['a']}; "
            f"{pred}cvt.u32.u16 %rc_t, %rc_h; {pred}mov.b32 {m['d']}, %rc_t; }}")


def packed(m, counts):
    pred = m["pred"] or ""
    scalar = m["type"][:-2]  # f16 or bf16
    operands = [o.strip() for o in m["operands"].split(",")]
    d, sources = operands[0], operands[1:]
    counts[f"{m['op']}.{m['type']}"] += 1
    lanes = ("lo", "hi")
    lines = [".reg .b16 " + ", ".join(f"%rc_{r}_{lane}" for r in ["d"] + [f"s{i}" for i in range(len(sources))]
                                      for lane in lanes) + ";"]
    for i, s in enumerate(sources):
        lines.append(f"{pred}mov.b32 {{%rc_s{i}_lo, %rc_s{i}_hi}}, {literal(s)};")
    for lane in lanes:
        args = ", ".join(f"%rc_s{i}_{lane}" for i in range(len(sources)))
        lines.append(f"{pred}{m['op']}.{m['modifiers']}{scalar} %rc_d_{lane}, {args};")
    lines.append(f"{pred}mov.b32 {d}, {{%rc_d_lo, %rc_d_hi}};")
    return "{ " + " ".join(lines) + " }"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    counts = Counter()
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        for pattern, rewrite in ((SPECIAL, special), (HALF_TO_FLOAT, half_to_float), (PACKED, packed)):
            # Instructions stand alone or inside the braces of inline assembly (cuda_fp16.hpp's).
            m = pattern.search(line)
            if m and not line.lstrip().startswith("//"):
                line = line[:m.start()] + rewrite(m, counts) + line[m.end():]
                break
        out.append(line)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"rewrite-ptx.py: {path}: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "nothing"),
          file=sys.stderr)


if __name__ == "__main__":
    main()
