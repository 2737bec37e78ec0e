#!/usr/bin/env python3
"""Static estimates against Nsight Compute and against hand-derived footprints, on kernels we did not write.

accuracy.json lists public programs of the corpus (how each is built and run) and, for their kernels, the
unique global-memory footprint derived by hand from the source (`read`, `write`: expressions of the kernel's
parameters, grid and block, DESIGN.md's language), with the reasoning. accuracy-h200.sh builds and runs the
programs on the H200: once under `roofcheck run --metrics time` (each launch's arguments) and once under
ncu (the first launch of every configuration: FLOPs per precision, DRAM bytes).

This script lints every translation unit of those programs here with the corpus flags, then for each
kernel that ncu profiled takes the same launch (same kernel, grid and block, its first occurrence) from the
measured file, evaluates the static flops.total, bytes.read and bytes.write and the hand footprint with that
launch's grid, block and arguments, and compares:
  - FLOPs: static flops.total against ncu's fadd + fmul + 2 ffma (fp32, fp64, fp16), within 1%; with
    --source-results, against ncu's count of the same launch in a build by source-convention/nvcc (special
    functions and divisions made integer operations, packed halves one instruction a lane), which is
    Nsight Compute's count in the source convention: the referee then (less its fp16 FLOPs where every fp16
    instruction of the kernel's SASS is a register move, as the report's fp16-register-moves note takes
    them out);
  - bytes: static read and write against the hand footprint, each within 1%;
  - and shows ncu's DRAM bytes beside the footprint (equal only when the footprint does not stay in L2).

usage:
  accuracy.py --stage DIR [--corpus-dir D]        copy the programs' folders into DIR (for the GPU machine)
  accuracy.py --lint BIN --results OUT [--source-results OUT2] [--earlier-json F] [--corpus-dir D]
              [--static-dir S] [--include-dir I]... [--markdown F] [--json F]
Standard library only."""
import argparse
import ast
import csv
import glob
import hashlib
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 0.01


