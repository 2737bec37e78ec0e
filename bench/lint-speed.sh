#!/usr/bin/env bash
# Speed of the static estimator on real code: `roofcheck lint` (the entry point, as users run it) against
# clang's own `-fsyntax-only` parse of the same device compilation (the command `roofcheck lint
# --print-command` shows, with the tool's own header included as its front end includes it), alternating,
# medians of RUNS runs, on the translation units listed in TU_LIST (default bench/lint-speed-tus.txt: the
# corpus's five largest, a fixed list so that every run measures the same ones; another list, such as the
# TUs lint is slowest on, can be passed), in wall time and in CPU time (user + system of the process),
# which load from other processes on the machine disturbs less. Target: lint <= 1.5x the parse on every one,
# judged on CPU time.
# `roofcheck lint` asks glibc for transparent huge pages for its heap (driver/roofcheck.cpp); the parse is
# timed also with the same setting (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), so that the table shows what
# lint adds to a parse under equal conditions beside the target's ratio.
#
# usage: bench/lint-speed.sh [BUILD_DIR] [RUNS] [CORPUS_DIR] [TU_LIST]
#        (defaults: build, 5, /work/corpus, bench/lint-speed-tus.txt; TU_LIST lines: PROJECT FILE [anything])
# Exits 0 when every CPU-time ratio is at most 1.5, 1 when one is above, 2 on a setup problem.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
runs=${2:-5}
corpus_dir=${3:-/work/corpus}
tu_list=$(realpath -m "${4:-$root/bench/lint-speed-tus.txt}")
lint=$build/bin/roofcheck
clang=$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)
[[ -x $lint && -x $build/bin/roofcheck-lint ]] || { echo "lint-speed.sh: error: $lint or roofcheck-lint not built" >&2; exit 2; }
[[ -x $clang ]] || { echo "lint-speed.sh: error: clang++-22 not found" >&2; exit 2; }
[[ -f $tu_list ]] || { echo "lint-speed.sh: error: no TU list $tu_list" >&2; exit 2; }

python3 - "$runs" "$lint" "$clang" "$tu_list" "$root/bench/conformance" "$corpus_dir" <<'PY'
import os, resource, shlex, statistics, subprocess, sys, time

runs, lint, clang, tu_list, conformance, corpus_dir = int(sys.argv[1]), *sys.argv[2:]
sys.path.insert(0, conformance)
corpus = __import__("lint-corpus")  # the corpus's TUs and flags, as the conformance run reads them
projects = corpus.load_corpus(os.path.join(conformance, "corpus.json"), corpus_dir, None)
tus = {(p["project"]["root"], tu["file"]): (p, tu) for p in projects for tu in p["tus"]}
listed = [line.split()[:2] for line in open(tu_list) if line.strip() and not line.startswith("#")]
unknown = [f"{project} {path}" for project, path in listed if (project, path) not in tus]
if unknown:
    print(f"lint-speed.sh: error: not in the corpus: {', '.join(unknown)}", file=sys.stderr)
    sys.exit(2)

# The parse must see what lint's front end sees: the tool's own header (tool/CudaCompat.cpp, which lives in
# memory in the tool and selects the same code paths, nvcc's version macros among them), written out here.
source = open(os.path.join(conformance, "..", "..", "tool", "CudaCompat.cpp")).read()
start = source.index('R"(') + 3
compat = os.path.join(os.environ.get("TMPDIR", "/tmp"), "roofcheck-lint-speed-compat.h")
with open(compat, "w") as header:
    header.write(source[start:source.index(')";', start)])

rows, worst = [], 0.0
huge_pages = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=1")
for project_name, path in listed:
    project, tu = tus[(project_name, path)]
    lint_argv = [lint, "lint", tu["path"], "--quiet", "--"] + tu["flags"]
    printed = subprocess.run([lint, "lint", "--print-command", tu["path"], "--"] + tu["flags"], cwd=project["root"],
                             check=True, capture_output=True, text=True).stdout
    parse_argv = [clang] + shlex.split(printed)[1:-1] + ["-include", compat, shlex.split(printed)[-1]]
    commands = {"lint": (lint_argv, None), "parse": (parse_argv, None), "parse-huge": (parse_argv, huge_pages)}
    times = {name: [] for name in commands}
    cpu = {name: [] for name in commands}
    for argv, env in commands.values():  # warm the file cache; the parse may report errors of its own (exit 1)
        subprocess.run(argv, cwd=project["root"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(runs):  # alternating, so that load from other processes hits all alike
        for name, (argv, env) in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, cwd=project["root"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    med = {name: statistics.median(cpu[name]) for name in commands}
    wall = {name: statistics.median(times[name]) for name in commands}
    worst = max(worst, med["lint"] / med["parse"])
    rows.append((project_name + "/" + path, med, {n: (min(v), max(v)) for n, v in cpu.items()}, wall))

print(f"runs: {runs} each, alternating; clang: {clang}")
print("| TU | lint CPU median (min-max) | clang -fsyntax-only CPU median (min-max) | CPU ratio | "
      "parse with huge pages CPU median (min-max) | lint / that parse | wall ratio |")
print("|---|---:|---:|---:|---:|---:|---:|")
for tu, med, spread, wall in rows:
    cells = [f"{med[n]:.2f} s ({spread[n][0]:.2f}-{spread[n][1]:.2f})" for n in ("lint", "parse", "parse-huge")]
    print(f"| `{tu}` | {cells[0]} | {cells[1]} | {med['lint'] / med['parse']:.2f} | {cells[2]} | "
          f"{med['lint'] / med['parse-huge']:.2f} | {wall['lint'] / wall['parse']:.2f} |")
print(f"worst CPU-time ratio: {worst:.2f} (target <= 1.5)")
sys.exit(0 if worst <= 1.5 else 1)
PY
