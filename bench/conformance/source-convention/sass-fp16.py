#!/usr/bin/env python3
"""Reads `cuobjdump -sass` on stdin and writes, as JSON, each function's fp16 instructions that Nsight
Compute counts as FLOPs (HADD2, HMUL2, HFMA2 in any form) and how many of them are moves: ptxas
materialises constants with `HFMA2.MMA Rd, -RZ, RZ, a, b` (a product of zeros plus a constant) and copies
registers with `HFMA2.MMA Rd, Rs, 1, 1, -RZ` (times one plus zero), which the FLOP counters take for fp16
FMAs. Where every fp16 instruction of a kernel is a move, the kernel does no fp16 arithmetic, and
accuracy.py takes ncu's fp16 FLOPs out of its count in the source convention. The first few other fp16
instructions of each function are listed, to read.

usage: cuobjdump -sass BINARY | sass-fp16.py > FUNCTIONS.json"""
import json
import re
import sys

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
# /*0040*/  @!P0 HFMA2.MMA R5, -RZ, RZ, 0, 0 ;
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?(?P<opcode>[A-Z][A-Z0-9_.]*)\s*(?P<operands>[^;]*);")
FP16 = re.compile(r"H(?:ADD2|MUL2|FMA2)(?:\.|$)")
ZERO = {"RZ", "-RZ"}


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    functions, current = {}, None
    for line in sys.stdin:
        m = FUNCTION.match(line)
        if m:
            current = functions.setdefault(m[1], {"fp16": 0, "moves": 0, "other": []})
            continue
        m = INSTRUCTION.match(line)
        if current is None or not m or not FP16.match(m["opcode"]):
            continue
        current["fp16"] += 1
        sources = [o.strip() for o in m["operands"].split(",")][1:]
        product_of_zeros = len(sources) >= 2 and set(sources[:2]) <= ZERO
        times_one_plus_zero = sources[1:3] == ["1", "1"] and sources[-1] in ZERO
        if m["opcode"].startswith("HFMA2") and (product_of_zeros or times_one_plus_zero):
            current["moves"] += 1
        elif len(current["other"]) < 3:
            current["other"].append(line.split("*/", 1)[1].split(";")[0].strip() + " ;")
    json.dump({name: f for name, f in functions.items() if f["fp16"]}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