def load_lint_corpus():
    spec = importlib.util.spec_from_file_location("lint_corpus", os.path.join(HERE, "lint-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------------------------ expressions

class Evaluator(ast.NodeVisitor):
    """DESIGN.md's expression language: integers, names, + - * / (floor division on integers), min, max,
    ceil_div, the comparisons lt, le, eq, ne (1 or 0), parentheses. Names are parameter names (a pointer: 1 when
    given, 0 when null) and gridDim.x-style launch dimensions."""

    def __init__(self, names):
        self.names = names

    def visit_Expression(self, node):
        return self.visit(node.body)

    def visit_Constant(self, node):
        return node.value

    def visit_Name(self, node):
        if node.id not in self.names or self.names[node.id] is None:
            raise KeyError(node.id)
        return self.names[node.id]

    def visit_Attribute(self, node):
        return self.visit_Name(ast.Name(id="%s.%s" % (node.value.id, node.attr)))

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.USub):
            return -self.visit(node.operand)
        raise ValueError("operator")

    def visit_BinOp(self, node):
        a, b = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div):
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        raise ValueError("operator")

    def visit_Call(self, node):
        args = [self.visit(a) for a in node.args]
        functions = {"min": min, "max": max, "ceil_div": lambda a, b: -(-a // b),
                     "lt": lambda a, b: int(a < b), "le": lambda a, b: int(a <= b),
                     "eq": lambda a, b: int(a == b), "ne": lambda a, b: int(a != b)}
        return functions[node.func.id](*args)

    def generic_visit(self, node):
        raise ValueError("unsupported %s" % type(node).__name__)


def evaluate(expr, names):
    """The value of expr, or None when expr is null or names a value the launch does not give."""
    if expr is None:
        return None
    try:
        return Evaluator(names).visit(ast.parse(expr, mode="eval"))
    except KeyError:
        return None


def launch_names(params, launch):
    """Parameter name -> value for one launch (scalars decoded from their bytes by the declared type)."""
    names = {}
    for axis, i in (("x", 0), ("y", 1), ("z", 2)):
        names["gridDim." + axis] = launch["grid"][i]
        names["blockDim." + axis] = launch["block"][i]
    args = {a["index"]: a for a in launch.get("args", [])}
    for p in params:
        arg = args.get(p["index"])
        if arg is None or "&" in p["type"]:
            continue
        raw = bytes.fromhex(arg["hex"])
        if "*" in p["type"]:
            names[p["name"]] = int(any(raw))
            continue
        base = re.sub(r"\b(const|volatile)\b", "", p["type"]).strip()
        if base == "double" and len(raw) == 8:
            value = struct.unpack("<d", raw)[0]
        elif base == "float" and len(raw) == 4:
            value = struct.unpack("<f", raw)[0]
        elif len(raw) in (1, 2, 4, 8) and re.fullmatch(r"[\w: ]+", base):
            value = int.from_bytes(raw, "little", signed="unsigned" not in base and base not in
                                   ("size_t", "uint32_t", "uint64_t", "uint", "bool", "std::size_t"))
        else:
            continue
        names[p["name"]] = value
    return names


# ------------------------------------------------------------------------------------ inputs

def read_ncu(path):
    """ncu --csv --page raw rows: (mangled name, grid, block, metrics)."""
    if not os.path.exists(path):
        return []
    lines = [line for line in open(path) if line.startswith('"')]
    rows = list(csv.reader(lines))
    if not rows:
        return []
    header, out = rows[0], []
    for row in rows[2:]:  # the second row holds the units
        cells = dict(zip(header, row))
        dims = lambda text: [int(v) for v in re.findall(r"\d+", text)]
        metrics = {k: float(v.replace(",", "")) for k, v in cells.items() if k.endswith(".sum") and v.strip()}
        out.append({"mangled": cells["Kernel Name"], "grid": dims(cells["Grid Size"]),
                    "block": dims(cells["Block Size"]), "metrics": metrics})
    return out


def ncu_flops(metrics, precisions="fdh"):
    total = 0.0
    for p in precisions:
        op = lambda name: metrics.get("smsp__sass_thread_inst_executed_op_%s%s_pred_on.sum" % (p, name), 0.0)
        total += op("add") + op("mul") + 2 * op("fma")
    return total


def read_fp16_moves_only(path):
    """The functions whose every fp16 instruction is a register move, in sass-fp16.py's output (none where
    the run has no SASS summary)."""
    if not os.path.exists(path):
        return set()
    return {name for name, f in json.load(open(path)).items() if f["fp16"] == f["moves"]}


def read_expansions(path):
    """special-expansions.sh's CSV: special operation (as lint names it: expf, fdiv.f32) -> Nsight Compute's
    FLOPs for one of it, measured as the kernel's FLOPs over its threads (each applies the operation once)."""
    if not os.path.exists(path):
        print("accuracy.py: error: no expansions file %s (special-expansions.sh writes it)" % path, file=sys.stderr)
        sys.exit(2)
    table = {}
    for row in read_ncu(path):
        name = re.sub(r"^op_", "", row["mangled"].split("(")[0].split()[-1])
        name = re.sub(r"_(f32|f64)$", r".\1", name)
        threads = 1
        for d in row["grid"] + row["block"]:
            threads *= d
        table[name] = ncu_flops(row["metrics"]) / threads
    return table


def measured2_args(values, params, arguments):
    """measured/2's arguments (an integer, signed, of its parameter's size, hex bytes, or the id of the
    argument record in `arguments` that holds them) as measured/1's objects (index and hex)."""
    args = []
    for index, value in enumerate(values):
        if value is None or index >= len(params) or params[index] is None:
            continue
        if isinstance(value, dict):
            value = arguments[value["argument"]]
        elif isinstance(value, int):
            value = (value & ((1 << (8 * params[index][1])) - 1)).to_bytes(params[index][1], "little").hex()
        args.append({"index": index, "hex": value})
    return args


def read_launches(directory):
    """Every launch of the measured files in directory, with its kernel's names (measured/2 gives them once,
    in a kernel record the launches refer to; measured/1 in each launch)."""
    launches = []
    for path in sorted(glob.glob(os.path.join(directory, "*.jsonl"))):
        kernels, arguments = {}, {}
        for line in open(path):
            record = json.loads(line)
            if record.get("record") == "kernel":
                kernels[record["id"]] = record
            elif record.get("record") == "argument":
                arguments[record["id"]] = record["bytes"]
            elif record.get("record") == "launch":
                if "kernel" in record:
                    kernel = kernels[record["kernel"]]
                    record.update(name=kernel["name"], mangled=kernel["mangled"],
                                  args=measured2_args(record.get("args", []), kernel["params"], arguments))
                launches.append(record)
    return launches


def lint_program(lint, project, tus, static_dir, include_dirs):
    """Lints each TU (once; kept in static_dir) and returns mangled name -> static kernel."""
    kernels = {}
    for tu in tus:
        out = os.path.join(static_dir, "%s-%s.json" % (project, tu["file"].replace("/", "_")))
        if not os.path.exists(out):
            extra = ["-I" + d for d in include_dirs]
            result = subprocess.run([lint, tu["path"], "--json", out, "--", *tu["flags"], *extra],
                                    capture_output=True, text=True, cwd=os.path.dirname(tu["path"]))
            if result.returncode > 1:
                print("accuracy.py: warning: lint failed on %s: %s" % (tu["path"], result.stderr.strip()[-300:]),
                      file=sys.stderr)
                continue
        for k in json.load(open(out))["kernels"]:
            kernels.setdefault(k["mangled"], k)
    return kernels


# ------------------------------------------------------------------------------------ comparison

def spelling(name):
    """A kernel name as clang and a person may both write it: no spaces, no integer suffixes, the fixed-width
    integer typedefs spelled out."""
    name = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", re.sub(r"\s+", "", name))
    for typedef, builtin in (("uint8_t", "unsignedchar"), ("int8_t", "signedchar"), ("uint32_t", "unsignedint"),
                             ("int32_t", "int"), ("uint64_t", "unsignedlong"), ("int64_t", "long")):
        name = re.sub(r"\b%s\b" % typedef, builtin, name)
    return name


def within(a, b):
    if a is None or b is None:
        return None
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b)) or a == b


