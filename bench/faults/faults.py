#!/usr/bin/env python3
"""Runs and judges the cases of bench/faults/run-faults.sh (standard library only).

  faults.py measure --dir DIR --timeout S [--signal NAME --target launcher|program [--delay S]] -- COMMAND...
      runs COMMAND in its own session with stdout/stderr in DIR, and writes DIR/result.json: exit status,
      wall time, max RSS of everything it waited for, whether it timed out, the signal it sent, and whether
      the program outlived the process it started (the suite then kills it). With --signal, the signal goes
      --delay seconds after the program printed `launches completed: N`, to the started process
      (launcher) or to the pid the program printed on stderr (program).
  faults.py judge --rows FILE --name NAME --label TEXT --native DIR --shim DIR [options]
      compares a run under `roofcheck run` with the native one, checks its measured files, appends a row.
  faults.py sanitized --rows FILE --label TEXT --tool TOOL (--run DIR | --skipped WHY)
      reads compute-sanitizer's summary lines from a measured run, appends a row.
  faults.py table --rows FILE --sanitizer FILE [--about FILE]
      prints the Markdown tables.
"""
import argparse
import ctypes
import difflib
import glob
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time

READY = re.compile(rb"^launches completed: (\d+)$", re.M)
PROGRAM_PID = re.compile(rb"^faults: pid (\d+)$", re.M)
PR_SET_CHILD_SUBREAPER = 36
ORPHAN_GRACE_S = 10


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def still_running(pid):
    """True while pid runs; reaps it when it is an ended child of ours."""
    try:
        ended, _ = os.waitpid(pid, os.WNOHANG)
        return ended == 0
    except ChildProcessError:
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False


