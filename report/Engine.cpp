#include "Engine.h"

#include "Explanations.h"
#include "Format.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/KernelNames.h"
#include "roofcheck/Metrics.h"
#include "roofcheck/Roofline.h"
#include "roofcheck/Version.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace roofcheck::report {

namespace {

// The static quantities evaluated for a launch, by index.
enum Field { Flops, Special, Read, Write, Ideal, Predicted, FP64, FP32, FP16, BF16, Tensor, FieldCount };

using Values = std::array<std::optional<double>, FieldCount>;

/// Each field's name in the static document and where a kernel holds it, in Field order.
struct FieldSpec {
  const char *name;
  const Quantity *(*of)(const StaticKernel &);
};
constexpr FieldSpec Fields[FieldCount] = {
    {"flops.total", [](const StaticKernel &k) { return &k.flops.total; }},
    {"flops.special", [](const StaticKernel &k) { return &k.flops.special; }},
    {"bytes.read", [](const StaticKernel &k) { return &k.bytes.read; }},
    {"bytes.write", [](const StaticKernel &k) { return &k.bytes.write; }},
    {"bytes.ideal", [](const StaticKernel &k) { return &k.bytes.ideal; }},
    {"bytes.predicted", [](const StaticKernel &k) { return &k.bytes.predicted; }},
    {"flops.fp64", [](const StaticKernel &k) { return &k.flops.fp64; }},
    {"flops.fp32", [](const StaticKernel &k) { return &k.flops.fp32; }},
    {"flops.fp16", [](const StaticKernel &k) { return &k.flops.fp16; }},
    {"flops.bf16", [](const StaticKernel &k) { return &k.flops.bf16; }},
    {"flops.tensor", [](const StaticKernel &k) { return &k.flops.tensor; }},
};

std::array<const Quantity *, FieldCount> fieldsOf(const StaticKernel &k) {
  std::array<const Quantity *, FieldCount> fields{};
  for (int i = 0; i < FieldCount; ++i)
    fields[i] = Fields[i].of(k);
  return fields;
}

/// A sum that knows whether every term was known.
struct Sum {
  double value = 0;
  bool complete = true;
  bool any = false;
  void add(const std::optional<double> &v, double times = 1) {
    if (v) {
      value += *v * times;
      any = true;
    } else {
      complete = false;
    }
  }
  std::optional<double> get() const { return complete && any ? std::optional<double>(value) : std::nullopt; }
};

std::optional<double> metric(const Launch &l, const char *name) {
  auto it = l.metrics.find(name);
  return it == l.metrics.end() ? std::nullopt : std::optional<double>(it->second);
}

/// A measured quantity that only some profiled launches carry (the ones whose counter set had it): its mean
/// over those, scaled to every profiled launch of the group; the plain sum where every one carries it.
struct Sampled {
  double sum = 0;
  int64_t count = 0;
  void add(const std::optional<double> &v) {
    if (v) {
      sum += *v;
      ++count;
    }
  }
  std::optional<double> over(int64_t launches) const {
    if (count == 0)
      return std::nullopt;
    return count == launches ? sum : sum / static_cast<double>(count) * static_cast<double>(launches);
  }
};

/// DRAM or L2 bytes, kept apart by how they were counted: in one pass on the program's own launch, or under
/// kernel replay, whose save and restore of device memory leave dirty lines that the counted pass writes
/// back. One-pass counts win wherever the group has any.
struct Traffic {
  Sampled onePass, replayed;
  const Sampled &best() const { return onePass.count > 0 ? onePass : replayed; }
};

/// Totals over a group of launches (a kernel, a signature or a rank).
struct Tally {
  int64_t launches = 0;
  double timeNs = 0;
  std::array<Sum, FieldCount> predictedAll, predictedProfiled;
  int64_t profiled = 0;
  int64_t profiledTimed = 0; ///< the profiled launches with a duration: profiledTimeNs is theirs
  double profiledTimeNs = 0;
  Sampled flops, fp64, fp32, fp16, fp16Moves, local;
  Traffic dramRead, dramWrite, l2;
  std::optional<int64_t> mostReplayPasses; ///< over the profiled launches counted under kernel replay
  std::optional<double> largestProfiledIdeal, largestProfiledWrite;