def compare(programs, corpus_tus, lint, static_dir, include_dirs, results, expansions, source_results, earlier):
    rows = []
    for program in programs:
        under = [tu for tu in corpus_tus.get(program["project"], []) if tu["file"].startswith(program["corpus_dir"])]
        # The TUs that define the kernels, where they are TUs; all of the folder's where a kernel is in a header.
        files = {os.path.normpath(os.path.join(program["corpus_dir"], k["file"])) for k in program["kernels"]}
        tus = [tu for tu in under if tu["file"] in files] if files <= {tu["file"] for tu in under} else under
        static = lint_program(lint, program["project"], tus, static_dir, include_dirs)
        by_name = {}
        for k in static.values():
            by_name.setdefault(spelling(k["name"]), k)
        launches = read_launches(os.path.join(results, "measured", program["program"]))
        profiled = read_ncu(os.path.join(results, "ncu", program["program"] + ".csv"))
        in_source_convention = (read_ncu(os.path.join(source_results, "ncu", program["program"] + ".csv"))
                                if source_results else None)
        fp16_moves_only = read_fp16_moves_only(os.path.join(source_results or "", "sass", program["program"] + ".json"))
        for hand in program["kernels"]:
            row = {"program": program["program"], "kernel": hand["kernel"], "hand": hand}
            rows.append(row)
            # A lambda's kernel has no name to write by hand: the entry gives its mangled name.
            kernel = static.get(hand["mangled"]) if "mangled" in hand else by_name.get(spelling(hand["kernel"]))
            if kernel is None:
                row["verdict"] = "not in the static file"
                continue
            row["static"] = kernel
            ncu_row = next((r for r in profiled if r["mangled"] == kernel["mangled"]), None)
            if ncu_row is None:
                row["verdict"] = "not launched (no ncu row)"
                continue
            launch = next((l for l in launches if l["mangled"] == kernel["mangled"] and l["grid"] == ncu_row["grid"]
                           and l["block"] == ncu_row["block"]), None)
            if launch is None:
                row["verdict"] = "no measured launch with ncu's grid and block"
                continue
            names = launch_names(kernel["params"], launch)
            row["launch"] = {"grid": launch["grid"], "block": launch["block"]}
            row["static_flops"] = evaluate(kernel["flops"]["total"]["expr"], names)
            row["static_special"] = evaluate(kernel["flops"]["special"]["expr"], names)
            row["ncu_flops"] = ncu_flops(ncu_row["metrics"])
            if earlier is not None:  # --results is the source-convention run: ncu's own count from before
                key = (program["program"], hand["kernel"], tuple(launch["grid"]), tuple(launch["block"]))
                row["ncu_flops"] = earlier.get(key)
            row["static_read"] = evaluate(kernel["bytes"]["read"]["expr"], names)
            row["static_write"] = evaluate(kernel["bytes"]["write"]["expr"], names)
            row["hand_read"] = evaluate(hand.get("read"), names)
            row["hand_write"] = evaluate(hand.get("write"), names)
            row["dram_read"] = ncu_row["metrics"].get("dram__bytes_read.sum")
            row["dram_write"] = ncu_row["metrics"].get("dram__bytes_write.sum")
            row["flops_agree"] = (within(row["static_flops"], row["ncu_flops"])
                                  if row["ncu_flops"] is not None else None)
            if in_source_convention is not None:
                source_row = next((r for r in in_source_convention if r["mangled"] == kernel["mangled"]
                                   and r["grid"] == ncu_row["grid"] and r["block"] == ncu_row["block"]), None)
                row["ncu_flops_source"] = ncu_flops(source_row["metrics"]) if source_row else None
                if source_row and kernel["mangled"] in fp16_moves_only:
                    # Its fp16 "FMAs" are ptxas's register moves (sass-fp16.py): no arithmetic of the source.
                    row["fp16_moves"] = row["ncu_flops_source"] - ncu_flops(source_row["metrics"], "fd")
                    row["ncu_flops_source"] -= row["fp16_moves"]
                row["flops_agree"] = (within(row["static_flops"], row["ncu_flops_source"])
                                      if source_row else None)
            # In Nsight Compute's convention: every special operation expanded as measured alone.
            operations = kernel["flops"].get("special_operations", {})
            if row["static_flops"] is not None and operations and all(op in expansions for op in operations):
                row["static_flops_expanded"] = row["static_flops"] + sum(
                    (evaluate(q["expr"], names) or 0) * expansions[op] for op, q in operations.items())
                row["expanded_agree"] = within(row["static_flops_expanded"], row["ncu_flops"])
            row["bytes_agree"] = (None if hand.get("data_dependent") or row["hand_read"] is None
                                  or row["hand_write"] is None else
                                  bool(within(row["static_read"], row["hand_read"])
                                       and within(row["static_write"], row["hand_write"])))
            row["verdict"] = "compared"
    return rows


