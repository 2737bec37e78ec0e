"""PM sampling's attribution studied offline. A sampled run's samples and kernel spans (the shim's log,
ROOFCHECK_SHIM_SAMPLES; bench/sampled-traffic.sh accuracy writes one beside each file) are given to the
launches again by each way of splitting a sample, and each result is compared with ncu's one-pass counts as
bench/sampled-traffic.py compares the shim's own file:
  overlap  a sample split among the kernels it overlaps by overlap alone (the shim before rate)
  rate     by overlap times each kernel's own rate of that counter, the rates found by iterating
           (Richardson-Lucy: each kernel's rate is its bytes over its covered time, its bytes the shares);
           runtime/PmAttribution.cpp's split
each with the samples as logged and shifted by the clock offset that puts the most traffic inside the
kernels. The first lines check which split gives back what the shim wrote; DETAIL=1 shows each comparison
in full.
usage: pm-attribution.py SAMPLES.txt MEASURED.jsonl NCU1.csv NCU2.csv [MIN_US]"""
import bisect
import collections
import importlib
import os
import io
import sys

import measured

traffic = importlib.import_module("sampled-traffic")

COVERED_SHARE = 0.9  # TrafficLedger::CoveredShare
RATE_ROUNDS, RATE_TOLERANCE = 50, 1e-6  # as runtime/PmAttribution.cpp


def read_log(path):
    """Per device: samples (start, end, {counter: value}) in start order; spans {launch index: (start, end)}."""
    samples, spans = collections.defaultdict(list), collections.defaultdict(dict)
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "sample":
                values = dict((k, float(v)) for k, v in (p.split("=", 1) for p in fields[4:]))
                samples[int(fields[1])].append((int(fields[2]), int(fields[3]), values))
            elif fields[0] == "span":
                spans[int(fields[1])][int(fields[2])] = (int(fields[3]), int(fields[4]))
    for s in samples.values():
        s.sort(key=lambda x: x[0])
    return samples, spans


def overlaps(samples, spans, offset):
    """For each sample, shifted by offset, the spans it overlaps and by how much: [(values, [(id, ns)])]."""
    order = sorted(spans.items(), key=lambda kv: kv[1][0])
    links, open_spans, nxt = [], [], 0
    for start, end, values in samples:
        start, end = start + offset, end + offset
        while nxt < len(order) and order[nxt][1][0] < end:
            open_spans.append(order[nxt])
            nxt += 1
        open_spans = [s for s in open_spans if s[1][1] > start]
        hit = [(k, min(end, e) - max(start, b)) for k, (b, e) in open_spans if min(end, e) > max(start, b)]
        if hit:
            links.append((values, hit))
    return links


def attribute(links, spans, by_rate):
    """{id: ({counter: bytes}, shared)} for the spans samples cover enough."""
    covered = collections.Counter()
    shared = set()
    for _, hit in links:
        for k, ns in hit:
            covered[k] += ns
        if len(hit) > 1:
            shared.update(k for k, _ in hit)
    counters = sorted({c for values, _ in links for c in values})
    result = {k: {} for k in spans}
    for c in counters:
        rate = collections.defaultdict(lambda: 1.0)
        for _ in range(RATE_ROUNDS if by_rate else 1):
            got = collections.Counter()
            for values, hit in links:
                v = values.get(c, 0.0)
                if not v:
                    continue
                weights = [rate[k] * ns for k, ns in hit]
                total = sum(weights)
                if total <= 0:
                    weights, total = [ns for _, ns in hit], sum(ns for _, ns in hit)
                for (k, _), w in zip(hit, weights):
                    got[k] += v * w / total
            nxt = {k: got[k] / covered[k] for k in covered if covered[k]}
            settled = all(abs(v - rate[k]) <= RATE_TOLERANCE * max(rate[k], v) for k, v in nxt.items())
            rate = collections.defaultdict(float, nxt)
            if settled:
                break
        for k in spans:
            result[k][c] = got[k]
    out = {}
    for k, (b, e) in spans.items():
        if e > b and covered[k] >= COVERED_SHARE * (e - b):
            out[k] = (result[k], k in shared)
    return out


def estimate_offset(samples, spans, max_ns=20000):
    """The shift within +-max_ns that puts the most sampled traffic inside the union of the spans."""
    merged = []
    for b, e in sorted(spans.values()):
        if merged and b <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([b, e])
    ends = [e for _, e in merged]

    def inside(offset):
        total = 0.0
        for start, end, values in samples:
            v = sum(values.values())
            start, end = start + offset, end + offset
            i = bisect.bisect_right(ends, start)
            covered = 0
            while i < len(merged) and merged[i][0] < end:
                covered += min(end, merged[i][1]) - max(start, merged[i][0])
                i += 1
            total += v * covered / (end - start)
        return total

    step = sorted(e - s for s, e, _ in samples)[len(samples) // 2]
    coarse = max(range(-max_ns // step * step, max_ns // step * step + 1, step), key=lambda o: (inside(o), -abs(o)))
    fine = max(1, step // 20)
    return max(range(coarse - step, coarse + step + 1, fine), key=lambda o: (inside(o), -abs(o)))


def main():
    log, file, ncu1, ncu2 = sys.argv[1:5]
    min_ns = float(sys.argv[5]) * 1000 if len(sys.argv) > 5 else 20000
    samples, spans = read_log(log)
    launches = sorted(measured.launches(file), key=lambda l: l["index"])
    first, second = traffic.ncu_launches(ncu1), traffic.ncu_launches(ncu2)

    def mine(attributed):
        by_kernel = collections.defaultdict(list)
        for l in launches:
            l = dict(l)
            got = attributed.get(l["index"])
            l["sampled"], l["sampled_shared"] = (got[0], got[1]) if got else ({}, False)
            by_kernel[l["mangled"]].append(l)
        return by_kernel

    offsets = {d: [0, estimate_offset(samples[d], spans[d])] for d in samples}
    counting = sum(1 for per_device in samples.values() for s in per_device if any(s[2].values()))
    print(f"{sum(len(s) for s in samples.values())} samples ({counting} counted something), "
          f"{sum(len(s) for s in spans.values())} spans; estimated clock offsets (ns): {offsets}")
    # The shim's own values against each split without a shift: one of them is the shim's.
    shim = {l["index"]: l.get("sampled", {}) for l in launches}
    for by_rate in (False, True):
        replay = {}
        for d in samples:
            replay.update(attribute(overlaps(samples[d], spans[d], 0), spans[d], by_rate))
        worst = max((abs(v - replay.get(k, ({}, 0))[0].get(c, 0.0)) / max(v, 1.0)
                     for k, values in shim.items() for c, v in values.items()), default=0.0)
        print(f"{'rate' if by_rate else 'overlap'} replayed against the shim's file: largest relative difference "
              f"{worst:.2e}")
    for choice in (0, 1):
        for by_rate in (False, True):
            attributed = {}
            for d in samples:
                attributed.update(attribute(overlaps(samples[d], spans[d], offsets[d][choice]), spans[d], by_rate))
            detail = io.StringIO()
            result = traffic.compare(mine(attributed), first, second, min_ns,
                                     show=lambda line: print(line, file=detail))
            label = f"{'rate' if by_rate else 'overlap'}, offset {'estimated' if choice else '0'}"
            print(f"{label:28} launches within 5%: {result[0]} of {result[1]}; kernels within 2%: "
                  f"{result[2]} of {result[3]}")
            if os.environ.get("DETAIL"):
                print(detail.getvalue())


if __name__ == "__main__":
    main()
