#!/usr/bin/env python3
"""Rewrites a PTX file, in place, for the source-convention referee (see nvcc beside it): the PTX
instructions that ptxas expands into FLOP-counted arithmetic but the source convention counts as special
operations (division, reciprocal, square root) become integer operations on their operands' bits, a
half-to-float conversion (which ptxas emits as an fp16 add, HADD2.F32) becomes an integer move, and packed
half arithmetic (f16x2, bf16x2: one instruction, two lanes) becomes one scalar instruction a lane (the
lanes of an f16 FMA told apart by .ftz, so that ptxas does not pack them again), so that
Nsight Compute counts FLOPs per lane as the source convention does; a negation or an absolute value (an
FADD or DADD of zero where ptxas has no FP instruction to fold it into) becomes a flip or clear of the sign
bit, and a float atomic add outside global memory (a compare-and-swap loop around an FADD on shared
memory) an integer atomic add of the same bits. An integer division or
remainder by a register (ptxas computes it through a floating-point reciprocal, I2F, MUFU.RCP and F2I,
and moves its constants with HFMA2.MMA, which Nsight Compute counts as fp16 FMAs) becomes a
shift-and-subtract long division in integer instructions alone, with the same results; one by an
immediate is left as it is (ptxas multiplies by a constant). Prints how many of each it rewrote.

usage: rewrite-ptx.py FILE.ptx"""
import itertools
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

SIGN = re.compile(PREDICATE + r"(?P<op>neg|abs)\.(?:ftz\.)?(?P<type>f32|f64)\s+(?P<d>[^,\s]+),\s*(?P<a>[^;\s]+);")
INTEGER_DIVISION = re.compile(PREDICATE +
                              r"(?P<op>div|rem)\.(?P<type>[su](?:16|32|64))\s+"
                              r"(?P<d>[^,\s]+),\s*(?P<a>[^,\s]+),\s*(?P<b>[^;\s]+);")
# A float add done by an atomic: on shared memory ptxas loops a compare-and-swap around an FADD, counted once
# a retry (on global memory the add is done in L2, counted by neither side). State spaces other than .global.
ATOMIC_ADD = re.compile(PREDICATE +
                        r"(?P<op>atom|red)(?P<qualifiers>(?:\.(?!global\b|add\b)\w+(?:::\w+)?)*)\.add"
                        r"(?:\.noftz)?\.(?P<type>f32|f64)\s+(?P<operands>[^;]+);")
# PTX's integer literals: a divisor of this form is left to ptxas, which divides by it without FP.
IMMEDIATE = re.compile(r"-?(?:0[xX][0-9A-Fa-f]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)U?")

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


def lane_modifiers(m, lane):
    # ptxas packs two scalar f16 FMAs of one register's halves back into one HFMA2, which Nsight Compute
    # counts as one FMA: the high lane's differs in flushing subnormals (.ftz), which one HFMA2 cannot do for
    # one lane only. (The adds and multiplies stay two; bf16 has no .ftz.)
    modifiers = m["modifiers"]
    if m["op"] != "fma" or m["type"] != "f16x2" or lane != "hi":
        return modifiers
    return modifiers.replace("ftz.", "") if "ftz." in modifiers else modifiers + "ftz."


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
        lines.append(f"{pred}{m['op']}.{lane_modifiers(m, lane)}{scalar} %rc_d_{lane}, {args};")
    lines.append(f"{pred}mov.b32 {d}, {{%rc_d_lo, %rc_d_hi}};")
    return "{ " + " ".join(lines) + " }"


def sign(m, counts):
    # ptxas folds a negation or an absolute value into the FP instruction that uses it; where none does (an
    # integer operation of the rewrite, a store, a comparison), it is an FADD or DADD of zero (`DADD R, -RZ,
    # |R|`), which Nsight Compute counts and the source convention does not (a sign is no FLOP). A flip or
    # clear of the sign bit is the same value.
    bits = MANTISSA_BIT[m["type"]][0]
    mask = {("neg", "f32"): "0x80000000", ("neg", "f64"): "0x8000000000000000",
            ("abs", "f32"): "0x7FFFFFFF", ("abs", "f64"): "0x7FFFFFFFFFFFFFFF"}[m["op"], m["type"]]
    counts[f"{m['op']}.{m['type']}"] += 1
    operation = "xor" if m["op"] == "neg" else "and"
    return f"{m['pred'] or ''}{operation}.{bits} {m['d']}, {literal(m['a'])}, {mask};"


def atomic_add(m, counts):
    # The same atomic on the same bits as an integer add: the program's sums are wrong, its accesses and
    # synchronisation are what they were, and no FP instruction is left to retry.
    counts[f"{m['op']}.add.{m['type']}"] += 1
    bits, unsigned = MANTISSA_BIT[m["type"]][0], "u" + m["type"][1:]
    pred = m["pred"] or ""
    operands = [o.strip() for o in m["operands"].split(",")]
    value, address = literal(operands[-1]), operands[-2]
    instruction = f"{m['op']}{m['qualifiers']}.add.{unsigned}"
    if m["op"] == "red":
        return (f"{{ .reg .{bits} %rc_v; {pred}mov.{bits} %rc_v, {value}; "
                f"{pred}{instruction} {address}, %rc_v; }}")
    return (f"{{ .reg .{bits} %rc_v, %rc_o; {pred}mov.{bits} %rc_v, {value}; "
            f"{pred}{instruction} %rc_o, {address}, %rc_v; {pred}mov.{bits} {operands[0]}, %rc_o; }}")


