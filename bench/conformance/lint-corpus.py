#!/usr/bin/env python3
"""Lints the real-code conformance corpus (corpus.json) with roofcheck-lint, one translation unit at a time.

For each TU it runs `roofcheck-lint FILE --json J --sarif S -- FLAGS` (the project's own build flags, nvcc
style) with a timeout, and records the exit status, the time, the kernel count, the kernels with unknowns
and why, the first error line (exit 2) and the findings per rule. It writes RESULTS.jsonl (one object per
TU) and prints a summary: TUs analysable / total per project, the failures grouped into classes by error
message, the unknown reasons that dominate in the analysable TUs, and the findings per rule. The summary
is also written next to the results (.txt).

--nvcc-check instead asks nvcc whether it accepts the device side of a sample of TUs per project (and of
every TU a results file says failed): `nvcc FLAGS -ptx -fdevice-syntax-only -o /dev/null FILE`. TUs that
nvcc rejects belong in the project's "nvcc_rejects" list of corpus.json: they are linted and reported,
but left out of the denominators.

Checkouts come from fetch-corpus.sh. Standard library only.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def load_corpus(path, corpus_dir, only):
    projects = json.load(open(path))
    wanted = set(only.split(",")) if only else None
    out = []
    for p in projects:
        if wanted and p["root"] not in wanted and p["repo"] not in wanted:
            continue
        root = os.path.join(corpus_dir, p["root"])
        if not os.path.isdir(root):
            sys.exit("lint-corpus.py: error: no checkout %s (run fetch-corpus.sh)" % root)
        stamp = os.path.join(root, ".corpus-commit")
        if os.path.exists(stamp) and open(stamp).read().split()[:1] != [p["commit"]]:
            sys.exit("lint-corpus.py: error: %s is not at %s (run fetch-corpus.sh --force --only %s)"
                     % (root, p["commit"], p["root"]))
        files = []
        for entry in p["files"]:
            if any(c in entry for c in "*?["):
                matches = sorted(os.path.relpath(f, root) for f in glob.glob(os.path.join(root, entry), recursive=True))
                files += [f for f in matches if f not in files]
            elif entry not in files:
                files.append(entry)
        tus = []
        for f in files:
            flags = [] if p.get("flags_replace") and f in p.get("file_flags", {}) else list(p.get("flags", []))
            flags += p.get("file_flags", {}).get(f, [])
            flags = [a.replace("{root}", root) for a in flags]
            tus.append({"file": f, "path": os.path.join(root, f), "flags": flags})
        out.append({"project": p, "root": root, "tus": tus, "nvcc_rejects": set(p.get("nvcc_rejects", []))})
    return out


# --------------------------------------------------------------------------------------------- classes

LOC = re.compile(r"^(?P<file>/?[^:\s][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<msg>.*)$")


def split_error(line, tu_path):
    """'roofcheck-lint: error: ...' -> (message, location or None)."""
    msg = re.sub(r"^roofcheck-lint: error: ", "", line.strip())
    loc = None
    m = re.match(r"^cannot compile the device side of (.*?): (.*)$", msg)
    if m and m.group(1) == tu_path:
        rest = m.group(2)
        lm = LOC.match(rest)
        if lm:
            loc = "%s:%s" % (lm.group("file"), lm.group("line"))
            rest = lm.group("msg")
        msg = rest
    msg = re.sub(r"\s*\(and \d+ more errors?\)\s*$", "", msg)
    return msg, loc


def error_class(msg, tu_path):
    """The class of an error message: identifiers kept where they say what is missing."""
    if msg.startswith("no __global__ kernel"):
        return "no __global__ kernel in the file"
    m = re.match(r"^'([^']+)' file not found", msg)
    if m:
        return "'%s' file not found" % m.group(1)
    m = re.match(r"^(use of undeclared identifier|unknown type name|no template named|use of undeclared label)"
                 r" '([^']+)'", msg)
    if m:
        return "%s '%s'" % (m.group(1), m.group(2))
    m = re.match(r"^no member named '([^']+)' in (?:namespace )?'([^']+)'", msg)
    if m:
        return "no member named '%s' in '%s'" % (m.group(1), m.group(2))
    m = re.match(r"^unknown argument: '([^']+)'", msg)
    if m:
        return "unknown argument: '%s'" % m.group(1)
    m = re.match(r"^(?:invalid|unsupported) .*?'([^']+)'", msg)
    if m and ("option" in msg or "argument" in msg):
        return re.sub(r"'[^']*'", "'%s'" % m.group(1), msg, count=1)
    generic = msg.replace(tu_path, "FILE")
    generic = re.sub(r"'[^']*'", "'…'", generic)
    generic = re.sub(r"\"[^\"]*\"", "\"…\"", generic)
    generic = re.sub(r"\b\d+\b", "N", generic)
    return generic


def unknown_class(reason):
    if re.match(r"^call to .*, which the compiler did not inline", reason):
        return "call to a function the compiler did not inline (recursion or noinline)"
    m = re.match(r"^(tensor-map copy in inline assembly) \((cp\.async\.bulk\.tensor)[^)]*\)(.*)$", reason)
    if m:
        return "%s (%s.*)%s" % m.groups()
    m = re.match(r"^(inline assembly [^(]*)\(([a-z_]+)[^)]*\)(.*)$", reason)
    if m:
        return "%s(%s.*)%s" % m.groups()
    r = re.sub(r"'[^']*'", "'…'", reason)
    r = re.sub(r"\b\d+\b", "N", r)
    m = re.match(r"^(kernel not analysed): (.*)$", r)
    if m:
        return m.group(1) + ": " + m.group(2)[:120]
    return r


# --------------------------------------------------------------------------------------------- lint

def run_limited(argv, cwd, timeout):
    start = time.monotonic()
    for attempt in range(4):
        try:
            proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    errors="replace", start_new_session=True)
            break
        except OSError as e:  # a binary being relinked under us: wait for it a little
            if attempt == 3:
                raise SystemExit("lint-corpus.py: error: cannot run %s: %s" % (argv[0], e))
            time.sleep(30)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    return proc.returncode, out, err, time.monotonic() - start, timed_out


COMPAT = """#pragma once
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                  cudaStream_t stream = 0);
#endif
"""


def probe_device_errors(tu, cwd, tmp, timeout, clang):
    """For a TU where the analyser found no kernel: the errors of a plain clang device-side syntax check with
    the TU's -I/-D/-U/-std/-include flags (an approximation of the analyser's front end). Errors in host code
    mean the analyser blanked the functions holding them, and with them the launches that instantiate the
    kernels; no error means a host-only TU."""
    compat = os.path.join(tmp, "compat.h")
    with open(compat, "w") as fh:
        fh.write(COMPAT)
    arch = "sm_90"
    kept = []
    flags = tu["flags"]
    i = 0
    while i < len(flags):
        a = flags[i]
        m = re.search(r"(?:code=\[?|arch=|-arch=|-arch\s)(?:compute|sm)_(\d+[a-z]?)", a)
        if m and ("arch" in a or "code" in a):
            arch = "sm_" + m.group(1)
        if a in ("-I", "-D", "-U", "-include", "-isystem") and i + 1 < len(flags):
            kept += [a, flags[i + 1]]
            i += 2
            continue
        if a in ("-arch", "--gpu-architecture") and i + 1 < len(flags):
            arch = flags[i + 1] if flags[i + 1].startswith("sm_") else arch
            i += 2
            continue
        if re.match(r"^(-I|-D|-U|-isystem).+", a) or re.match(r"^--?std=", a):
            kept.append(a.replace("--std=", "-std="))
        i += 1
    argv = [clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch, "--cuda-path=/usr/local/cuda",
            "-nocudalib", "-fsyntax-only", "-Wno-unknown-cuda-version", "-isystem", "/usr/local/cuda/include/cccl",
            "-include", compat, "-w", "-fno-caret-diagnostics", "-ferror-limit=50"] + kept + [tu["path"]]
    rc, out, err, secs, timed_out = run_limited(argv, cwd, timeout)
    errs = [l for l in err.splitlines() if ": error: " in l]
    return {"rc": rc, "errors": len(errs), "first": errs[0].replace(cwd + "/", "") if errs else None}


HOST_ONLY = ("no __global__ kernel in the file", "no kernel: host-only TU")


def classify_no_kernel(rec, tu):
    """The class of a TU for which the analyser listed no kernel, from the probe and the file's text."""
    probe = rec.get("probe") or {}
    if probe.get("first"):
        msg = re.sub(r"^.*?:\d+:\d+: error: ", "", probe["first"])
        rec["error_class"] = "no kernel left: host code with errors blanked (%s)" % error_class(msg, tu["path"])
        rec["error"] = probe["first"]
        return
    try:
        text = open(tu["path"], errors="replace").read()
    except OSError:
        text = ""
    if re.search(r"\b__global__\b", text):
        rec["error_class"] = "no kernel: the file's __global__ templates are never instantiated (launches compiled out?)"
    elif re.search(r"\b(cub|thrust)::", text):
        rec["error_class"] = "no kernel: CUB/Thrust calls only (library kernels in system headers, or none instantiated)"
    else:
        rec["error_class"] = "no kernel: host-only TU"
    rec["error"] = None


