#include "Explanations.h"

#include "Format.h"

#include "roofcheck/Metrics.h"

#include <cmath>

namespace roofcheck::report {

using join::dirtyLineWriteBack;
using join::workingSetFits;

namespace {

std::string location(const std::string &file, int line) { return file + ":" + std::to_string(line); }

bool uncoalesced(const GlobalAccess &a) {
  if (a.coalesced)
    return !*a.coalesced;
  // 4 sectors of 32 bytes serve a warp of 4-byte accesses: anything beyond costs traffic.
  return a.sectorsPerRequest && *a.sectorsPerRequest > 4;
}

std::vector<std::string> symbolicStrideAccesses(const StaticKernel &kernel);

void add(ReportKernel &kernel, std::string kind, std::string severity, std::string message,
         std::vector<std::string> evidence) {
  kernel.explanations.push_back({std::move(kind), std::move(severity), std::move(message), std::move(evidence)});
}

std::string measuredTraffic(const KernelFacts &f) {
  return "DRAM read " + count(*f.dramRead) + " B of ideal " + orDash(f.idealRead, count) + " B; write " +
         count(*f.dramWrite) + " B of ideal " + orDash(f.idealWrite, count) + " B";
}

// ---------------------------------------------------------------------------------- static rules

/// The static tool marked accesses that cost more sectors than they use.
void uncoalescedAccessRule(const KernelFacts &f, ReportKernel &k) {
  std::vector<std::string> evidence = uncoalescedAccesses(*f.kernel);
  std::string message = std::to_string(evidence.size()) + " uncoalesced global access" +
                        (evidence.size() > 1 ? "es" : "");
  bool inflated = f.idealBytes && f.predictedBytes && *f.predictedBytes > *f.idealBytes * (1 + TrafficTolerance);
  if (evidence.empty()) {
    // A stride that was symbolic when lint ran has no verdict in the static file, but the predicted
    // bytes, evaluated with this launch's arguments, still show what the pattern costs.
    if (!inflated)
      return;
    evidence = symbolicStrideAccesses(*f.kernel);
    message = std::to_string(evidence.size()) + " global access" + (evidence.size() > 1 ? "es" : "") +
              " with a stride that was symbolic when lint ran";
  }
  if (f.idealBytes && f.predictedBytes && *f.idealBytes > 0)
    message += ": predicted traffic is " + ratio(*f.predictedBytes / *f.idealBytes) + " the ideal bytes";
  if (f.measured && f.dramRead && f.dramWrite && f.idealBytes && *f.idealBytes > 0) {
    double measuredRatio = (*f.dramRead + *f.dramWrite) / *f.idealBytes;
    message += "; measured DRAM bytes are " + ratio(measuredRatio) + " ideal";
    if (measuredRatio <= 1 + TrafficTolerance)
      message += " (L2 merges the sectors before write-back, so the cost shows in time and L2 traffic, not "
                 "in DRAM bytes)";
    if (f.l2Bytes)
      evidence.push_back("L2 traffic lts__t_bytes.sum = " + count(*f.l2Bytes) + " B (" +
                         ratio(*f.l2Bytes / *f.idealBytes) + " ideal)");
  }
  add(k, "uncoalesced-access", "warning", message, std::move(evidence));
}

/// Loops, indices or calls the static tool could not count: the affected values are null.
void staticUnknownsRule(const KernelFacts &f, ReportKernel &k) {
  if (f.kernel->unknowns.empty())
    return;
  std::vector<std::string> evidence;
  for (const Unknown &u : f.kernel->unknowns)
    evidence.push_back(location(u.file, u.line) + " " + describeUnknown(u));
  add(k, "static-unknowns", "note", "the static count is incomplete: the values it affects are unknown",
      std::move(evidence));
}

// -------------------------------------------------------------------------------- measured rules

std::string deviceOrDefault(const KernelFacts &f) { return f.deviceName.empty() ? "the device" : f.deviceName; }

void dirtyLinesWrittenBackRule(const KernelFacts &f, double excess, ReportKernel &k) {
  double l2 = static_cast<double>(*f.l2SizeBytes);
  std::vector<std::string> evidence{
      "written bytes " + count(*f.writtenBytes) + " B a launch fit in the " + count(l2) + " B L2 of " +
          deviceOrDefault(f),
      measuredTraffic(f),
      "excess writes " + count(excess / f.profiledLaunches) + " B a launch, no more than the L2 can hold",
      "earlier launch: " + f.earlierLaunch};
  if (f.localBytes)
    evidence.push_back("local-memory traffic 0 B: no spills");
  // Measured on the H200: under kernel replay CUPTI's save and restore of device memory left about 20 MB
  // of dirty lines in every counted pass; one pass (no replay) matched ncu's own one-pass numbers.
  if (f.replayPasses && *f.replayPasses > 1)
    evidence.push_back("counters from kernel replay (" + std::to_string(*f.replayPasses) +
                       " passes): the replay's own save and restore of device memory leaves dirty lines too; no "
                       "launch of this kernel was counted in one pass (roofcheck run's traffic set: a signature's "
                       "samples after its first, never the launch right after a replayed one)");
  std::string measured = *f.idealWrite > 0 ? ratio(*f.dramWrite / *f.idealWrite) + " the ideal write bytes"
                                           : count(*f.dramWrite) + " B where the kernel writes nothing";
  add(k, "dirty-lines-written-back", "note",
      "measured DRAM writes are " + measured + ": the output fits in L2, so the excess " + count(excess) +
          " B is the write-back of dirty lines that earlier launches left in the write-back L2, evicted during "
          "this one (not spills); the measured dot sits left of where this kernel's own traffic would put it",
      std::move(evidence));
}

/// Where to look for traffic that no marked access explains; spills only where the counters or a
/// working set larger than L2 leave room for them.
std::string unmarkedTrafficHint(const KernelFacts &f) {
  std::string none = "the static file marks no uncoalesced access";
  if (f.localBytes && *f.localBytes > 0)
    return none + "; local-memory traffic " + count(*f.localBytes) +
           " B: registers spill to local memory, whose L2 misses are DRAM traffic";
  bool fits = workingSetFits(f);
  if (f.localBytes)
    return none + " and there is no local-memory traffic (no spills): look for accesses the static tool could not "
                  "see" + std::string(fits ? "" : ", or cache thrashing");
  if (fits)
    return none + ", and the working set " + count(*f.workingSetBytes) + " B fits in the " +
           count(static_cast<double>(*f.l2SizeBytes)) + " B L2: look for accesses the static tool could not see; "
           "record " + metrics::LocalLoadBytes + " and " + metrics::LocalStoreBytes + " to tell whether registers spill";
  std::string hint = none + ": look for spills to local memory, accesses the static tool could not see, or cache "
                            "thrashing";
  if (f.workingSetBytes && f.l2SizeBytes && *f.l2SizeBytes > 0)
    hint += " (the working set " + count(*f.workingSetBytes) + " B exceeds the " +
            count(static_cast<double>(*f.l2SizeBytes)) + " B L2)";
  return hint;
}

/// More DRAM bytes than the access pattern predicts, once the write-back of earlier launches is set apart.
void trafficAbovePredictedRule(const KernelFacts &f, const std::optional<double> &writeBack, ReportKernel &k) {
  double measured = *f.dramRead + *f.dramWrite - writeBack.value_or(0);
  std::optional<double> bound = f.predictedBytes ? f.predictedBytes : f.idealBytes;
  if (!bound || *bound <= 0 || measured <= *bound * (1 + TrafficTolerance))
    return;
  std::vector<std::string> evidence{measuredTraffic(f)};
  if (writeBack)
    evidence.push_back(count(*writeBack) + " B of the writes are earlier launches' dirty lines "
                       "(dirty-lines-written-back): left out here");
  std::vector<std::string> accesses = uncoalescedAccesses(*f.kernel);
  if (accesses.empty())
    evidence.push_back(unmarkedTrafficHint(f));
  evidence.insert(evidence.end(), accesses.begin(), accesses.end());
  add(k, "traffic-above-predicted", "warning",
      "measured DRAM bytes" + std::string(writeBack ? " less that write-back" : "") + " are " +
          ratio(measured / *f.idealBytes) + " ideal, above the predicted " + ratio(*bound / *f.idealBytes),
      std::move(evidence));
}

/// Fewer DRAM bytes than the compulsory traffic: L2 served or kept part of it when the working set fits.
void trafficBelowIdealRule(const KernelFacts &f, ReportKernel &k) {
  double measured = *f.dramRead + *f.dramWrite;
  if (!f.idealBytes || *f.idealBytes <= 0 || measured >= *f.idealBytes * (1 - TrafficTolerance))
    return;
  std::string share = percent(measured / *f.idealBytes);
  if (!workingSetFits(f)) {
    std::vector<std::string> evidence{measuredTraffic(f)};
    if (f.workingSetBytes && f.l2SizeBytes)
      evidence.push_back("working set " + count(*f.workingSetBytes) + " B exceeds the L2 of " +
                         count(static_cast<double>(*f.l2SizeBytes)) + " B: L2 cannot explain the gap");
    add(k, "traffic-below-ideal", "warning",
        "measured DRAM bytes are " + share + " of the ideal bytes with a working set larger than L2: the static "
        "count is too high or the counters missed traffic",
        std::move(evidence));
    return;
  }
  std::vector<std::string> evidence{
      "working set " + count(*f.workingSetBytes) + " B fits in the " + count(static_cast<double>(*f.l2SizeBytes)) +
          " B L2 of " + deviceOrDefault(f),
      measuredTraffic(f)};
  double readShort = f.idealRead ? std::max(0.0, *f.idealRead - *f.dramRead) : 0;
  double writeShort = f.idealWrite ? std::max(0.0, *f.idealWrite - *f.dramWrite) : 0;
  // Each side short by more than noise has its own cause (both, in a loop that stays in L2 from launch to
  // launch); where neither alone is, the larger one tells which.
  double noise = TrafficTolerance * *f.idealBytes;
  bool inputs = readShort > noise, outputs = writeShort > noise;
  if (!inputs && !outputs) {
    inputs = readShort >= writeShort;
    outputs = !inputs;
  }
  if (inputs) {
    std::vector<std::string> withEarlier = evidence;
    withEarlier.push_back("earlier launch: " + f.earlierLaunch);
    add(k, "inputs-served-from-l2", "note",
        "measured DRAM bytes are " + share + " of ideal: the inputs were served from L2, left there by an earlier "
        "launch (read shortfall " + count(readShort) + " B, write shortfall " + count(writeShort) +
            " B); the measured dot sits right of where a cold-cache run would put it",
        std::move(withEarlier));
  }
  if (outputs)
    add(k, "outputs-held-in-l2", "note",
        "measured DRAM bytes are " + share + " of ideal: the outputs were still held in the write-back L2 when "
        "the kernel ended (write shortfall " + count(writeShort) + " B, read shortfall " + count(readShort) +
            " B); the measured dot sits right of where the full write-back would put it",
        std::move(evidence));
}

/// Executed FLOPs (Nsight Compute definition) against the static count (DESIGN.md conventions).
void flopsDifferRule(const KernelFacts &f, ReportKernel &k) {
  if (!f.staticFlops || !f.measuredFlops)
    return;
  double s = *f.staticFlops, m = *f.measuredFlops;
  if (std::fabs(m - s) <= FlopsTolerance * std::max(s, 1.0))
    return;
  double special = f.staticSpecial.value_or(0);
  std::string measuredHow = f.measuredTensor.value_or(0) > 0 ? " (add + mul + 2*fma, and the tensor pipe's ops)"
                                                               : " (add + mul + 2*fma)";
  std::vector<std::string> evidence{"static flops.total " + count(s) + ", special " + count(special) +
                                    " (not in the total); measured " + count(m) + measuredHow};
  auto perPrecision = [&](const char *name, const std::optional<double> &st, const std::optional<double> &me) {
    if (me && (*me > 0 || st.value_or(0) > 0))
      evidence.push_back(std::string(name) + ": static " + orDash(st, count) + ", measured " + count(*me));
  };
  perPrecision("fp64", f.staticFp64, f.measuredFp64);
  perPrecision("fp32", f.staticFp32, f.measuredFp32);
  perPrecision("fp16", f.staticFp16, f.measuredFp16);
  perPrecision("tensor", f.staticTensor, f.measuredTensor);
  std::string message;
  std::string severity = "note";
  if (m > s && special > 0) {
    message = "measured FLOPs exceed the static count by " + count(m - s) + " (" + intensity((m - s) / special) +
              " per special operation): the " + count(special) +
              " special operations (divisions, sqrt, exp) compile to FMUL/FFMA sequences that the hardware counts";
  } else if (m > s) {
    severity = "warning";
    message = "measured FLOPs exceed the static count by " + count(m - s) +
              " with no special operation to explain it: the static count misses arithmetic";
  } else {
    message = "measured FLOPs are " + count(s - m) + " below the static count: the compiler removed or merged "
              "operations (a shuffle add sunk into one lane's branch, an operation proven redundant) or guards "
              "skipped work";
    if (m < s * 0.5)
      severity = "warning";
  }
  add(k, "flops-differ", severity, message, std::move(evidence));
}

/// Measured fp16 FLOPs that are HFMA2.MMA register moves: the engine left them out of the measured FLOPs.
void fp16MovesRule(const KernelFacts &f, ReportKernel &k) {
  if (!f.fp16Moves || *f.fp16Moves <= 0)
    return;
  double wide = f.measuredFp32.value_or(0) + f.measuredFp64.value_or(0);
  std::string share = wide > 0 ? " (" + percent(*f.fp16Moves / wide) + " of the fp32 and fp64 ones)" : "";
  add(k, "fp16-register-moves", "note",
      "the " + count(*f.fp16Moves) + " measured fp16 FLOPs" + share +
          " are not arithmetic: the source has no fp16 or bf16 operation, and ptxas materialises constants and "
          "moves registers with HFMA2.MMA, which the hfma counter counts; they are left out of the measured FLOPs, "
          "the dot and the choice of roof",
      {"fp16 measured " + count(*f.fp16Moves) + " (hadd + hmul + 2*hfma), static fp16 " + orDash(f.staticFp16, count) +
           ", bf16 " + orDash(f.staticBf16, count),
       "fp32 + fp64 measured " + count(wide)});
}

/// The run recorded no tensor-pipe counter: the measured FLOPs come from the FMA/ADD/MUL pipes alone.
void tensorNotMeasuredRule(const KernelFacts &f, ReportKernel &k) {
  if (!f.staticTensor || *f.staticTensor <= 0 || f.measuredTensor || f.tensorUncountedLaunches > 0)
    return;
  add(k, "tensor-not-measured", "warning",
      "the static count has tensor-core FLOPs, which the measured FLOPs (add + mul + 2*fma per precision) do not "
      "include: the measured dot sits left of and below where this kernel runs",
      {"static flops.tensor " + count(*f.staticTensor) + ", measured " + orDash(f.measuredFlops, count) +
       " from the FMA pipes"});
}

/// Every profiled launch ran tensor math that the counters did not turn into FLOPs: the kernel has no measured
/// FLOPs, and no dot on the FLOP/s axis. (Where some launches counted them, those stand for the others.)
void tensorUncountedRule(const KernelFacts &f, ReportKernel &k) {
  if (f.tensorUncountedLaunches <= 0 || f.measuredFlops)
    return;
  add(k, "tensor-uncounted", "note",
      "its profiled launches ran tensor-core math whose ops were not counted: its FLOPs are unknown, and it has "
      "no measured dot on the FLOP/s axis",
      {std::to_string(f.tensorUncountedLaunches) + " of " + std::to_string(f.profiledLaunches) +
           " profiled launches: the tensor pipe executed more instructions than HFMA2.MMA moves, without its op "
           "counters (the base set; `roofcheck run` counts the ops on a later launch of the same signature) or "
           "with ops of a type whose FLOPs per op were never calibrated (fp8)"});
}

/// A dot above its roof is a units or counting error, never a result.
void aboveCeilingRule(const KernelFacts &f, ReportKernel &k) {
  std::vector<std::string> evidence;
  if (k.roof && *k.roof > 0 && k.flopsPerSecond && *k.flopsPerSecond > *k.roof * (1 + CeilingTolerance))
    evidence.push_back("achieved " + si(*k.flopsPerSecond, "FLOP/s") + " > roof " + si(*k.roof, "FLOP/s") +
                       " at intensity " + orDash(k.measuredIntensity, intensity));
  if (f.bandwidthCeiling && k.bytesPerSecond && *k.bytesPerSecond > *f.bandwidthCeiling * (1 + CeilingTolerance))
    evidence.push_back("DRAM " + si(*k.bytesPerSecond, "B/s") + " > measured DRAM ceiling " +
                       si(*f.bandwidthCeiling, "B/s"));
  if (evidence.empty())
    return;
  add(k, "above-ceiling", "error",
      "the measured dot is above its ceiling: a units or counting error (or ceilings from a slower device "
      "or clock state); it is drawn as an error, not as a result",
      std::move(evidence));
}

void boundMismatchRule(ReportKernel &k) {
  if (!k.boundPredicted || !k.boundMeasured || *k.boundPredicted == *k.boundMeasured)
    return;
  add(k, "bound-mismatch", "warning",
      "predicted " + *k.boundPredicted + "-bound, measured " + *k.boundMeasured + "-bound",
      {"predicted intensity " + orDash(k.predictedIntensityPredicted ? k.predictedIntensityPredicted
                                                                     : k.predictedIntensityIdeal,
                                       intensity) +
       " FLOP/B, measured " + orDash(k.measuredIntensity, intensity) + " FLOP/B"});
}

std::vector<std::string> symbolicStrideAccesses(const StaticKernel &kernel) {
  std::vector<std::string> out;
  for (const GlobalAccess &a : kernel.accesses)
    if (!a.coalesced && !a.sectorsPerRequest)
      out.push_back(location(a.file, a.line) + " " + a.kind + " " + a.pointer + ": stride symbolic at lint time");
  return out;
}

} // namespace

std::vector<std::string> uncoalescedAccesses(const StaticKernel &kernel) {
  std::vector<std::string> out;
  for (const GlobalAccess &a : kernel.accesses) {
    if (!uncoalesced(a))
      continue;
    std::string text = location(a.file, a.line) + " " + a.kind + " " + a.pointer;
    std::vector<std::string> details;
    if (a.strideBytes)
      details.push_back("stride " + count(static_cast<double>(*a.strideBytes)) + " B");
    if (a.sectorsPerRequest)
      details.push_back(intensity(*a.sectorsPerRequest) + " sectors/request");
    for (size_t i = 0; i < details.size(); ++i)
      text += (i == 0 ? ": " : ", ") + details[i];
    out.push_back(text);
  }
  return out;
}

void explainStatic(const KernelFacts &facts, ReportKernel &kernel) {
  if (!facts.kernel)
    return;
  uncoalescedAccessRule(facts, kernel);
  staticUnknownsRule(facts, kernel);
}

void explainMeasured(const KernelFacts &facts, ReportKernel &kernel) {
  if (!facts.measured)
    return;
  aboveCeilingRule(facts, kernel);
  boundMismatchRule(kernel);
  tensorUncountedRule(facts, kernel);
  if (!facts.kernel)
    return;
  if (facts.dramRead && facts.dramWrite && facts.idealBytes) {
    std::optional<double> writeBack = dirtyLineWriteBack(facts);
    if (writeBack)
      dirtyLinesWrittenBackRule(facts, *writeBack, kernel);
    trafficAbovePredictedRule(facts, writeBack, kernel);
    trafficBelowIdealRule(facts, kernel);
  }
  tensorNotMeasuredRule(facts, kernel);
  fp16MovesRule(facts, kernel);
  flopsDifferRule(facts, kernel);
}

} // namespace roofcheck::report
