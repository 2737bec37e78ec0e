#!/usr/bin/env python3
"""Checks rewrite-ptx.py's integer division without a GPU: runs the PTX that it writes for div and rem of
every integer type through a small interpreter of the instructions that PTX uses, on edge values (zero,
one, minus one, the extremes, powers of two and their neighbours) and random ones, against C's division
(quotient truncated toward zero, remainder with the dividend's sign). A divisor of zero must end, with any
result. Prints one line of counts and exits 1 at the first difference.

usage: check-integer-division.py [RANDOM_PAIRS_PER_TYPE]"""
import functools
import importlib.util
import itertools
import os
import random
import re
import sys

spec = importlib.util.spec_from_file_location(
    "rewrite_ptx", os.path.join(os.path.dirname(os.path.abspath(__file__)), "rewrite-ptx.py"))
rewrite_ptx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rewrite_ptx)


def wrap(value, width):
    return value & ((1 << width) - 1)


def signed(value, width):
    value = wrap(value, width)
    return value - (1 << width) if value >> (width - 1) else value


@functools.lru_cache(maxsize=None)
def parse(line):
    m = re.fullmatch(r"(?:@(!?)(%\w+)\s+)?([\w.]+)\s+(.*);", line)
    negate, guard, opcode, operands = m.groups()
    return bool(negate), guard, opcode.split("."), [o.strip() for o in operands.split(",")]


def run(block, registers):
    """Executes a rewritten block: registers maps names to unsigned values (predicates to bools)."""
    lines = [l.strip() for l in block.strip().strip("{}").split("\n")
             if l.strip() and not l.strip().startswith((".reg", ".pragma"))]
    targets = {l[:-1]: i for i, l in enumerate(lines) if l.endswith(":")}
    pc, steps = 0, 0
    while pc < len(lines):
        steps += 1
        if steps > 100000:
            raise RuntimeError("no end")
        line = lines[pc]
        pc += 1
        if line.endswith(":"):
            continue
        negate, guard, parts, ops = parse(line)
        if guard and registers[guard] == negate:
            continue
        if parts[0] == "bra":
            pc = targets[ops[0]]
            continue
        if parts[-1] == "pred":
            a, b = registers[ops[1]], registers[ops[2]]
            registers[ops[0]] = {"xor": a != b, "or": a or b, "and": a and b}[parts[0]]
            continue
        width = int(parts[-1][1:])
        kind = parts[-1][0]

        def value(o):
            if o in registers:
                return wrap(registers[o], width)
            return wrap(int(o, 0), width)

        def as_type(v):
            return signed(v, width) if kind == "s" else wrap(v, width)

        name = parts[0]
        if name == "setp":
            a, b = as_type(value(ops[1])), as_type(value(ops[2]))
            result = {"lt": a < b, "ge": a >= b, "ne": a != b, "eq": a == b}[parts[1]]
            if len(parts) == 4:  # setp.CMP.BOOL.TYPE p, a, b, c
                result = {"or": result or registers[ops[3]], "and": result and registers[ops[3]]}[parts[2]]
            registers[ops[0]] = result
            continue
        args = [value(o) for o in ops[1:]]
        if name == "mov":
            result = args[0]
        elif name == "abs":
            result = abs(signed(args[0], width))
        elif name == "neg":
            result = -args[0]
        elif name == "shl":
            result = args[0] << args[1]
        elif name == "shr":
            assert kind == "u"
            result = args[0] >> args[1]
        elif name == "or":
            result = args[0] | args[1]
        elif name == "sub":
            result = args[0] - args[1]
        else:
            raise ValueError(f"no interpreter for {line}")
        registers[ops[0]] = wrap(result, width)
    return registers


def expected(op, type_, a, b):
    width = int(type_[1:])
    if type_[0] == "s":
        a, b = signed(a, width), signed(b, width)
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return wrap(q if op == "div" else a - q * b, width)


def main():
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(1)
    checked = 0
    for op, type_, predicate in itertools.product(("div", "rem"), ("u16", "s16", "u32", "s32", "u64", "s64"),
                                                  ("", "@%p1 ", "@!%p1 ")):
        width = int(type_[1:])
        line = f"{predicate}{op}.{type_} %d1, %a1, %b1;"
        counts = rewrite_ptx.Counter()
        block = rewrite_ptx.integer_division(rewrite_ptx.INTEGER_DIVISION.search(line), counts, itertools.count())
        edges = {0, 1, 2, 3, 7, (1 << width) - 1, (1 << width) - 2, 1 << (width - 1), (1 << (width - 1)) - 1,
                 (1 << (width - 1)) + 1}
        edges |= {wrap((1 << k) + e, width) for k in (width // 2, width - 2) for e in (-1, 0, 1)}
        edges |= {wrap(-e, width) for e in edges}
        values = sorted(edges)
        cases = [(a, b) for a in values for b in values]
        cases += [(rng.getrandbits(rng.randint(1, width)), rng.getrandbits(rng.randint(1, width))) for _ in range(pairs)]
        if predicate:  # the guard is the same for all values: a sample of them
            cases = cases[::11]
        for a, b in cases:
            for enabled in ((True, False) if predicate else (True,)):
                registers = run(block, {"%a1": a, "%b1": b, "%d1": 12345, "%p1": enabled})
                live = enabled if predicate != "@!%p1 " else not enabled
                if not live:
                    want = 12345
                elif b == 0:
                    continue  # it ended: any result
                else:
                    want = expected(op, type_, a, b)
                if registers["%d1"] != want:
                    sys.exit(f"check-integer-division.py: {line} a={a:#x} b={b:#x} p={enabled}: "
                             f"{registers['%d1']:#x}, expected {want:#x}")
                checked += 1
    print(f"check-integer-division.py: {checked} divisions and remainders as C computes them")


if __name__ == "__main__":
    main()