def reap_children(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            time.sleep(0.01)
    return False


def measure(args):
    # Orphans of the run (a program whose launcher was killed) become our children, so they are seen and
    # their memory is counted when they are reaped.
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.makedirs(args.dir, exist_ok=True)
    out_path, err_path = os.path.join(args.dir, "stdout"), os.path.join(args.dir, "stderr")
    wanted = signal.Signals["SIG" + args.signal] if args.signal else None
    result = {"command": args.command, "timed_out": False, "signal_sent": None, "orphan": False}
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        proc = subprocess.Popen(args.command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        ready_at = None
        while proc.poll() is None:
            now = time.monotonic()
            if now - start > args.timeout:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
                result["timed_out"] = True
                break
            if wanted and result["signal_sent"] is None:
                if ready_at is None and READY.search(read_bytes(out_path)):
                    ready_at = now
                if ready_at is not None and now - ready_at >= args.delay:
                    target = proc.pid
                    if args.target == "program":
                        found = PROGRAM_PID.search(read_bytes(err_path))
                        target = int(found.group(1)) if found else None
                    if target:
                        os.kill(target, wanted)
                        result["signal_sent"] = {"signal": wanted.name, "to": args.target, "pid": target,
                                                 "after_s": round(now - start, 3)}
            time.sleep(0.005)
        result["wall_s"] = round(time.monotonic() - start, 3)
    result["returncode"] = proc.returncode
    found = PROGRAM_PID.search(read_bytes(err_path))
    program = int(found.group(1)) if found else None
    if program and program != proc.pid:
        # A launcher killed with SIGKILL ends its program with SIGTERM, which first writes what the shim holds
        # (at most 5 s): the program is an orphan only if it outlives that grace.
        ended_at = time.monotonic()
        while still_running(program) and time.monotonic() - ended_at < ORPHAN_GRACE_S:
            time.sleep(0.01)
        if still_running(program):
            result["orphan"] = True
            os.kill(program, signal.SIGKILL)
        else:
            result["program_outlived_s"] = round(time.monotonic() - ended_at, 3)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # anything else the run left behind
    except (ProcessLookupError, PermissionError):
        pass
    result["all_reaped"] = reap_children(10)
    result["max_rss_kib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if wanted and result["signal_sent"] is None:
        result["signal_not_sent"] = "the process ended before it was ready" if not result["timed_out"] else "timed out"
    with open(os.path.join(args.dir, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    return 0


def status_text(returncode):
    if returncode is None:
        return "no result"
    if returncode < 0:
        try:
            return f"signal {-returncode} ({signal.Signals(-returncode).name})"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit {returncode}"


def load_run(directory):
    try:
        with open(os.path.join(directory, "result.json")) as f:
            result = json.load(f)
    except (OSError, ValueError):
        result = {"returncode": None, "wall_s": None, "max_rss_kib": None, "timed_out": False, "missing": True}
    result["stdout"] = read_bytes(os.path.join(directory, "stdout"))
    result["stderr"] = read_bytes(os.path.join(directory, "stderr")).decode(errors="replace")
    result["dir"] = directory
    return result


def completed_launches(stdout):
    found = READY.findall(stdout)
    return int(found[-1]) if found else 0


def check_measured_file(path):
    """Parses a roofcheck.measured/1 file line by line."""
    data = read_bytes(path)
    lines = data.split(b"\n")
    partial = lines.pop()  # empty when the file ends with a newline
    facts = {"path": path, "launches": 0, "bad_lines": [], "truncated": False, "header": False,
             "summaries": [], "duplicates": 0}
    indices = set()
    records = [(number, line, True) for number, line in enumerate(lines, 1)]
    if partial:
        records.append((len(lines) + 1, partial, False))
    for number, line, complete in records:
        try:
            record = json.loads(line)
        except ValueError:
            if complete:
                facts["bad_lines"].append(number)
            else:
                facts["truncated"] = True
            continue
        kind = record.get("record") if isinstance(record, dict) else None
        if number == 1:
            facts["header"] = kind == "header"
        if kind == "launch":
            index = record.get("index")
            if index in indices:
                facts["duplicates"] += 1
            indices.add(index)
        elif kind == "summary":
            facts["summaries"].append(number)
    facts["launches"] = len(indices)  # a launch recorded twice counts once
    facts["last_line"] = len(records)
    return facts


def md(text):
    return str(text).replace("|", "\\|").replace("\n", "<br>")


def mib(kib):
    return "?" if kib is None else f"{kib / 1024:.0f}"


def seconds(value):
    return "?" if value is None else f"{value:.2f}"


def what_the_user_saw(stderr, native_stderr):
    seen = []
    native_lines = set(native_stderr.splitlines())
    for line in stderr.splitlines():
        if line.startswith("faults: pid "):
            continue
        if "warning" in line and "roofcheck" in line:
            seen.append(line)
        elif line.startswith("roofcheck-run: ") and "launches seen" in line:
            tail = re.search(r"\(([^)]*)\)\s*$", line)
            seen.append("summary line" + (f" ({tail.group(1)})" if tail else ""))
        elif line not in native_lines and not line.startswith("==") and line.strip():
            seen.append("other stderr: " + line)
    unique = list(dict.fromkeys(seen))
    shown = [s if len(s) <= 200 else s[:197] + "..." for s in unique[:4]]
    if len(unique) > 4:
        shown.append(f"(+{len(unique) - 4} more lines)")
    return shown or ["nothing"]


def append_row(path, row):
    with open(path, "a") as f:
        f.write(json.dumps(row) + "\n")


def compare_runs(native, shim, under_profiler):
    """What differs between the native run and the run under roofcheck, as the user sees it."""
    problems = []
    for run, who in ((native, "native"), (shim, "shim")):
        if run.get("timed_out"):
            problems.append(f"{who} run hung: killed after {run.get('wall_s')} s")
        if run.get("signal_not_sent"):
            problems.append(f"{who}: signal not sent ({run['signal_not_sent']})")
        if run.get("all_reaped") is False:
            problems.append(f"{who}: processes left after the run")
    if not completed_launches(native["stdout"]):
        problems.append(f"the native run reported no completed launches ({status_text(native['returncode'])}): "
                        "nothing was tested")
    if native["returncode"] != shim["returncode"]:
        problems.append("exit status differs")
    shim_stdout = shim["stdout"]
    if under_profiler:
        shim_stdout = b"".join(l for l in shim_stdout.splitlines(True) if not l.startswith(b"=="))
    if native["stdout"] != shim_stdout:
        problems.append("stdout differs (stdout.diff)")
        diff = difflib.unified_diff(native["stdout"].decode(errors="replace").splitlines(True),
                                    shim_stdout.decode(errors="replace").splitlines(True), "native", "shim")
        with open(os.path.join(shim["dir"], "stdout.diff"), "w") as f:
            f.writelines(list(diff)[:200])
    if shim.get("orphan"):
        problems.append(f"the program kept running {ORPHAN_GRACE_S} s after the launcher was killed (the suite killed it)")
    return problems


def check_records(shim, args, completed):
    """Checks the measured files of the run under roofcheck: (launches text, recorded, problems, notes)."""
    problems, notes = [], []
    files = sorted(glob.glob(os.path.join(shim["dir"], "out", "*.measured.jsonl")))
    if args.under_profiler:
        warnings = [l for l in shim["stderr"].splitlines() if l.startswith("roofcheck-run: warning:")]
        if len(warnings) != 1:
            problems.append(f"{len(warnings)} roofcheck-run warnings, expected 1")
        if files:
            problems.append("roofcheck measured under the other profiler")
        return f"{completed} / not measured (as documented)", 0, problems, notes
    if not files:
        problems.append("no measured file")
    recorded = 0
    for path in files:
        facts = check_measured_file(path)
        recorded += facts["launches"]
        name = os.path.basename(path)
        if facts["bad_lines"]:
            problems.append(f"{name}: lines that do not parse: {facts['bad_lines'][:5]}")
        if not facts["header"]:
            problems.append(f"{name}: line 1 is not the header")
        if facts["truncated"]:
            (notes if args.allow_truncated else problems).append(f"{name}: last line truncated")
        if facts["duplicates"]:
            problems.append(f"{name}: {facts['duplicates']} launch indices recorded twice")
        if len(facts["summaries"]) > 1 or (facts["summaries"] and facts["summaries"][-1] != facts["last_line"]):
            problems.append(f"{name}: summary record(s) at lines {facts['summaries']} (not only last)")
        if not facts["summaries"]:
            notes.append(f"{name}: no summary record")
    if len(files) > 1:
        notes.append(f"{len(files)} measured files")
    lost = max(0, completed - recorded)
    if lost:
        problems.append(f"{lost} completed launches not recorded")
    if args.exact and recorded > completed:
        problems.append(f"{recorded - completed} more records than launches")
    return f"{completed} / {recorded} ({lost} lost)", recorded, problems, notes


def check_memory(native, shim, args):
    problems, notes = [], []
    native_rss, shim_rss = native.get("max_rss_kib"), shim.get("max_rss_kib")
    # Under ncu the largest process is ncu itself: its memory says nothing about roofcheck's.
    if not args.under_profiler and native_rss is not None and shim_rss is not None \
            and shim_rss > native_rss + args.rss_slack_mib * 1024:
        problems.append(f"max RSS more than {args.rss_slack_mib} MiB above native")
    if args.baseline and shim_rss is not None:
        base = load_run(args.baseline)
        if base.get("max_rss_kib") is not None:
            growth = shim_rss - base["max_rss_kib"]
            notes.append(f"{growth / 1024:+.0f} MiB against {completed_launches(base['stdout'])} launches")
            if growth > args.growth_limit_mib * 1024:
                problems.append(f"memory grows with the launches (more than {args.growth_limit_mib} MiB)")
    return problems, notes


def judge(args):
    native, shim = load_run(args.native), load_run(args.shim)
    completed = completed_launches(shim["stdout"])
    row = {"name": args.name, "label": args.label, "completed": completed, "recorded": 0,
           "rss": f"{mib(native.get('max_rss_kib'))} / {mib(shim.get('max_rss_kib'))}",
           "wall": f"{seconds(native.get('wall_s'))} / {seconds(shim.get('wall_s'))}",
           "happened": f"native {status_text(native['returncode'])}; shim {status_text(shim['returncode'])}",
           "saw": what_the_user_saw(shim["stderr"], native["stderr"]), "launches": "-",
           "problems": [], "notes": [], "logs": os.path.relpath(args.shim, os.path.dirname(args.rows))}
    missing = [who for run, who in ((native, "native"), (shim, "shim")) if run.get("missing")]
    if missing:
        row["problems"] = [f"no result from the {' and '.join(missing)} run (past the deadline, or the wrapper failed)"]
    else:
        row["problems"] = compare_runs(native, shim, args.under_profiler)
        row["launches"], row["recorded"], problems, notes = check_records(shim, args, completed)
        row["problems"] += problems
        row["notes"] += notes
        problems, notes = check_memory(native, shim, args)
        row["problems"] += problems
        row["notes"] += notes
        if shim.get("signal_sent"):
            sent = shim["signal_sent"]
            row["happened"] += f"; {sent['signal']} sent to the {sent['to']} at {sent['after_s']} s"
        if shim.get("program_outlived_s") is not None:
            row["notes"].append(f"the program ended {shim['program_outlived_s']} s after the launcher")
    append_row(args.rows, row)
    verdict = "PASS" if not row["problems"] else "FAIL: " + "; ".join(row["problems"])
    print(f"{args.label}: {verdict}" + (f" ({'; '.join(row['notes'])})" if row["notes"] else ""))
    return 0


def sanitized(args):
    if args.skipped:
        append_row(args.rows, {"label": args.label, "tool": args.tool, "summary": ["not run"], "status": "-",
                               "wall": "-", "problems": [], "skipped": args.skipped, "logs": ""})
        print(f"{args.tool} {args.label}: skipped ({args.skipped})")
        return 0
    run = load_run(args.run)
    text = run["stdout"].decode(errors="replace") + "\n" + run["stderr"]
    summaries = [l.strip("= ").strip() for l in text.splitlines()
                 if re.search(r"(ERROR|RACECHECK) SUMMARY:", l)]
    errors = [int(m) for m in re.findall(r"ERROR SUMMARY: (\d+) error", text)]
    hazards = [int(m) for m in re.findall(r"RACECHECK SUMMARY: (\d+) hazard", text)]
    problems = []
    if run.get("missing"):
        problems.append("no result")
    if run.get("timed_out"):
        problems.append(f"timed out after {run.get('wall_s')} s")
    # memcheck ends with an ERROR SUMMARY, racecheck with a RACECHECK SUMMARY of hazards and errors.
    errors += [int(m) for m in re.findall(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error", text)]
    if not errors and not hazards:
        problems.append("no ERROR or RACECHECK SUMMARY")
    if any(errors) or any(hazards):
        problems.append("errors found")
    if run.get("returncode") != 0:
        problems.append(status_text(run.get("returncode")))
    row = {"label": args.label, "tool": args.tool, "summary": summaries or ["none"],
           "status": status_text(run.get("returncode")), "wall": seconds(run.get("wall_s")),
           "problems": problems, "logs": os.path.relpath(args.run, os.path.dirname(args.rows))}
    append_row(args.rows, row)
    print(f"{args.tool} {args.label}: " + ("PASS" if not problems else "FAIL: " + "; ".join(problems))
          + f" [{'; '.join(row['summary'])}]")
    return 0


def read_rows(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []


def table(args):
    print("# Faults in the measured program\n")
    if args.about:
        print(read_bytes(args.about).decode(errors="replace").strip() + "\n")
    rows = read_rows(args.rows)
    passed = sum(1 for r in rows if not r["problems"])
    print(f"{passed} of {len(rows)} fault cases pass. Columns with two numbers are native / under `roofcheck run`; "
          "launches are those the program reported completed (waited for) / launch records in the measured "
          "file(s).\n")
    print("| fault | what happened (exit status native vs shim) | what the user saw (warnings) "
          "| launches completed / recorded (lost) | max RSS MiB | wall s | verdict |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        verdict = "PASS" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])
        if r["notes"]:
            verdict += " (" + "; ".join(r["notes"]) + ")"
        print(f"| {md(r['label'])} | {md(r['happened'])} | {md(chr(10).join(r['saw']))} | {md(r['launches'])} "
              f"| {r['rss']} | {r['wall']} | {md(verdict)} |")
    sanitizer_rows = read_rows(args.sanitizer)
    if sanitizer_rows:
        print("\n## compute-sanitizer\n")
        print("| program | tool | summary | exit | wall s | verdict |")
        print("|---|---|---|---|---|---|")
        for r in sanitizer_rows:
            verdict = "PASS" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])
            if r.get("skipped"):
                verdict = "SKIPPED: " + r["skipped"]
            print(f"| {md(r['label'])} | {r['tool']} | {md(chr(10).join(r['summary']))} | {md(r['status'])} "
                  f"| {r['wall']} | {md(verdict)} |")
    print("\nLogs (stdout, stderr, result.json, measured files) under `runs/` next to this file.")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command_name", required=True)
    m = commands.add_parser("measure")
    m.add_argument("--dir", required=True)
    m.add_argument("--timeout", type=float, required=True)
    m.add_argument("--signal", choices=["TERM", "KILL", "INT"])
    m.add_argument("--target", choices=["launcher", "program"], default="launcher")
    m.add_argument("--delay", type=float, default=0.5)
    m.add_argument("command", nargs=argparse.REMAINDER)
    j = commands.add_parser("judge")
    j.add_argument("--rows", required=True)
    j.add_argument("--name", required=True)
    j.add_argument("--label", required=True)
    j.add_argument("--native", required=True)
    j.add_argument("--shim", required=True)
    j.add_argument("--allow-truncated", action="store_true", help="a truncated last line is expected (SIGKILL)")
    j.add_argument("--exact", action="store_true", help="the program ended normally: records == launches")
    j.add_argument("--under-profiler", action="store_true", help="roofcheck must step aside with one warning")
    j.add_argument("--rss-slack-mib", type=int, default=512)
    j.add_argument("--baseline", help="a run of the same program with fewer launches, to see memory growth")
    j.add_argument("--growth-limit-mib", type=int, default=256)
    s = commands.add_parser("sanitized")
    s.add_argument("--rows", required=True)
    s.add_argument("--label", required=True)
    s.add_argument("--tool", required=True)
    s.add_argument("--run")
    s.add_argument("--skipped", help="the run did not happen, and why")
    t = commands.add_parser("table")
    t.add_argument("--rows", required=True)
    t.add_argument("--sanitizer", required=True)
    t.add_argument("--about")
    args = parser.parse_args()
    if args.command_name == "measure":
        if args.command[:1] == ["--"]:
            args.command = args.command[1:]
        if not args.command:
            parser.error("measure needs a COMMAND")
        return measure(args)
    return {"judge": judge, "sanitized": sanitized, "table": table}[args.command_name](args)


if __name__ == "__main__":
    sys.exit(main())
