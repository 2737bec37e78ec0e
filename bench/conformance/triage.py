#!/usr/bin/env python3
"""Triage of the default rules' findings on the conformance corpus.

Reads a results file of lint-corpus.py (each TU's findings, from its SARIF) and triage.json (a verdict per
place: project, file, line, rule, "true" or "false", and why), and prints per rule the findings, the places
they fall on, how many are true, false or not triaged yet, and the share of clean files with a finding (a
clean file: an analysable TU without a true finding).

usage: triage.py RESULTS.jsonl [--triage triage.json] [--untriaged]
"""
import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def place_of(project, finding):
    # A template instantiated N times gives N findings at one line (other strides, other names): one place.
    return (project, finding["file"], finding["line"], finding["rule"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--triage", default=os.path.join(HERE, "triage.json"))
    parser.add_argument("--untriaged", action="store_true", help="list the places without a verdict")
    args = parser.parse_args()

    records = [json.loads(line) for line in open(args.results) if line.strip()]
    verdicts = {}
    if os.path.exists(args.triage):
        for v in json.load(open(args.triage)):
            verdicts[(v["project"], v["file"], v["line"], v["rule"])] = v
    per_rule = collections.defaultdict(lambda: collections.Counter())
    places = collections.defaultdict(set)
    untriaged = []
    analysable = 0
    files_with_findings = 0
    clean_files = 0
    clean_with_findings = 0
    for r in records:
        if r.get("kernels") is None or r.get("timed_out") or r.get("exit") not in (0, 1):
            continue
        analysable += 1
        found = r.get("finding_list", [])
        true_here = False
        for f in found:
            place = place_of(r["project"], f)
            v = verdicts.get(place)
            verdict = v["verdict"] if v else "untriaged"
            per_rule[f["rule"]]["findings"] += 1
            per_rule[f["rule"]][verdict] += 1
            if place not in places[f["rule"]]:
                places[f["rule"]].add(place)
                per_rule[f["rule"]]["places"] += 1
                per_rule[f["rule"]]["places " + verdict] += 1
                if not v:
                    untriaged.append(place + (f["message"],))
            true_here = true_here or verdict == "true"
        if found:
            files_with_findings += 1
        if not true_here:
            clean_files += 1
            clean_with_findings += bool(found)

    print("%-32s %8s %7s %6s %6s %9s" % ("rule", "findings", "places", "true", "false", "untriaged"))
    total = collections.Counter()
    for rule in sorted(per_rule):
        c = per_rule[rule]
        total.update(c)
        print("%-32s %8d %7d %6d %6d %9d" % (rule, c["findings"], c["places"], c["places true"], c["places false"],
                                             c["places untriaged"]))
    print("%-32s %8d %7d %6d %6d %9d" % ("all", total["findings"], total["places"], total["places true"],
                                         total["places false"], total["places untriaged"]))
    judged = total["places true"] + total["places false"]
    if judged:
        print("false places: %d of %d judged (%.1f%%)" % (total["places false"], judged,
                                                          100.0 * total["places false"] / judged))
    print("analysable TUs %d, with a finding %d; clean TUs (no true finding) %d, of which with a finding %d "
          "(%.1f%%)" % (analysable, files_with_findings, clean_files, clean_with_findings,
                        100.0 * clean_with_findings / clean_files if clean_files else 0.0))
    if args.untriaged:
        for p in sorted(untriaged):
            print("UNTRIAGED %s %s:%s %s | %s" % p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
