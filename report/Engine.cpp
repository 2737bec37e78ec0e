#include "Engine.h"

#include "Explanations.h"
#include "Format.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/KernelNames.h"
#include "roofcheck/Roofline.h"
#include "roofcheck/Version.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace roofcheck::report {

namespace {

using namespace join;

/// The roofs the ceilings file offers, chosen per FLOP bucket.
class Roofs {
public:
  explicit Roofs(const CeilingsDocument *ceilings) : ceilings_(ceilings) {}
  bool present() const { return ceilings_ != nullptr; }
  std::optional<double> dram() const {
    if (!ceilings_)
      return std::nullopt;
    return ceilings_->bestMemory("dram")->bytesPerSecond;
  }
  /// The roofline for a dtype as dominantBucket() names it ("fp32", "tensor", "tensor bf16"); nullopt without
  /// ceilings or without a compute ceiling for it.
  std::optional<Roofline> forDtype(const std::string &dtype) const {
    size_t space = dtype.find(' ');
    std::optional<FlopBucket> b = parseFlopBucket(dtype.substr(0, space));
    return ceilings_ && b ? ceilings_->roofline(*b, space == std::string::npos ? "" : dtype.substr(space + 1))
                          : std::nullopt;
  }

private:
  const CeilingsDocument *ceilings_;
};

/// The FLOP bucket whose roof a kernel sits under (Tally::roofBucket), by name; a tensor kernel's with the
/// source type its counters measured most FLOPs of ("tensor bf16"), whose ceiling is its roof.
std::optional<std::string> dominantBucket(const Tally &t) {
  std::optional<FlopBucket> bucket = t.roofBucket();
  if (!bucket)
    return std::nullopt;
  std::string dtype = t.roofDtype();
  return std::string(toString(*bucket)) + (dtype.empty() ? "" : " " + dtype);
}

/// Fraction of the roof at an intensity; a kernel without FLOPs is measured against the DRAM roof
/// (the limit of flops/s over bandwidth*AI as both go to zero).
std::optional<double> fractionOfRoof(const std::optional<Roofline> &roofline, const std::optional<double> &dramCeiling,
                                     const std::optional<double> &ai, const std::optional<double> &flopsPerSecond,
                                     const std::optional<double> &bytesPerSecond) {
  if (roofline && ai && *ai > 0 && flopsPerSecond)
    return roofline->fractionOfRoof(*ai, *flopsPerSecond);
  if (dramCeiling && bytesPerSecond && ai && *ai == 0)
    return *bytesPerSecond / *dramCeiling;
  return std::nullopt;
}

std::optional<std::string> boundAt(const std::optional<Roofline> &roofline, const std::optional<double> &ai) {
  if (!ai)
    return std::nullopt;
  if (*ai == 0)
    return std::string("memory"); // no FLOPs: only bytes can limit it
  if (!roofline)
    return std::nullopt;
  return std::string(toString(roofline->classify(*ai).bound));
}

/// Where a kernel, one of its signatures or its launches in one process sit: the same quantities for each.
ReportDot dotOf(const Tally &t, const std::optional<Roofline> &roofline, const Roofs &roofs) {
  ReportDot d;
  d.predictedIntensityIdeal = t.ratioOf(Flops, Ideal);
  d.predictedIntensityPredicted = t.ratioOf(Flops, Predicted);
  d.measuredIntensity = t.measuredIntensity();
  d.flopsPerSecond = t.perSecond(t.total(t.flops));
  d.bytesPerSecond = t.perSecond(t.dram());
  d.fractionOfRoof = fractionOfRoof(roofline, roofs.dram(), d.measuredIntensity, d.flopsPerSecond, d.bytesPerSecond);
  d.trafficRatio = t.trafficRatio();
  return d;
}

/// What PM sampling says of a kernel's launches that have sampled bytes: their DRAM traffic and its rate, and
/// against the static ideal bytes of the same launches.
Explanation sampledTrafficNote(const SampledCounts &c, int64_t launches) {
  double bytes = c.dramReadBytes + c.dramWriteBytes;
  std::vector<std::string> evidence = {
      "read " + si(c.dramReadBytes, "B") + ", written " + si(c.dramWriteBytes, "B"),
      "time " + duration(c.timeNs)};
  if (c.idealBytes && *c.idealBytes > 0)
    evidence.push_back("ideal " + si(*c.idealBytes, "B") + ": " + ratio(bytes / *c.idealBytes));
  std::string message = "PM sampling over " + std::to_string(c.launches) + " of " + std::to_string(launches) +
                        " launches: " + si(bytes, "B") + " of DRAM traffic";
  if (c.timeNs > 0)
    message += " at " + si(bytes / (c.timeNs * 1e-9), "B/s");
  return {"sampled-traffic", "note", message, evidence};
}

std::string commaSeparated(const std::set<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// The expression with the bindings substituted; unchanged when substitution fails (an overflow while
/// folding constants), since the value is evaluated separately and the text is for reading.
Expr substitutedExpr(const std::string &expr, const Bindings &bindings) {
  Expr e = Expr::parse(expr);
  try {
    return e.substituted(bindings);
  } catch (const Error &) {
    return e;
  }
}

/// The static expression with the bindings substituted; its value only when every launch had it.
Quantity substituted(const Quantity &q, const Bindings &bindings, const std::optional<double> &value) {
  Quantity out;
  if (!q.known())
    return out;
  out.expr = substitutedExpr(q.expr, bindings).str();
  if (!q.knownWhen.empty())
    out.knownWhen = substitutedExpr(q.knownWhen, bindings).str();
  out.value = value;
  return out;
}

PredictedCounts predictedCounts(const StaticKernel &k, const Tally &t, const Bindings &bindings) {
  PredictedCounts p;
  p.flops = substituted(k.flops.total, bindings, t.predictedAll[Flops].get());
  p.special = substituted(k.flops.special, bindings, t.predictedAll[Special].get());
  p.bytesRead = substituted(k.bytes.read, bindings, t.predictedAll[Read].get());
  p.bytesWrite = substituted(k.bytes.write, bindings, t.predictedAll[Write].get());
  p.bytesIdeal = substituted(k.bytes.ideal, bindings, t.predictedAll[Ideal].get());
  p.bytesPredicted = substituted(k.bytes.predicted, bindings, t.predictedAll[Predicted].get());
  p.intensityIdeal = substituted(k.intensity.ideal, bindings, t.ratioOf(Flops, Ideal));
  p.intensityPredicted = substituted(k.intensity.predicted, bindings, t.ratioOf(Flops, Predicted));
  return p;
}

void fillPredictedIntensities(ReportKernel &k, const Tally &t) {
  k.predictedIntensityIdeal = t.ratioOf(Flops, Ideal);
  k.predictedIntensityPredicted = t.ratioOf(Flops, Predicted);
}

std::optional<double> predictedIntensityForBound(const ReportKernel &k) {
  return k.predictedIntensityPredicted ? k.predictedIntensityPredicted : k.predictedIntensityIdeal;
}

std::vector<ReportCeiling> ceilingsDrawn(const CeilingsDocument &c) {
  std::vector<ReportCeiling> out;
  double dram = c.bestMemory("dram")->bytesPerSecond;
  for (const char *level : {"dram", "l2", "shared"})
    if (const MemoryCeiling *m = c.bestMemory(level))
      out.push_back({"memory", m->level, m->variant, m->bytesPerSecond, std::nullopt});
  std::set<std::pair<std::string, std::string>> seen;
  for (const ComputeCeiling &cc : c.compute) {
    if (!seen.insert({cc.bucket, cc.dtype}).second)
      continue;
    const ComputeCeiling *best = c.bestCompute(cc.bucket, cc.dtype);
    out.push_back({"compute", best->bucket, best->dtype, best->flopsPerSecond, best->flopsPerSecond / dram});
  }
  return out;
}

/// The clock at which the ceilings were measured: the median of what the probes sampled during their runs.
std::optional<double> ceilingsClock(const CeilingsDocument &c, bool memory) {
  std::vector<double> samples;
  auto take = [&](const Provenance &p) {
    const ClockSample &s = p.clocksDuring.smMHz || p.clocksDuring.memoryMHz ? p.clocksDuring : p.clocksBefore;
    if (auto v = memory ? s.memoryMHz : s.smMHz)
      samples.push_back(*v);
  };
  for (const MemoryCeiling &m : c.memory)
    take(m.provenance);
  for (const ComputeCeiling &cc : c.compute)
    take(cc.provenance);
  if (samples.empty())
    return std::nullopt;
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

/// The ceilings the roofline is drawn with: those of the first measured file's device where given, else the
/// first ceilings file.
const CeilingsInput *drawnCeilings(const Inputs &inputs) {
  if (inputs.ceilings.empty())
    return nullptr;
  for (const MeasuredInput &m : inputs.measured)
    for (const DeviceInfo &d : m.header.devices)
      if (const CeilingsInput *c = inputs.ceilingsOf(d))
        return c;
  return &inputs.ceilings.front();
}

/// The ceilings a process's dots sit under: its (first) device's own, else the drawn ones.
const CeilingsInput *ceilingsOfProcess(const Inputs &inputs, const MeasuredInput &m, const CeilingsInput *drawn) {
  const CeilingsInput *own = m.header.devices.empty() ? nullptr : inputs.ceilingsOf(m.header.devices.front());
  return own ? own : drawn;
}

/// With ceilings of several devices, which process sits under which.
void noteCeilingsPerDevice(const Inputs &inputs, const CeilingsInput *drawn, ReportDocument &doc) {
  if (inputs.ceilings.size() < 2)
    return;
  std::vector<std::string> evidence;
  for (const MeasuredInput &m : inputs.measured)
    if (const CeilingsInput *c = ceilingsOfProcess(inputs, m, drawn))
      evidence.push_back(processLabel(m.header) + ": " + c->path);
  doc.problems.push_back({"ceilings-per-device", "note",
                          "each process's dots are under its own device's ceilings; the roofline is drawn with " +
                              drawn->path + "'s",
                          evidence});
}

/// Each measured file against the ceilings its dots sit under: one warning per other device and per other
/// clock, naming every measured file it concerns.
void checkCeilingsAgainstRun(const std::vector<std::pair<const CeilingsInput *, const MeasuredInput *>> &pairs,
                             ReportDocument &doc) {
  std::map<std::string, size_t> raised; // what differs -> its problem in doc.problems
  auto raise = [&](const std::string &key, const std::string &id, const std::string &message,
                   const std::string &ceilingsLine, const std::string &runLine, const char *severity = "warning") {
    auto [it, inserted] = raised.try_emplace(key, doc.problems.size());
    if (inserted)
      doc.problems.push_back({id, severity, message, {ceilingsLine}});
    doc.problems[it->second].evidence.push_back(runLine);
  };
  for (const auto &[ceilingsInput, measured] : pairs) {
    const CeilingsInput &ceilings = *ceilingsInput;
    const MeasuredInput &m = *measured;
    const DeviceInfo &cd = ceilings.document.device;
    for (const DeviceInfo &d : m.header.devices) {
      if (!sameDevice(d, cd))
        raise(ceilings.path + " device " + describeDevice(d), "ceilings-other-device",
              "the ceilings were measured on another device than the run: roofs and fractions may not hold",
              ceilings.path + ": " + describeDevice(cd),
              m.path + ": device " + std::to_string(d.index) + " " + describeDevice(d));
    }
    for (bool memory : {false, true}) {
      auto probe = ceilingsClock(ceilings.document, memory);
      auto run = memory ? m.header.clocks.memoryMHz : m.header.clocks.smMHz;
      std::string which = memory ? "memory" : "SM";
      if (!probe || !run) {
        // Roofs from another clock state would go unnoticed: say that this one was not checked.
        raise(ceilings.path + " " + which + " clock not compared, none in the " + (probe ? "run" : "ceilings"),
              "clocks-not-compared",
              "the " + which + " clock of the run was not compared with the ceilings': " +
                  (!probe ? "the ceilings recorded none" : "a measured file recorded none"),
              ceilings.path + ": " + which + " clock " + (probe ? count(*probe) + " MHz during the probes" : "none"),
              m.path + ": " + which + " clock " + (run ? count(*run) + " MHz during the run" : "none"), "note");
        continue;
      }
      if (std::fabs(*probe - *run) <= 0.05 * *run)
        continue;
      raise(ceilings.path + " " + which + " clock " + count(*run), "ceilings-other-clock",
            "the ceilings were measured at another " + which +
                " clock than the run: the roofs do not describe this run's clock state",
            ceilings.path + ": " + which + " clock " + count(*probe) + " MHz during the probes",
            m.path + ": " + which + " clock " + count(*run) + " MHz during the run");
    }
  }
}

// ------------------------------------------------------------------------------------ static mode

Model staticModel(const Inputs &inputs, const StaticBindings &given) {
  Model model;
  ReportDocument &doc = model.document;
  doc.mode = "static";
  const CeilingsInput *drawn = drawnCeilings(inputs);
  Roofs roofs(drawn ? &drawn->document : nullptr);
  Bindings common;
  if (given.grid)
    addDimensionBindings(common, "gridDim", *given.grid);
  if (given.block)
    addDimensionBindings(common, "blockDim", *given.block);
  std::set<std::string> usedArgs;
  std::set<std::string> seen;
  for (const StaticInput &input : inputs.statics) {
    for (const StaticKernel &sk : input.document.kernels) {
      if (!seen.insert(sk.mangled).second)
        continue;
      Bindings bindings = common;
      for (const StaticBindings::Arg &arg : given.args)
        for (const KernelParam &p : sk.params)
          if (p.name == arg.name && (arg.kernel.empty() || arg.kernel == sk.name)) {
            bindings[arg.name] = arg.value;
            usedArgs.insert(arg.kernel + ":" + arg.name);
          }
      Values values = evaluate(sk, bindings);
      // What these bindings leave open, lint may have bound: its values stand (it evaluated the same
      // expressions, with the launch it was given).
      std::string lintValues;
      std::set<std::string> lintBound; // what lint bound and these bindings do not
      for (int i = 0; i < FieldCount; ++i) {
        const Quantity &field = fieldOf(sk, static_cast<Field>(i));
        if (!values[i] && field.value) {
          values[i] = field.value;
          lintValues += std::string(lintValues.empty() ? "" : ", ") + fieldName(static_cast<Field>(i));
          for (const std::string &symbol : substitutedExpr(field.expr, bindings).symbols())
            lintBound.insert(symbol);
        }
      }
      for (auto &[type, flops] : values.tensorByType)
        if (!flops)
          flops = sk.flops.tensorByType.at(type).value;
      // One unprofiled, untimed pseudo-launch: the sums are the evaluated values themselves.
      Tally t;
      t.add(Launch{}, std::nullopt, &values);
      t.launches = 0;
      ReportKernel k;
      k.name = sk.name;
      k.mangled = sk.mangled;
      k.file = sk.file;
      k.line = sk.line;
      k.predicted = predictedCounts(sk, t, bindings);
      fillPredictedIntensities(k, t);
      k.dtype = dominantBucket(t);
      if (!k.dtype) // symbolic: the bucket whose count is not zero
        for (auto [q, name] : {std::pair{&sk.flops.fp64, "fp64"}, std::pair{&sk.flops.fp32, "fp32"},
                               std::pair{&sk.flops.fp16, "fp16"}, std::pair{&sk.flops.bf16, "bf16"},
                               std::pair{&sk.flops.tensor, "tensor"}})
          if (!k.dtype && q->known() && q->expr != "0")
            k.dtype = name;
      std::optional<Roofline> roofline = k.dtype ? roofs.forDtype(*k.dtype) : std::nullopt;
      k.boundPredicted = boundAt(roofline, predictedIntensityForBound(k));
      KernelFacts facts;
      facts.kernel = &sk;
      facts.idealBytes = values[Ideal];
      facts.predictedBytes = values[Predicted];
      explainStatic(facts, k);
      std::set<std::string> unbound;
      for (int i = 0; i < FieldCount; ++i)
        if (const Quantity &field = fieldOf(sk, static_cast<Field>(i)); field.known() && !values[i])
          for (const std::string &s : substitutedExpr(field.expr, bindings).symbols())
            unbound.insert(s);
      // Lint's values hold for the launch lint was given, which these bindings may contradict: say whose
      // they are when the report was given a launch of its own.
      if (!lintValues.empty() && !bindings.empty())
        k.explanations.push_back({"lint-values", "note",
                                  lintValues + ": the static file's values, for the launch lint was given; bind " +
                                      commaSeparated(lintBound) + " to evaluate them for this one",
                                  {}});
      if (!unbound.empty()) {
        k.explanations.push_back({"symbolic", "note",
                                  "values stay symbolic: bind " + commaSeparated(unbound) +
                                      " with --grid, --block or --arg NAME=VALUE",
                                  {}});
      }
      doc.kernels.push_back(std::move(k));
    }
  }
  for (const StaticBindings::Arg &arg : given.args)
    if (!usedArgs.count(arg.kernel + ":" + arg.name))
      model.warnings.push_back("--arg " + (arg.kernel.empty() ? "" : arg.kernel + ":") + arg.name + ": no kernel" +
                               (arg.kernel.empty() ? "" : " named '" + arg.kernel + "'") +
                               " has a parameter named '" + arg.name + "'");
  return model;
}

// ---------------------------------------------------------------------------------- measured mode

Model measuredModel(const Inputs &inputs) {
  Model model;
  ReportDocument &doc = model.document;
  doc.mode = "measured";
  const CeilingsInput *drawn = drawnCeilings(inputs);
  Roofs roofs(drawn ? &drawn->document : nullptr);
  const CeilingsDocument *ceilings = drawn ? &drawn->document : nullptr;
  // Each process's dots sit under its own device's roofs (ranks on several GPUs), else the drawn ones.
  std::map<std::pair<int64_t, std::optional<int64_t>>, Roofs> processRoofs;
  for (const MeasuredInput &m : inputs.measured) {
    const CeilingsInput *c = ceilingsOfProcess(inputs, m, drawn);
    processRoofs.insert_or_assign({m.header.pid, m.header.rank}, Roofs(c ? &c->document : nullptr));
  }
  noteCeilingsPerDevice(inputs, drawn, doc);

  std::vector<std::pair<std::string, const StaticDocument *>> statics;
  for (const StaticInput &input : inputs.statics)
    statics.emplace_back(input.path, &input.document);
  LaunchJoin launches(statics);
  for (const MeasuredInput &input : inputs.measured)
    launches.addMeasuredFile(input.path);
  model.warnings = launches.warnings();
  launches.requireCommonKernels();
  const std::vector<std::string> &notEvaluated = launches.notEvaluated();
  int64_t withoutDuration = launches.launchesWithoutDuration();
  std::map<std::string, std::set<std::string>> uncountedPrecisions; // kernel -> precisions measured without
  for (const JoinedKernel &acc : launches.kernels())
    if (!acc.tally.uncountedPrecisions.empty())
      uncountedPrecisions[acc.name].insert(acc.tally.uncountedPrecisions.begin(), acc.tally.uncountedPrecisions.end());
  if (!notEvaluated.empty())
    doc.problems.push_back({"static-not-evaluated", "warning",
                            std::to_string(notEvaluated.size()) +
                                " launch signatures have static counts that these launches cannot evaluate: their "
                                "predicted dots are missing",
                            notEvaluated});
  if (withoutDuration > 0)
    doc.problems.push_back({"missing-duration", "warning",
                            std::to_string(withoutDuration) +
                                " launches have no duration: their time is not in the time shares, and the rates of "
                                "their kernels take the mean duration of the launches that have one",
                            {}});
  if (int64_t counted = launches.launchesCountedWithoutDuration(); counted > 0)
    doc.problems.push_back({"counted-without-duration", "note",
                            std::to_string(counted) +
                                " profiled launches were counted by a set without the duration (the one-pass FLOP "
                                "counters of kernels that print, or a metric list without gpu__time_duration.sum): "
                                "their time is not in the time shares, and the rates of their kernels take the mean "
                                "duration of the launches that have one",
                            {}});
  if (!uncountedPrecisions.empty()) {
    std::vector<std::string> items;
    for (const auto &[name, precisions] : uncountedPrecisions) {
      std::string item = name + ": no";
      for (const std::string &p : precisions)
        item += " " + p;
      items.push_back(item + " counters");
    }
    doc.problems.push_back({"uncounted-flops", "warning",
                            "profiled launches of " + std::to_string(items.size()) +
                                " kernels lack the FLOP counters of a precision: their measured FLOPs leave it out",
                            items});
  }
  std::vector<std::string> unmatched;
  for (const JoinedKernel &acc : launches.kernels())
    if (!acc.kernel)
      unmatched.push_back(acc.name);
  if (!inputs.statics.empty() && !unmatched.empty())
    doc.problems.push_back({"no-static-entry", "warning",
                            std::to_string(unmatched.size()) +
                                " measured kernels have no entry in the static files: measured dots only",
                            unmatched});
  if (inputs.statics.empty())
    doc.problems.push_back({"no-static-file", "note", "no static file: measured dots only, no predicted dot", {}});
  if (!roofs.present())
    doc.problems.push_back({"no-ceilings", "note",
                            "no ceilings file: no roof, fraction of roof or bound class (run roofcheck probe)", {}});

  std::set<std::string> deviceNames;
  for (const MeasuredInput &m : inputs.measured)
    for (const DeviceInfo &d : m.header.devices)
      deviceNames.insert(d.name);
  if (deviceNames.size() > 1) {
    std::vector<std::string> names(deviceNames.begin(), deviceNames.end());
    doc.problems.push_back({"mixed-devices", "warning",
                            "the measured files come from different device models: one roofline cannot hold them all",
                            names});
  }

  // Ranks (or runs) at different clocks: the same kernel's dots differ by the clock, not by the code.
  auto clocksDiffer = [&](auto clockOf) {
    std::optional<double> lo, hi;
    for (const MeasuredInput &m : inputs.measured)
      if (std::optional<double> mhz = clockOf(m.header.clocks)) {
        lo = lo ? std::min(*lo, *mhz) : *mhz;
        hi = hi ? std::max(*hi, *mhz) : *mhz;
      }
    return lo && *hi > 1.05 * *lo;
  };
  if (clocksDiffer([](const ClockSample &c) { return c.smMHz; }) ||
      clocksDiffer([](const ClockSample &c) { return c.memoryMHz; })) {
    std::vector<std::string> clocks;
    for (const MeasuredInput &m : inputs.measured) {
      auto mhz = [](const std::optional<double> &v) {
        return v ? std::to_string(std::llround(*v)) + " MHz" : std::string("unknown");
      };
      clocks.push_back(processLabel(m.header) + ": SM " + mhz(m.header.clocks.smMHz) + ", memory " +
                       mhz(m.header.clocks.memoryMHz));
    }
    doc.problems.push_back({"mixed-clocks", "warning",
                            "the measured files were recorded at different clocks (more than 5% apart): their "
                            "dots differ by the clock as well as by the code",
                            clocks});
  }

  doc.totalTimeNs = launches.totalTimeNs();

  for (const JoinedKernel &acc : launches.kernels()) {
    const Tally &t = acc.tally;
    ReportKernel k;
    k.name = acc.name;
    k.mangled = acc.mangled;
    k.launches = t.launches;
    k.timeNs = t.timeNs;
    k.timeShare = doc.totalTimeNs > 0 ? t.timeNs / doc.totalTimeNs : 0;
    if (acc.kernel) {
      k.file = acc.kernel->file;
      k.line = acc.kernel->line;
      const Bindings &bindings = acc.signatures.size() == 1 ? acc.signatures.front().bindings : Bindings{};
      k.predicted = predictedCounts(*acc.kernel, t, bindings);
    }
    if (t.profiled > 0)
      k.measured = MeasuredCounts{t.profiled,
                                  t.profiledTimeNs,
                                  t.total(t.flops),
                                  t.total(t.dramRead),
                                  t.total(t.dramWrite),
                                  t.total(t.l2),
                                  t.dramRead.best().count,
                                  t.dramReplayPasses()};
    k.dtype = dominantBucket(t);
    std::optional<Roofline> roofline = k.dtype ? roofs.forDtype(*k.dtype) : std::nullopt;
    static_cast<ReportDot &>(k) = dotOf(t, roofline, roofs);
    if (roofline && k.measuredIntensity)
      k.roof = roofline->attainable(*k.measuredIntensity);
    k.boundPredicted = boundAt(roofline, predictedIntensityForBound(k));
    k.boundMeasured = boundAt(roofline, k.measuredIntensity);
    if (roofs.present() && k.dtype && !roofline)
      k.explanations.push_back({"no-ceiling", "warning",
                                "the ceilings file has no " + *k.dtype + " compute ceiling: no roof for this kernel",
                                {drawn->path}});
    if (t.sampled.launches > 0) {
      k.sampled = t.sampled;
      k.sampled->idealBytes = t.sampledIdeal.get();
      k.explanations.push_back(sampledTrafficNote(*k.sampled, t.launches));
    }
    if (t.profiled == 0)
      k.explanations.push_back({"not-profiled", "note",
                                "timing only: no launch of this kernel was profiled, so it has no measured dot", {}});

    KernelFacts facts = factsOf(acc, t, ceilings);
    explainStatic(facts, k);
    explainMeasured(facts, k);

    for (const Signature &sig : acc.signatures) {
      const Tally &st = sig.tally;
      ReportSignature s;
      s.grid = sig.grid;
      s.block = sig.block;
      s.args = sig.args;
      s.launches = st.launches;
      s.timeNs = st.timeNs;
      s.timeShare = doc.totalTimeNs > 0 ? st.timeNs / doc.totalTimeNs : 0;
      static_cast<ReportDot &>(s) = dotOf(st, roofline, roofs);
      s.predictedFlops = st.predictedAll[Flops].get();
      s.predictedBytesIdeal = st.predictedAll[Ideal].get();
      s.measuredDramBytes = st.dram();
      k.signatures.push_back(std::move(s));
    }
    for (const ProcessTally &p : acc.processes) {
      ReportRank r;
      auto own = processRoofs.find({p.pid, p.rank});
      const Roofs &rankRoofs = own != processRoofs.end() ? own->second : roofs;
      static_cast<ReportDot &>(r) =
          dotOf(p.tally, k.dtype ? rankRoofs.forDtype(*k.dtype) : std::nullopt, rankRoofs);
      r.label = p.label;
      r.rank = p.rank;
      r.pid = p.pid;
      r.launches = p.tally.launches;
      r.timeNs = p.tally.timeNs;
      k.ranks.push_back(std::move(r));
    }
    doc.kernels.push_back(std::move(k));
  }
  std::stable_sort(doc.kernels.begin(), doc.kernels.end(),
                   [](const ReportKernel &a, const ReportKernel &b) { return a.timeShare > b.timeShare; });
  std::vector<std::pair<const CeilingsInput *, const MeasuredInput *>> checked;
  for (const MeasuredInput &m : inputs.measured)
    if (const CeilingsInput *c = ceilingsOfProcess(inputs, m, drawn))
      checked.emplace_back(c, &m);
  checkCeilingsAgainstRun(checked, doc);
  if (!inputs.measured.empty() && !inputs.measured.front().header.devices.empty())
    doc.device = inputs.measured.front().header.devices.front();
  return model;
}

} // namespace

Model buildModel(const Inputs &inputs, const StaticBindings &bindings) {
  Model model;
  if (inputs.measured.empty()) {
    model = staticModel(inputs, bindings);
  } else {
    if (bindings.grid || bindings.block || !bindings.args.empty())
      throw Error("--grid, --block and --arg are for static-only reports: with measured files every launch "
                  "supplies its own grid, block and arguments");
    model = measuredModel(inputs);
  }
  ReportDocument &doc = model.document;
  doc.generator = std::string("roofcheck-report ") + Version;
  doc.inputs = inputs.paths;
  if (const CeilingsInput *drawn = drawnCeilings(inputs)) {
    doc.ceilings = ceilingsDrawn(drawn->document);
    if (!doc.device)
      doc.device = drawn->document.device;
  }
  for (const std::string &w : inputs.warnings)
    model.warnings.push_back(w);
  std::vector<std::string> names;
  for (const ReportKernel &k : doc.kernels)
    names.push_back(k.name);
  std::vector<std::string> shortNames = shortKernelNames(names);
  for (size_t i = 0; i < doc.kernels.size(); ++i)
    doc.kernels[i].shortName = shortNames[i];
  return model;
}

} // namespace roofcheck::report