def lint_tu(lint, proj, tu, timeout, tmp, clang=None):
    jpath = os.path.join(tmp, "out.json")
    spath = os.path.join(tmp, "out.sarif")
    for p in (jpath, spath):
        if os.path.exists(p):
            os.unlink(p)
    argv = [lint, tu["path"], "--json", jpath, "--sarif", spath, "--"] + tu["flags"]
    rc, out, err, secs, timed_out = run_limited(argv, proj["root"], timeout)
    rec = {"project": proj["project"]["root"], "repo": proj["project"]["repo"], "file": tu["file"],
           "exit": rc, "seconds": round(secs, 2), "timed_out": timed_out,
           "nvcc_rejected": tu["file"] in proj["nvcc_rejects"], "kernels": None, "kernels_with_unknowns": None,
           "unknowns": {}, "findings": {}, "error": None, "error_location": None, "error_class": None}
    if timed_out:
        rec["error_class"] = "timeout (over %d s)" % timeout
        rec["error"] = rec["error_class"]
    elif rc == 2:
        lines = [l for l in err.splitlines() if l.strip()]
        first = next((l for l in lines if "error:" in l), lines[0] if lines else "(no message)")
        rec["error"] = first.strip()
        msg, loc = split_error(first, tu["path"])
        rec["error_location"] = loc.replace(proj["root"] + "/", "") if loc else None
        rec["error_class"] = error_class(msg, tu["path"])
    elif rc not in (0, 1):
        lines = [l for l in err.splitlines() if l.strip()]
        sig = -rc if rc < 0 else None
        rec["error_class"] = ("crash (signal %d)" % sig) if sig else ("exit status %d" % rc)
        rec["error"] = lines[-1].strip() if lines else rec["error_class"]
    if rc in (0, 1) and not timed_out:
        try:
            doc = json.load(open(jpath))
        except (OSError, ValueError) as e:
            doc = None
            rec["error_class"] = "exit %d without a JSON document" % rc
            rec["error"] = str(e)
        if doc is not None:
            kernels = doc.get("kernels", [])
            rec["kernels"] = len(kernels)
            rec["library_kernels"] = sum(1 for k in kernels if k.get("library"))
            with_unknowns = 0
            per_reason = collections.Counter()
            examples = {}
            for k in kernels:
                unknowns = k.get("unknowns") or []
                if unknowns:
                    with_unknowns += 1
                seen = set()
                for u in unknowns:
                    cls = unknown_class(u.get("reason", "?"))
                    if cls not in seen:
                        seen.add(cls)
                        per_reason[cls] += 1
                        if cls not in examples:
                            f = (u.get("file") or "").replace(proj["root"] + "/", "")
                            examples[cls] = "%s:%s: %s" % (f, u.get("line"), u.get("reason"))
            rec["kernels_with_unknowns"] = with_unknowns
            rec["unknowns"] = {c: {"kernels": n, "example": examples[c]} for c, n in per_reason.most_common()}
            # A kernel with one unknown may still have its FLOPs or bytes: what is counted, quantity by quantity.
            def known(k, group, name):
                return ((k.get(group) or {}).get(name) or {}).get("expr") is not None
            rec["kernels_known"] = {q: sum(1 for k in kernels if known(k, g, n)) for q, (g, n) in
                                    {"flops": ("flops", "total"), "tensor": ("flops", "tensor"),
                                     "bytes": ("bytes", "ideal")}.items()}
            # Bytes known for every launch, not only where a test of the parameters holds (known_when).
            rec["kernels_known"]["bytes_every_launch"] = sum(
                1 for k in kernels if known(k, "bytes", "ideal") and "known_when" not in k["bytes"]["ideal"])
        findings = collections.Counter()
        listed = []  # each finding, for the triage (bench/conformance/triage.py)
        try:
            sarif = json.load(open(spath))
            for run in sarif.get("runs", []):
                for r in run.get("results", []):
                    findings[r.get("ruleId", "?")] += 1
                    loc = (r.get("locations") or [{}])[0].get("physicalLocation", {})
                    uri = loc.get("artifactLocation", {}).get("uri", "")
                    listed.append({"rule": r.get("ruleId", "?"), "file": uri.replace("file://", "").replace(proj["root"] + "/", ""),
                                   "line": loc.get("region", {}).get("startLine"),
                                   "message": r.get("message", {}).get("text", "")})
        except (OSError, ValueError):
            for line in out.splitlines():
                m = re.search(r": (?:warning|error): .*\[(roofcheck-[a-z0-9-]+)\]\s*$", line)
                if m:
                    findings[m.group(1)] += 1
        rec["findings"] = dict(findings)
        rec["finding_list"] = listed
        if rec["kernels"] == 0 and clang:
            rec["probe"] = probe_device_errors(tu, proj["root"], tmp, timeout, clang)
            classify_no_kernel(rec, tu)
    lines = [l for l in out.splitlines() if l.strip()]
    rec["stdout_last"] = lines[-1][:300] if lines else None
    return rec