def integer_division(m, counts, labels):
    """A restoring long division, inline in a scoped block: the dividend's bits shift into a partial
    remainder from the top, one a step; where the remainder reaches the divisor (or carried out of the
    register) the divisor is taken off and a quotient bit, shifted into the dividend's freed low end, set.
    Signed operations divide the magnitudes and then give the quotient the sign of the operands' product
    and the remainder the dividend's (C's truncation toward zero). A divisor of zero gives a quotient of all
    ones and a remainder of the dividend (what ptxas's own expansion gives for unsigned operands)."""
    if IMMEDIATE.fullmatch(m["b"]):
        return None
    counts[f"{m['op']}.{m['type']}"] += 1
    signed, width = m["type"][0] == "s", int(m["type"][1:])
    bits, unsigned, own = f"b{width}", f"u{width}", m["type"]
    label = f"$rc_idiv_{next(labels)}"
    lines = [f".reg .{bits} %rc_n, %rc_d, %rc_r, %rc_t;",
             ".reg .pred %rc_pn, %rc_pd, %rc_pc, %rc_pq;",
             ".reg .b32 %rc_i;"]
    pred = m["pred"]
    if pred:
        # Skipped where the instruction's predicate is false: the destination keeps its value.
        register = pred.strip().lstrip("@")
        skip = register[1:] if register.startswith("!") else "!" + register
        lines.append(f"@{skip} bra {label}_done;")
    lines += [f"mov.{own} %rc_n, {m['a']};", f"mov.{own} %rc_d, {m['b']};"]
    if signed:
        lines += [f"setp.lt.s{width} %rc_pn, %rc_n, 0;", f"setp.lt.s{width} %rc_pd, %rc_d, 0;",
                  # abs of the most negative value is itself: as unsigned, its magnitude.
                  f"abs.s{width} %rc_n, %rc_n;", f"abs.s{width} %rc_d, %rc_d;"]
    lines += [f"mov.{bits} %rc_r, 0;", f"mov.u32 %rc_i, {width};",
              f"{label}_step:",
              # A loop, not 32 or 64 copies of its body (ptxas would unroll it in full).
              '.pragma "nounroll";',
              # The remainder's top bit, shifted out below: then it is above any divisor.
              f"setp.lt.s{width} %rc_pc, %rc_r, 0;",
              f"shr.{unsigned} %rc_t, %rc_n, {width - 1};",
              f"shl.{bits} %rc_r, %rc_r, 1;",
              f"or.{bits} %rc_r, %rc_r, %rc_t;",
              f"shl.{bits} %rc_n, %rc_n, 1;",
              f"setp.ge.or.{unsigned} %rc_pq, %rc_r, %rc_d, %rc_pc;",
              f"@%rc_pq sub.{unsigned} %rc_r, %rc_r, %rc_d;",
              f"@%rc_pq or.{bits} %rc_n, %rc_n, 1;",
              "sub.u32 %rc_i, %rc_i, 1;",
              "setp.ne.u32 %rc_pc, %rc_i, 0;",
              f"@%rc_pc bra {label}_step;"]
    if signed and m["op"] == "div":
        lines += ["xor.pred %rc_pd, %rc_pd, %rc_pn;", f"@%rc_pd neg.s{width} %rc_n, %rc_n;"]
    if signed and m["op"] == "rem":
        lines.append(f"@%rc_pn neg.s{width} %rc_r, %rc_r;")
    result = "%rc_n" if m["op"] == "div" else "%rc_r"
    if pred:
        lines.append(f"{label}_done:")
    lines.append(f"{pred or ''}mov.{bits} {m['d']}, {result};")
    return "{\n\t" + "\n\t".join(lines) + "\n\t}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    counts = Counter()
    labels = itertools.count()  # the long divisions' labels, unique in the module
    rewrites = ((SPECIAL, special), (HALF_TO_FLOAT, half_to_float), (PACKED, packed), (SIGN, sign),
                (ATOMIC_ADD, atomic_add),
                (INTEGER_DIVISION, lambda m, counts: integer_division(m, counts, labels)))
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        for pattern, rewrite in rewrites:
            # Instructions stand alone or inside the braces of inline assembly (cuda_fp16.hpp's).
            m = pattern.search(line)
            if m and not line.lstrip().startswith("//"):
                replacement = rewrite(m, counts)
                if replacement is not None:
                    line = line[:m.start()] + replacement + line[m.end():]
                break
        out.append(line)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"rewrite-ptx.py: {path}: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "nothing"),
          file=sys.stderr)


if __name__ == "__main__":
    main()