def read_earlier(path):
    """ncu's FLOPs per (program, kernel, grid, block) in an earlier --json output."""
    return {(r["program"], r["kernel"], tuple(r["launch"]["grid"]), tuple(r["launch"]["block"])): r["ncu_flops"]
            for r in json.load(open(path)) if r.get("verdict") == "compared"}


def number(v):
    if v is None:
        return "unknown"
    return "{:,}".format(int(v)) if float(v).is_integer() else "{:,.1f}".format(v)


def markdown(rows):
    source = any("ncu_flops_source" in r for r in rows)
    out = ["| program | kernel | static FLOPs | ncu FLOPs |" + (" ncu FLOPs, source convention |" if source else "")
           + " FLOPs | static read / write | hand read / write | bytes | ncu DRAM read / write |",
           "|---|---|---:|---:|" + ("---:|" if source else "") + "---|---:|---:|---|---:|"]
    for r in rows:
        if r["verdict"] != "compared":
            out.append("| %s | `%s` | | |%s %s | | | | |" % (r["program"], r["kernel"], " |" if source else "",
                                                         r["verdict"]))
            continue
        flops = {True: "=", False: "differs", None: "static unknown"}[r["flops_agree"]]
        if source and r["static_flops"] is not None and r.get("ncu_flops_source") is None:
            flops = "no source-convention row"
        elif (not source and r["flops_agree"] is False and (r["static_special"] or 0) > 0
              and r["ncu_flops"] > (r["static_flops"] or 0)):
            flops = "special"
            if "expanded_agree" in r:
                flops = "special: %s expanded (%s)" % ("=" if r["expanded_agree"] else "differs",
                                                        number(r["static_flops_expanded"]))
        bytes_verdict = {True: "=", False: "differs", None: "data-dependent" if r["hand"].get("data_dependent")
                         else "hand unknown"}[r["bytes_agree"]]
        out.append("| %s | `%s` | %s | %s |%s %s | %s / %s | %s / %s | %s | %s / %s |" % (
            r["program"], r["kernel"], number(r["static_flops"]), number(r["ncu_flops"]),
            " %s |" % number(r.get("ncu_flops_source")) if source else "", flops,
            number(r["static_read"]), number(r["static_write"]), number(r["hand_read"]), number(r["hand_write"]),
            bytes_verdict, number(r["dram_read"]), number(r["dram_write"])))
    compared = [r for r in rows if r["verdict"] == "compared"]
    footprint = [r for r in compared if r["bytes_agree"] is not None]
    counted = [r for r in compared if r["static_flops"] is not None]
    flops = [r for r in compared if r["flops_agree"] is not None]
    out.append("")
    out.append("kernels listed: %d; profiled and compared: %d" % (len(rows), len(compared)))
    out.append("bytes: static = hand footprint (read and write within 1%%) on %d of %d kernels with a hand footprint"
               % (sum(r["bytes_agree"] for r in footprint), len(footprint)))
    out.append("FLOPs: static = ncu%s within 1%% on %d of %d kernels with a static count%s; %d kernels' static "
               "count unknown" % (" in the source convention" if source else "",
                                  sum(bool(r["flops_agree"]) for r in flops), len(flops),
                                  " and a source-convention row" if source else "", len(compared) - len(counted)))
    if source:
        # The variant build changes nothing else: where the static side sees no special operation, both of
        # ncu's counts should be one.
        plain = [r for r in counted if not r["static_special"] and r.get("ncu_flops_source") is not None
                 and r["ncu_flops"] is not None]
        out.append("ncu's two counts within 1%% of each other on %d of %d kernels without special operations"
                   % (sum(bool(within(r["ncu_flops"], r["ncu_flops_source"] + r.get("fp16_moves", 0))) for r in plain),
                      len(plain)))
        moves = [r for r in flops if r.get("fp16_moves")]
        out.append("source convention: fp16 FLOPs taken out as register moves (every fp16 instruction in the SASS "
                   "an HFMA2 move) on %d kernels, %s FLOPs" % (len(moves), number(sum(r["fp16_moves"] for r in moves))))
    else:
        expanded = [r for r in flops if r["flops_agree"] is False and "expanded_agree" in r]
        out.append("FLOPs with special operations: static + their measured expansions = ncu within 1%% on %d of %d; "
                   "static = ncu or expanded = ncu on %d of %d kernels with a static count"
                   % (sum(r["expanded_agree"] for r in expanded), len(expanded),
                      sum(bool(r["flops_agree"]) or bool(r.get("expanded_agree")) for r in flops), len(flops)))
    # The referee's referee: where the reads cannot come from L2 (over 64 MiB), DRAM reads are the footprint.
    large = [r for r in footprint if r["hand_read"] and r["hand_read"] > 64 << 20 and r["dram_read"]]
    out.append("hand read footprint within 2%% of ncu's DRAM reads on %d of %d kernels reading over 64 MiB"
               % (sum(abs(r["dram_read"] / r["hand_read"] - 1) <= 0.02 for r in large), len(large)))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus-dir", default="/work/corpus")
    parser.add_argument("--stage", help="copy the programs' folders into this folder and stop")
    parser.add_argument("--lint")
    parser.add_argument("--results", help="accuracy-h200.sh's OUT_DIR")
    parser.add_argument("--source-results", help="OUT_DIR of accuracy-h200.sh with ACCURACY_CONVENTION=source: "
                        "the FLOP referee")
    parser.add_argument("--earlier-json", help="an earlier run's --json output: its ncu FLOPs (Nsight Compute's "
                        "convention) stand in the ncu FLOPs column, where --results is a source-convention run")
    parser.add_argument("--static-dir", help="where the static files go (kept between runs of one lint binary)")
    parser.add_argument("--include-dir", action="append", default=[],
                        help="a folder of toolkit headers this machine lacks (BabelStream needs nvml.h), last on "
                             "the include path")
    parser.add_argument("--expansions", help="special-expansions.sh's CSV: special operations' FLOPs in ncu's terms")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    args = parser.parse_args()

    programs = json.load(open(os.path.join(HERE, "accuracy.json")))["programs"]
    for p in programs:
        p["project"], _, p["corpus_dir"] = p["dir"].partition("/")
    if args.stage:
        for p in programs:
            for folder in [p["dir"], *p.get("also", [])]:  # "also": folders its build reads beside its own
                shutil.copytree(os.path.join(args.corpus_dir, folder), os.path.join(args.stage, folder),
                                dirs_exist_ok=True)
        return 0
    if not (args.lint and args.results):
        parser.error("--lint and --results are needed (or --stage)")
    lint_corpus = load_lint_corpus()
    projects = lint_corpus.load_corpus(os.path.join(HERE, "corpus.json"), args.corpus_dir,
                                       ",".join(sorted({p["project"] for p in programs})))
    corpus_tus = {proj["project"]["root"]: proj["tus"] for proj in projects}
    # Static files are kept for the lint binary that wrote them: another binary lints afresh.
    with open(args.lint, "rb") as binary:
        lint_id = hashlib.sha1(binary.read()).hexdigest()[:12]
    static_dir = os.path.join(args.static_dir or os.path.join(args.results, "static"), lint_id)
    os.makedirs(static_dir, exist_ok=True)
    rows = compare(programs, corpus_tus, os.path.abspath(args.lint), static_dir,
                   [os.path.abspath(d) for d in args.include_dir], args.results,
                   read_expansions(args.expansions) if args.expansions else {}, args.source_results,
                   read_earlier(args.earlier_json) if args.earlier_json else None)
    table = markdown(rows)
    sys.stdout.write(table)
    if args.markdown:
        open(args.markdown, "w").write(table)
    if args.json:
        json.dump([{k: v for k, v in r.items() if k not in ("static", "hand")} for r in rows],
                  open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