# --------------------------------------------------------------------------------------------- summary

def summarize(records, projects, nvcc_records=None):
    lines = []
    by_proj = collections.OrderedDict((p["project"]["root"], []) for p in projects)
    for r in records:
        by_proj.setdefault(r["project"], []).append(r)
    ok = lambda r: r["exit"] in (0, 1) and not r["timed_out"] and bool(r.get("kernels"))
    nokernel = lambda r: (r.get("error_class") or "") in HOST_ONLY
    lines.append("Per project (analysable = exit 0 or 1 with a JSON document listing at least one kernel; "
                 "nvcc-rejected TUs are not counted; 'w/o host-only' also leaves out the TUs without any kernel to find)")
    hdr = "%-12s %-38s %5s %5s %10s %10s %14s %8s %9s %11s %11s %7s" % (
        "project", "repo", "TUs", "nvcc-", "analysable", "fraction", "w/o host-only", "kernels", "w/unknown",
        "flops known", "bytes known", "median s")
    lines.append(hdr)
    tot = collections.Counter()
    for name, rs in by_proj.items():
        if not rs:
            continue
        counted = [r for r in rs if not r["nvcc_rejected"]]
        good = [r for r in counted if ok(r)]
        nk = [r for r in counted if nokernel(r)]
        kern = sum(r["kernels"] or 0 for r in good)
        unk = sum(r["kernels_with_unknowns"] or 0 for r in good)
        # results written before the field existed have none: "-"
        flops_known = sum((r.get("kernels_known") or {}).get("flops", 0) for r in good)
        bytes_known = sum((r.get("kernels_known") or {}).get("bytes", 0) for r in good)
        has_known = any("kernels_known" in r for r in good)
        secs = sorted(r["seconds"] for r in rs)
        med = secs[len(secs) // 2] if secs else 0
        denom2 = len(counted) - len(nk)
        lines.append("%-12s %-38s %5d %5d %10d %9.1f%% %13.1f%% %8d %9d %11s %11s %7.1f" % (
            name, rs[0]["repo"], len(rs), len(rs) - len(counted), len(good),
            100.0 * len(good) / max(1, len(counted)), 100.0 * len(good) / max(1, denom2), kern, unk,
            flops_known if has_known else "-", bytes_known if has_known else "-", med))
        tot.update({"tus": len(rs), "rej": len(rs) - len(counted), "good": len(good), "counted": len(counted),
                    "nk": len(nk), "kern": kern, "unk": unk, "flops": flops_known, "bytes": bytes_known,
                    "has_known": int(has_known)})
    lines.append("%-12s %-38s %5d %5d %10d %9.1f%% %13.1f%% %8d %9d %11s %11s" % (
        "TOTAL", "", tot["tus"], tot["rej"], tot["good"], 100.0 * tot["good"] / max(1, tot["counted"]),
        100.0 * tot["good"] / max(1, tot["counted"] - tot["nk"]), tot["kern"], tot["unk"],
        tot["flops"] if tot["has_known"] else "-", tot["bytes"] if tot["has_known"] else "-"))

    # failure classes: the analyser's (nvcc accepts the TU, or was not asked), the TUs with nothing to find,
    # and the TUs nvcc rejects too
    fails = [r for r in records if not ok(r)]

    def section(title, rs):
        classes = collections.OrderedDict()
        for r in sorted(rs, key=lambda r: (r["project"], r["file"])):
            cls = r["error_class"] or ("analysed all the same (%d kernels)" % r["kernels"] if ok(r) else "?")
            cls = re.sub(r"\(\d+ kernels\)", "(N kernels)", cls) if ok(r) else cls
            c = classes.setdefault(cls, {"n": 0, "projects": collections.Counter(), "ex": r})
            c["n"] += 1
            c["projects"][r["project"]] += 1
        lines.append("")
        lines.append("%s (%d TUs)" % (title, len(rs)))
        for cls, c in sorted(classes.items(), key=lambda kv: (-kv[1]["n"], kv[0])):
            projs = ", ".join("%s %d" % kv for kv in c["projects"].most_common())
            ex = c["ex"]
            lines.append("%4d  %s  [%s]" % (c["n"], cls, projs))
            msg = ex.get("error") or ""
            msg = re.sub(r"^roofcheck-lint: error: cannot compile the device side of \S+: ", "", msg)
            where = ex.get("error_location")
            lines.append("        e.g. %s/%s%s%s" % (ex["project"], ex["file"], " (at %s)" % where if where else "",
                                                      ": " + msg[:240] if msg else ""))

    section("Front-end failures of the analyser (nvcc accepts the TU, or was not asked), ranked",
            [r for r in fails if not r["nvcc_rejected"] and not nokernel(r)])
    section("No kernel to find (host-only TUs, not failures)", [r for r in fails if not r["nvcc_rejected"] and nokernel(r)])
    section("TUs nvcc rejects too, with these flags and CUDA 13 (not counted)", [r for r in records if r["nvcc_rejected"]])
    # unknowns
    unk = collections.Counter()
    unk_tus = collections.Counter()
    unk_ex = {}
    for r in records:
        if not ok(r):
            continue
        for cls, v in (r.get("unknowns") or {}).items():
            unk[cls] += v["kernels"]
            unk_tus[cls] += 1
            unk_ex.setdefault(cls, "%s: %s" % (r["project"], v["example"]))
    lines.append("")
    lines.append("Kernel-level unknowns in the analysable TUs (kernels affected, TUs), ranked")
    for cls, n in unk.most_common(40):
        lines.append("%5d %4d  %s" % (n, unk_tus[cls], cls))
        lines.append("            e.g. %s" % unk_ex[cls][:300])
    lines.append("  per project, the top 3 (kernels):")
    for name, rs in by_proj.items():
        c = collections.Counter()
        for r in rs:
            if ok(r):
                for cls, v in (r.get("unknowns") or {}).items():
                    c[cls] += v["kernels"]
        if c:
            lines.append("    %-12s %s" % (name, "; ".join("%s %d" % (k[:60], n) for k, n in c.most_common(3))))
    # findings
    fnd = collections.Counter()
    fnd_tus = collections.Counter()
    for r in records:
        for rule, n in (r.get("findings") or {}).items():
            fnd[rule] += n
            fnd_tus[rule] += 1
    lines.append("")
    lines.append("Lint findings by rule (findings, TUs)")
    for rule, n in fnd.most_common():
        lines.append("%6d %4d  %s" % (n, fnd_tus[rule], rule))
    # time
    total_s = sum(r["seconds"] for r in records)
    slow = sorted(records, key=lambda r: -r["seconds"])[:5]
    lines.append("")
    lines.append("Time: %.0f s for %d TUs; slowest: %s" % (
        total_s, len(records), ", ".join("%s/%s %.0fs" % (r["project"], r["file"], r["seconds"]) for r in slow)))
    if nvcc_records:
        lines.append("")
        rej = [r for r in nvcc_records if r["rc"] != 0]
        lines.append("nvcc check: %d TUs checked, %d rejected" % (len(nvcc_records), len(rej)))
        for r in rej:
            lines.append("   %s/%s: %s" % (r["project"], r["file"], r["error"][:200]))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------- nvcc

def nvcc_check(args, projects):
    failed = set()
    if args.results and os.path.exists(args.results):
        for line in open(args.results):
            r = json.loads(line)
            if not (r["exit"] in (0, 1) and not r["timed_out"] and r.get("kernels")):
                failed.add((r["project"], r["file"]))
    out_path = os.path.join(args.out, "nvcc-check.jsonl")
    recs = []
    with open(out_path, "w") as fh:
        for proj in projects:
            tus = proj["tus"]
            n = len(tus)
            k = min(args.sample, n)
            picked = {tus[(i * n) // k]["file"] for i in range(k)} if k else set()
            picked |= {f for (p, f) in failed if p == proj["project"]["root"]}
            for tu in tus:
                if tu["file"] not in picked:
                    continue
                flags = list(tu["flags"])
                if not any(re.match(r"^(-arch|--gpu-architecture|-gencode|--generate-code)", a) for a in flags):
                    flags.append("-arch=sm_90")  # nvcc's own default (sm_75) is not what the analyser reads
                argv = [args.nvcc] + flags + ["-ptx", "-fdevice-syntax-only", "-o", os.devnull, tu["path"]]
                rc, out, err, secs, timed_out = run_limited(argv, proj["root"], args.timeout * 3)
                errs = [l for l in err.splitlines() if re.search(r"\berror\b", l)]
                rec = {"project": proj["project"]["root"], "file": tu["file"], "rc": 124 if timed_out else rc,
                       "seconds": round(secs, 2), "sampled": tu["file"] not in
                       {f for (p, f) in failed if p == proj["project"]["root"]},
                       "error": (errs[0] if errs else (err.strip().splitlines() or [""])[-1]).replace(
                           proj["root"] + "/", "") if rc != 0 or timed_out else ""}
                recs.append(rec)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print("%-10s %-70s nvcc rc=%d %.1fs %s" % (rec["project"], rec["file"], rec["rc"], secs,
                                                           rec["error"][:120]), flush=True)
    rej = collections.defaultdict(list)
    for r in recs:
        if r["rc"] != 0:
            rej[r["project"]].append(r["file"])
    print("\nnvcc rejects (for corpus.json's nvcc_rejects):")
    print(json.dumps(rej, indent=1))
    return recs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lint", default=os.path.join(REPO, "build", "bin", "roofcheck-lint"))
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--corpus-dir", default="/work/corpus")
    ap.add_argument("--only", help="project roots or repos, comma separated")
    ap.add_argument("--match", help="only TUs whose path contains this string")
    ap.add_argument("--out", default=HERE, help="directory of the results (default: this directory)")
    ap.add_argument("--tag", default="", help="results-TAG.jsonl / results-TAG.txt instead of results.jsonl")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per TU (default 120)")
    ap.add_argument("--extra-flag", action="append", default=[], metavar="FLAG",
                    help="append FLAG to every TU's flags (an experiment: --extra-flag=-D__CUDACC_VER_MAJOR__=13)")
    ap.add_argument("--resume", action="store_true", help="keep the TUs already in the results file")
    ap.add_argument("--summary-only", action="store_true", help="summarise the existing results file")
    ap.add_argument("--reprobe", action="store_true",
                    help="with --summary-only: probe the TUs without kernels that have no probe yet, rewrite the file "
                         "with the current classification")
    ap.add_argument("--nvcc-check", action="store_true", help="check a sample of TUs (and the failures) with nvcc")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--clang", default=shutil.which("clang++-22") or shutil.which("clang++") or "",
                    help="clang++ for the probe of TUs without kernels ('' to skip the probe)")
    ap.add_argument("--sample", type=int, default=5, help="TUs per project for --nvcc-check (default 5)")
    ap.add_argument("--results", help="results file whose failures --nvcc-check also checks")
    args = ap.parse_args()

    projects = load_corpus(args.corpus, args.corpus_dir, args.only)
    if args.match:
        for p in projects:
            p["tus"] = [t for t in p["tus"] if args.match in t["file"]]
    for p in projects:
        for t in p["tus"]:
            t["flags"] = t["flags"] + args.extra_flag
    os.makedirs(args.out, exist_ok=True)
    if args.nvcc_check:
        nvcc_check(args, projects)
        return 0

    base = "results-%s" % args.tag if args.tag else "results"
    res_path = os.path.join(args.out, base + ".jsonl")
    txt_path = os.path.join(args.out, base + ".txt")
    nvcc_path = os.path.join(args.out, "nvcc-check.jsonl")
    nvcc_records = [json.loads(l) for l in open(nvcc_path)] if os.path.exists(nvcc_path) else None

    records = []
    if args.summary_only or args.resume:
        if os.path.exists(res_path):
            records = [json.loads(l) for l in open(res_path) if l.strip()]
    if not args.summary_only:
        if not os.access(args.lint, os.X_OK):
            sys.exit("lint-corpus.py: error: no roofcheck-lint at %s (--lint PATH)" % args.lint)
        done = {(r["project"], r["file"]) for r in records}
        total = sum(len(p["tus"]) for p in projects)
        tmp = tempfile.mkdtemp(prefix="lint-corpus-")
        mode = "a" if args.resume else "w"
        i = len(done)
        try:
            with open(res_path, mode) as fh:
                for proj in projects:
                    for tu in proj["tus"]:
                        if (proj["project"]["root"], tu["file"]) in done:
                            continue
                        i += 1
                        rec = lint_tu(args.lint, proj, tu, args.timeout, tmp, args.clang)
                        if args.extra_flag:
                            rec["extra_flags"] = args.extra_flag
                        records.append(rec)
                        fh.write(json.dumps(rec) + "\n")
                        fh.flush()
                        status = ("ok  %d kernels, %d with unknowns" % (rec["kernels"], rec["kernels_with_unknowns"])
                                  if rec["kernels"] else ("--  " if rec["error_class"] in HOST_ONLY else "FAIL ")
                                  + (rec["error_class"] or "")[:90])
                        print("[%3d/%d] %-10s %-64s %6.1fs %s" % (i, total, rec["project"], tu["file"][-64:],
                                                                  rec["seconds"], status), flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.reprobe and args.clang:
        # the probe for the TUs without kernels of an existing results file (written by an older script)
        tmp = tempfile.mkdtemp(prefix="lint-corpus-")
        tus = {(p["project"]["root"], t["file"]): (p, t) for p in projects for t in p["tus"]}
        try:
            for r in records:
                if r["exit"] in (0, 1) and r.get("kernels") == 0 and "probe" not in r and (r["project"], r["file"]) in tus:
                    proj, tu = tus[(r["project"], r["file"])]
                    r["probe"] = probe_device_errors(tu, proj["root"], tmp, args.timeout, args.clang)
                    print("probe %s/%s: %s" % (r["project"], r["file"], r["error_class"]), flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    # re-normalise the unknown reasons with the current rules (merged reasons of one TU: the largest count,
    # a lower bound of the kernels affected)
    for r in records:
        merged = {}
        for cls, v in (r.get("unknowns") or {}).items():
            new = unknown_class(cls)
            if new not in merged or v["kernels"] > merged[new]["kernels"]:
                merged[new] = dict(v)
        r["unknowns"] = merged
    # (re)classify the TUs without kernels that have a probe, from the current rules
    tus = {(p["project"]["root"], t["file"]): t for p in projects for t in p["tus"]}
    for r in records:
        if "probe" in r and (r["project"], r["file"]) in tus:
            classify_no_kernel(r, tus[(r["project"], r["file"])])
    if args.reprobe:  # write the records back, probed and classified by the current rules
        with open(res_path, "w") as fh:
            for r in records:
                fh.write(json.dumps(r) + "\n")
    # keep the summary to the projects selected
    names = {p["project"]["root"] for p in projects}
    # re-apply the corpus' nvcc_rejects (they may have been added after the run)
    rejects = {(p["project"]["root"], f) for p in projects for f in p["nvcc_rejects"]}
    for r in records:
        r["nvcc_rejected"] = (r["project"], r["file"]) in rejects
    nvcc_records = [r for r in nvcc_records or [] if r["project"] in names] or None
    text = summarize([r for r in records if r["project"] in names], projects, nvcc_records)
    try:
        version = subprocess.run([args.lint, "--version"], capture_output=True, text=True).stdout.strip()
        built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(args.lint)))
        extra = sorted({" ".join(r["extra_flags"]) for r in records if r.get("extra_flags")})
        text = "%s (%s, built %s); corpus %s%s\n\n" % (
            version, args.lint, built, args.corpus,
            "".join("\nexperiment: every TU's flags + %s" % e for e in extra)) + text
    except OSError:
        pass
    print()
    print(text, end="")
    with open(txt_path, "w") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