  /// passes: of the counter set that measured the launch (1: no replay), where known.
  void add(const Launch &l, std::optional<double> durationNs, const Values *predicted,
           std::optional<int64_t> passes = std::nullopt) {
    ++launches;
    timeNs += durationNs.value_or(0);
    for (int i = 0; i < FieldCount; ++i)
      predictedAll[i].add(predicted ? (*predicted)[i] : std::nullopt);
    if (!l.profiled)
      return;
    ++profiled;
    if (durationNs) {
      ++profiledTimed;
      profiledTimeNs += *durationNs;
    }
    // Register moves counted as fp16 FMAs are no FLOPs of this kernel: the dot and its dtype leave them out.
    MeasuredFlops m = measuredFlops(l.metrics);
    double moves = predicted ? fp16MoveFlops((*predicted)[FP16], (*predicted)[BF16], m) : 0;
    auto withoutMoves = [&](const std::optional<double> &v) { return v ? std::optional(*v - moves) : v; };
    flops.add(withoutMoves(m.total()));
    fp64.add(m.fp64);
    fp32.add(m.fp32);
    fp16.add(withoutMoves(m.fp16));
    fp16Moves.add(m.fp16 ? std::optional(moves) : std::nullopt); // a launch without fp16 counters tells nothing
    bool replayed = passes.value_or(1) > 1;
    if (replayed)
      mostReplayPasses = std::max(mostReplayPasses.value_or(0), *passes);
    for (auto [traffic, name] : {std::pair{&dramRead, metrics::DramRead}, std::pair{&dramWrite, metrics::DramWrite},
                                 std::pair{&l2, metrics::L2Bytes}})
      (replayed ? traffic->replayed : traffic->onePass).add(metric(l, name));
    auto localLoad = metric(l, metrics::LocalLoadBytes), localStore = metric(l, metrics::LocalStoreBytes);
    local.add(localLoad && localStore ? std::optional(*localLoad + *localStore) : std::nullopt);
    for (int i = 0; i < FieldCount; ++i)
      predictedProfiled[i].add(predicted ? (*predicted)[i] : std::nullopt);
    if (predicted && (*predicted)[Ideal])
      largestProfiledIdeal = std::max(largestProfiledIdeal.value_or(0), *(*predicted)[Ideal]);
    if (predicted && (*predicted)[Write])
      largestProfiledWrite = std::max(largestProfiledWrite.value_or(0), *(*predicted)[Write]);
  }

  std::optional<double> total(const Sampled &s) const { return s.over(profiled); }
  std::optional<double> total(const Traffic &t) const { return t.best().over(profiled); }
  /// The replay passes behind the DRAM bytes total(); nullopt where they were counted in one pass.
  std::optional<int64_t> dramReplayPasses() const {
    return dramRead.onePass.count == 0 && dramRead.replayed.count > 0 ? mostReplayPasses : std::nullopt;
  }
  std::optional<double> dram() const {
    auto r = total(dramRead), w = total(dramWrite);
    return r && w ? std::optional<double>(*r + *w) : std::nullopt;
  }
  std::optional<double> measuredIntensity() const {
    auto f = total(flops), d = dram();
    return f && d && *d > 0 ? std::optional<double>(*f / *d) : std::nullopt;
  }
  /// amount over the profiled launches' time; where some lack a duration, the timed ones' mean stands for
  /// them (never a time of 0, which would raise the rate).
  std::optional<double> perSecond(const std::optional<double> &amount) const {
    if (!amount || profiledTimed == 0 || profiledTimeNs <= 0)
      return std::nullopt;
    double seconds = profiledTimeNs * 1e-9 * static_cast<double>(profiled) / static_cast<double>(profiledTimed);
    return *amount / seconds;
  }
  std::optional<double> ratioOf(Field numerator, Field denominator) const {
    auto n = predictedAll[numerator].get(), d = predictedAll[denominator].get();
    return n && d && *d > 0 ? std::optional<double>(*n / *d) : std::nullopt;
  }
  std::optional<double> trafficRatio() const {
    auto d = dram();
    auto ideal = predictedProfiled[Ideal].get();
    return d && ideal && *ideal > 0 ? std::optional<double>(*d / *ideal) : std::nullopt;
  }
};

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
  /// The roofline for a bucket; nullopt without ceilings or without a compute ceiling for it.
  std::optional<Roofline> forBucket(const std::string &bucket) const {
    if (!ceilings_)
      return std::nullopt;
    const ComputeCeiling *c = ceilings_->bestCompute(bucket);
    if (!c)
      return std::nullopt;
    return Roofline({c->bucket + " " + c->dtype, c->flopsPerSecond}, {"dram", *dram()});
  }

private:
  const CeilingsDocument *ceilings_;
};

/// The FLOP bucket that dominates a kernel: from the static buckets, else from the measured precisions.
std::optional<std::string> dominantBucket(const Tally &t) {
  std::optional<std::string> best;
  double most = 0;
  const std::pair<Field, const char *> buckets[] = {
      {FP64, "fp64"}, {FP32, "fp32"}, {FP16, "fp16"}, {BF16, "bf16"}, {Tensor, "tensor"}};
  for (auto [field, name] : buckets)
    if (auto v = t.predictedAll[field].get(); v && *v > most) {
      most = *v;
      best = name;
    }
  if (best)
    return best;
  const std::pair<const Sampled *, const char *> measured[] = {{&t.fp64, "fp64"}, {&t.fp32, "fp32"}, {&t.fp16, "fp16"}};
  for (auto [sampled, name] : measured)
    if (auto v = t.total(*sampled); v && *v > most) {
      most = *v;
      best = name;
    }
  return best;
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

struct Signature {
  Dim3 grid, block;
  std::vector<std::pair<std::string, std::string>> args;
  Bindings bindings;
  Values values;
  Tally tally;
};

struct RankTally {
  ReportRank rank;
  Tally tally;
};

struct KernelAccumulator {
  std::string name, mangled;
  std::string launchName; ///< as the launches name it (demangled); `name` is the static file's where there is one
  const StaticKernel *kernel = nullptr;
  Tally tally;
  std::map<std::string, Signature> signatures; // by a key of grid, block and argument values
  std::vector<std::string> signatureOrder;
  std::map<std::string, RankTally> ranks;
  std::vector<std::string> rankOrder;
  const DeviceInfo *device = nullptr;
  std::optional<std::string> earlierLaunch, earlierOnePassLaunch;
};

std::string commaSeparated(const std::set<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// The static quantities at these bindings; *why (when given) gets, for the first known quantity without a
/// value, its name and the reason.
Values evaluate(const StaticKernel &k, const Bindings &bindings, std::string *why = nullptr) {
  Values v;
  auto fields = fieldsOf(k);
  for (int i = 0; i < FieldCount; ++i) {
    std::string reason;
    v[i] = fields[i]->evaluate(bindings, &reason);
    if (why && why->empty() && !reason.empty())
      *why = std::string(Fields[i].name) + " " + reason;
  }
  return v;
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

std::string rankLabel(const MeasuredHeader &h) {
  return h.rank ? "rank " + std::to_string(*h.rank) : "pid " + std::to_string(h.pid);
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

void checkCeilingsAgainstRun(const CeilingsInput &ceilings, const std::vector<MeasuredInput> &measured,
                             ReportDocument &doc) {
  // One warning per other device and per other clock, naming every measured file it concerns.
  std::map<std::string, size_t> raised; // what differs -> its problem in doc.problems
  auto raise = [&](const std::string &key, const std::string &id, const std::string &message,
                   const std::string &ceilingsLine, const std::string &runLine, const char *severity = "warning") {
    auto [it, inserted] = raised.try_emplace(key, doc.problems.size());
    if (inserted)
      doc.problems.push_back({id, severity, message, {ceilingsLine}});
    doc.problems[it->second].evidence.push_back(runLine);
  };
  const DeviceInfo &cd = ceilings.document.device;
  auto device = [](const DeviceInfo &d) { return d.name + " " + (d.uuid.empty() ? "(no uuid)" : d.uuid); };
  for (const MeasuredInput &m : measured) {
    for (const DeviceInfo &d : m.header.devices) {
      bool sameDevice = !d.uuid.empty() && !cd.uuid.empty() ? d.uuid == cd.uuid : d.name == cd.name;
      if (!sameDevice)
        raise("device " + device(d), "ceilings-other-device",
              "the ceilings were measured on another device than the run: roofs and fractions may not hold",
              ceilings.path + ": " + device(cd), m.path + ": device " + std::to_string(d.index) + " " + device(d));
    }
    for (bool memory : {false, true}) {
      auto probe = ceilingsClock(ceilings.document, memory);
      auto run = memory ? m.header.clocks.memoryMHz : m.header.clocks.smMHz;
      std::string which = memory ? "memory" : "SM";
      if (!probe || !run) {
        // Roofs from another clock state would go unnoticed: say that this one was not checked.
        raise(which + " clock not compared, none in the " + (probe ? "run" : "ceilings"), "clocks-not-compared",
              "the " + which + " clock of the run was not compared with the ceilings': " +
                  (!probe ? "the ceilings recorded none" : "a measured file recorded none"),
              ceilings.path + ": " + which + " clock " + (probe ? count(*probe) + " MHz during the probes" : "none"),
              m.path + ": " + which + " clock " + (run ? count(*run) + " MHz during the run" : "none"), "note");
        continue;
      }
      if (std::fabs(*probe - *run) <= 0.05 * *run)
        continue;
      raise(which + " clock " + count(*run), "ceilings-other-clock",
            "the ceilings were measured at another " + which +
                " clock than the run: the roofs do not describe this run's clock state",
            ceilings.path + ": " + which + " clock " + count(*probe) + " MHz during the probes",
            m.path + ": " + which + " clock " + count(*run) + " MHz during the run");
    }
  }
}

const DeviceInfo *deviceOf(const MeasuredHeader &h, int index) {
  for (const DeviceInfo &d : h.devices)
    if (d.index == index)
      return &d;
  return nullptr;
}

// ------------------------------------------------------------------------------------ static mode

Model staticModel(const Inputs &inputs, const StaticBindings &given) {
  Model model;
  ReportDocument &doc = model.document;
  doc.mode = "static";
  Roofs roofs(inputs.ceilings ? &inputs.ceilings->document : nullptr);
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
      auto fields = fieldsOf(sk);
      std::string lintValues;
      std::set<std::string> lintBound; // what lint bound and these bindings do not
      for (int i = 0; i < FieldCount; ++i)
        if (!values[i] && fields[i]->value) {
          values[i] = fields[i]->value;
          lintValues += std::string(lintValues.empty() ? "" : ", ") + Fields[i].name;
          for (const std::string &symbol : substitutedExpr(fields[i]->expr, bindings).symbols())
            lintBound.insert(symbol);
        }
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
      std::optional<Roofline> roofline = k.dtype ? roofs.forBucket(*k.dtype) : std::nullopt;
      k.boundPredicted = boundAt(roofline, predictedIntensityForBound(k));
      KernelFacts facts;
      facts.kernel = &sk;
      facts.idealBytes = values[Ideal];
      facts.predictedBytes = values[Predicted];
      explainStatic(facts, k);
      std::set<std::string> unbound;
      for (int i = 0; i < FieldCount; ++i)
        if (fields[i]->known() && !values[i])
          for (const std::string &s : substitutedExpr(fields[i]->expr, bindings).symbols())
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
  Roofs roofs(inputs.ceilings ? &inputs.ceilings->document : nullptr);

  std::map<std::string, const StaticKernel *> statics;
  for (const StaticInput &input : inputs.statics)
    for (const StaticKernel &k : input.document.kernels) {
      auto [it, inserted] = statics.emplace(k.mangled, &k);
      if (!inserted && toJson(StaticDocument{"", "", {*it->second}}) != toJson(StaticDocument{"", "", {k}}))
        model.warnings.push_back(input.path + ": kernel " + k.name +
                                 " differs from an earlier static entry with the same mangled name; the first is used");
    }

  std::map<std::string, KernelAccumulator> kernels;
  std::vector<std::string> order;
  int64_t withoutDuration = 0;
  std::vector<std::string> notEvaluated; // one line per signature whose static counts have no value
  std::map<std::string, std::set<std::string>> uncountedPrecisions; // kernel -> precisions measured without
  std::set<std::string> labels;
  for (const MeasuredInput &input : inputs.measured) {
    const MeasuredHeader &h = input.header;
    std::string label = rankLabel(h);
    if (!labels.insert(label).second)
      label += " (" + input.path + ")";
    // Launches stream through one at a time (a run of millions does not fit in memory); of the one before,
    // its kernel and index are kept.
    MeasuredReader reader(input.path);
    const KernelAccumulator *previous = nullptr;
    int64_t previousIndex = 0, launchCount = 0;
    reader.forEachLaunch([&](const Launch &l) {
      ++launchCount;
      const std::string &key = l.mangled.empty() ? l.name : l.mangled;
      auto [it, inserted] = kernels.try_emplace(key);
      KernelAccumulator &acc = it->second;
      if (inserted) {
        order.push_back(key);
        acc.name = l.name;
        acc.launchName = l.name;
        acc.mangled = l.mangled;
        auto s = statics.find(l.mangled);
        acc.kernel = s == statics.end() ? nullptr : s->second;
        if (acc.kernel)
          acc.name = acc.kernel->name;
      }
      if (!acc.device)
        acc.device = deviceOf(h, l.device);
      // Files from before launches said their passes: the header's, for every profiled launch.
      std::optional<int64_t> passes = l.replayPasses ? l.replayPasses : h.replayPasses;
      // What ran before the first profiled launch, and before the first one counted in one pass (whose DRAM
      // bytes the report takes where there is one): the L2 state they found.
      auto earlier = [&] {
        return previous ? previous->launchName + " (launch " + std::to_string(previousIndex) + ", " + input.path + ")"
                        : std::string("none in this process before it: the data came from a copy or "
                                      "initialisation just before the launch");
      };
      if (l.profiled && !acc.earlierLaunch)
        acc.earlierLaunch = earlier();
      if (l.profiled && passes.value_or(1) == 1 && !acc.earlierOnePassLaunch)
        acc.earlierOnePassLaunch = earlier();
      previous = &acc;
      previousIndex = l.index;

      std::optional<double> duration;
      if (l.durationNs)
        duration = static_cast<double>(*l.durationNs);
      else if (auto t = metric(l, metrics::Duration))
        duration = *t;
      else
        ++withoutDuration;
      if (l.profiled)
        for (const std::string &precision : measuredFlops(l.metrics).uncounted())
          uncountedPrecisions[acc.name].insert(precision);

      // The signature: launch shape and the scalar arguments, by the static file's parameter names. Its key
      // is made of the raw argument bytes; they are decoded once, for the signature's first launch.
      std::string sigKey = dim3(l.grid) + dim3(l.block);
      auto argumentOf = [&](const KernelParam &p) {
        return std::find_if(l.args.begin(), l.args.end(), [&](const KernelArgument &x) { return x.index == p.index; });
      };
      if (acc.kernel)
        for (const KernelParam &p : acc.kernel->params)
          if (auto a = argumentOf(p); a != l.args.end() && scalarKind(p.type) != ScalarKind::NotScalar)
            sigKey += " " + std::to_string(p.index) + "=" + a->hex;
      auto [sit, newSignature] = acc.signatures.try_emplace(sigKey);
      Signature &sig = sit->second;
      if (newSignature) {
        Bindings bindings = dimensionBindings(l.grid, l.block);
        if (acc.kernel)
          for (const KernelParam &p : acc.kernel->params) {
            auto a = argumentOf(p);
            if (a == l.args.end() || scalarKind(p.type) == ScalarKind::NotScalar)
              continue;
            std::optional<Number> value;
            try {
              value = decodeArgument(p.type, a->hex);
            } catch (const Error &e) {
              throw Error(input.path + ": launch " + std::to_string(l.index) + " argument " + std::to_string(p.index) +
                          ": " + e.what());
            }
            if (!value || (p.size != 0 && a->size != p.size)) {
              model.warnings.push_back(input.path + ": launch " + std::to_string(l.index) + ": argument " +
                                       std::to_string(p.index) + " (" + p.name + ") has " + std::to_string(a->size) +
                                       " bytes, the static file says " + p.type + " of " + std::to_string(p.size));
              continue;
            }
            bindings[p.name] = *value;
            sig.args.emplace_back(p.name, value->str());
          }
        acc.signatureOrder.push_back(sigKey);
        sig.grid = l.grid;
        sig.block = l.block;
        sig.bindings = bindings;
        std::string why;
        if (acc.kernel)
          sig.values = evaluate(*acc.kernel, bindings, &why);
        if (!why.empty())
          notEvaluated.push_back(acc.name + " at launch " + std::to_string(l.index) + " (" + dim3(l.grid) + " " +
                                 dim3(l.block) + "): " + why);
      }
      const Values *values = acc.kernel ? &sig.values : nullptr;
      acc.tally.add(l, duration, values, passes);
      sig.tally.add(l, duration, values, passes);
      auto [rit, newRank] = acc.ranks.try_emplace(label);
      if (newRank) {
        acc.rankOrder.push_back(label);
        rit->second.rank = {label, h.rank, h.pid, 0, 0, {}, {}, {}};
      }
      rit->second.tally.add(l, duration, values, passes);
    });
    for (const std::string &w : reader.warnings())
      model.warnings.push_back(w);
    if (launchCount == 0)
      model.warnings.push_back(input.path + ": no kernel launches recorded");
  }

  if (!inputs.statics.empty() && !kernels.empty() &&
      std::none_of(kernels.begin(), kernels.end(), [](const auto &k) { return k.second.kernel != nullptr; })) {
    std::string measuredName = kernels.begin()->first;
    std::string staticName = statics.empty() ? std::string("(none)") : statics.begin()->first;
    throw Error("none of the " + std::to_string(kernels.size()) +
                " kernels in the measured files matches a kernel of the static files by mangled name (measured " +
                measuredName + ", static " + staticName +
                "): give the static file made from the sources of the measured program");
  }
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
  for (const std::string &key : order)
    if (!kernels[key].kernel)
      unmatched.push_back(kernels[key].name);
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
      clocks.push_back(rankLabel(m.header) + ": SM " + mhz(m.header.clocks.smMHz) + ", memory " +
                       mhz(m.header.clocks.memoryMHz));
    }
    doc.problems.push_back({"mixed-clocks", "warning",
                            "the measured files were recorded at different clocks (more than 5% apart): their "
                            "dots differ by the clock as well as by the code",
                            clocks});
  }

  for (const auto &[key, acc] : kernels)
    doc.totalTimeNs += acc.tally.timeNs;

  for (const std::string &key : order) {
    KernelAccumulator &acc = kernels[key];
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
      const Bindings &bindings = acc.signatures.size() == 1 ? acc.signatures.begin()->second.bindings : Bindings{};
      k.predicted = predictedCounts(*acc.kernel, t, bindings);
      fillPredictedIntensities(k, t);
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
    k.measuredIntensity = t.measuredIntensity();
    k.flopsPerSecond = t.perSecond(t.total(t.flops));
    k.bytesPerSecond = t.perSecond(t.dram());
    k.trafficRatio = t.trafficRatio();
    k.dtype = dominantBucket(t);
    std::optional<Roofline> roofline = k.dtype ? roofs.forBucket(*k.dtype) : std::nullopt;
    if (roofline && k.measuredIntensity)
      k.roof = roofline->attainable(*k.measuredIntensity);
    k.fractionOfRoof = fractionOfRoof(roofline, roofs.dram(), k.measuredIntensity, k.flopsPerSecond, k.bytesPerSecond);
    k.boundPredicted = boundAt(roofline, predictedIntensityForBound(k));
    k.boundMeasured = boundAt(roofline, k.measuredIntensity);
    if (roofs.present() && k.dtype && !roofline)
      k.explanations.push_back({"no-ceiling", "warning",
                                "the ceilings file has no " + *k.dtype + " compute ceiling: no roof for this kernel",
                                {inputs.ceilings->path}});
    if (t.profiled == 0)
      k.explanations.push_back({"not-profiled", "note",
                                "timing only: no launch of this kernel was profiled, so it has no measured dot", {}});

    KernelFacts facts;
    facts.kernel = acc.kernel;
    facts.measured = t.profiled > 0;
    facts.idealBytes = t.predictedProfiled[Ideal].get();
    facts.predictedBytes = t.predictedProfiled[Predicted].get();
    facts.idealRead = t.predictedProfiled[Read].get();
    facts.idealWrite = t.predictedProfiled[Write].get();
    facts.staticFlops = t.predictedProfiled[Flops].get();
    facts.staticSpecial = t.predictedProfiled[Special].get();
    facts.staticFp64 = t.predictedProfiled[FP64].get();
    facts.staticFp32 = t.predictedProfiled[FP32].get();
    facts.staticFp16 = t.predictedProfiled[FP16].get();
    facts.staticBf16 = t.predictedProfiled[BF16].get();
    facts.staticTensor = t.predictedProfiled[Tensor].get();
    facts.dramRead = t.total(t.dramRead);
    facts.dramWrite = t.total(t.dramWrite);
    facts.l2Bytes = t.total(t.l2);
    facts.measuredFlops = t.total(t.flops);
    facts.measuredFp64 = t.total(t.fp64);
    facts.measuredFp32 = t.total(t.fp32);
    facts.measuredFp16 = t.total(t.fp16);
    facts.fp16Moves = t.total(t.fp16Moves);
    facts.localBytes = t.total(t.local);
    facts.workingSetBytes = t.largestProfiledIdeal;
    facts.writtenBytes = t.largestProfiledWrite;
    facts.profiledLaunches = t.profiled;
    if (acc.device) {
      facts.l2SizeBytes = acc.device->l2Bytes;
      facts.deviceName = acc.device->name;
    }
    // A header without the L2 size (0: not recorded) borrows it from ceilings probed on the same model.
    if (inputs.ceilings && facts.l2SizeBytes.value_or(0) <= 0 && inputs.ceilings->document.device.l2Bytes > 0 &&
        (!acc.device || acc.device->name == inputs.ceilings->document.device.name)) {
      facts.l2SizeBytes = inputs.ceilings->document.device.l2Bytes;
      facts.deviceName = inputs.ceilings->document.device.name;
    }
    facts.earlierLaunch = (t.dramRead.onePass.count > 0 ? acc.earlierOnePassLaunch : acc.earlierLaunch).value_or("");
    facts.replayPasses = t.dramReplayPasses();
    facts.bandwidthCeiling = roofs.dram();
    explainStatic(facts, k);
    explainMeasured(facts, k);

    for (const std::string &sk : acc.signatureOrder) {
      const Signature &sig = acc.signatures[sk];
      const Tally &st = sig.tally;
      ReportSignature s;
      s.grid = sig.grid;
      s.block = sig.block;
      s.args = sig.args;
      s.launches = st.launches;
      s.timeNs = st.timeNs;
      s.timeShare = doc.totalTimeNs > 0 ? st.timeNs / doc.totalTimeNs : 0;
      s.predictedIntensityIdeal = st.ratioOf(Flops, Ideal);
      s.predictedIntensityPredicted = st.ratioOf(Flops, Predicted);
      s.measuredIntensity = st.measuredIntensity();
      s.flopsPerSecond = st.perSecond(st.total(st.flops));
      s.fractionOfRoof =
          fractionOfRoof(roofline, roofs.dram(), s.measuredIntensity, s.flopsPerSecond, st.perSecond(st.dram()));
      s.trafficRatio = st.trafficRatio();
      s.predictedFlops = st.predictedAll[Flops].get();
      s.predictedBytesIdeal = st.predictedAll[Ideal].get();
      s.measuredDramBytes = st.dram();
      k.signatures.push_back(std::move(s));
    }
    for (const std::string &label : acc.rankOrder) {
      RankTally &r = acc.ranks[label];
      r.rank.launches = r.tally.launches;
      r.rank.timeNs = r.tally.timeNs;
      r.rank.measuredIntensity = r.tally.measuredIntensity();
      r.rank.flopsPerSecond = r.tally.perSecond(r.tally.total(r.tally.flops));
      r.rank.bytesPerSecond = r.tally.perSecond(r.tally.dram());
      k.ranks.push_back(r.rank);
    }
    doc.kernels.push_back(std::move(k));
  }
  std::stable_sort(doc.kernels.begin(), doc.kernels.end(),
                   [](const ReportKernel &a, const ReportKernel &b) { return a.timeShare > b.timeShare; });
  if (inputs.ceilings)
    checkCeilingsAgainstRun(*inputs.ceilings, inputs.measured, doc);
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
  if (inputs.ceilings) {
    doc.ceilings = ceilingsDrawn(inputs.ceilings->document);
    if (!doc.device)
      doc.device = inputs.ceilings->document.device;
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
