#include "roofcheck/Join.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/Metrics.h"

#include <algorithm>

namespace roofcheck::join {

// ------------------------------------------------------------------------------ static counts

namespace {

/// Each field's name in the static document and where a kernel holds it, in Field order.
struct FieldSpec {
  const char *name;
  const Quantity &(*of)(const StaticKernel &);
};
constexpr FieldSpec Fields[FieldCount] = {
    {"flops.total", [](const StaticKernel &k) -> const Quantity & { return k.flops.total; }},
    {"flops.special", [](const StaticKernel &k) -> const Quantity & { return k.flops.special; }},
    {"bytes.read", [](const StaticKernel &k) -> const Quantity & { return k.bytes.read; }},
    {"bytes.write", [](const StaticKernel &k) -> const Quantity & { return k.bytes.write; }},
    {"bytes.ideal", [](const StaticKernel &k) -> const Quantity & { return k.bytes.ideal; }},
    {"bytes.predicted", [](const StaticKernel &k) -> const Quantity & { return k.bytes.predicted; }},
    {"flops.fp64", [](const StaticKernel &k) -> const Quantity & { return k.flops.fp64; }},
    {"flops.fp32", [](const StaticKernel &k) -> const Quantity & { return k.flops.fp32; }},
    {"flops.fp16", [](const StaticKernel &k) -> const Quantity & { return k.flops.fp16; }},
    {"flops.bf16", [](const StaticKernel &k) -> const Quantity & { return k.flops.bf16; }},
    {"flops.tensor", [](const StaticKernel &k) -> const Quantity & { return k.flops.tensor; }},
};

std::optional<double> metric(const Launch &l, const char *name) {
  auto it = l.metrics.find(name);
  return it == l.metrics.end() ? std::nullopt : std::optional<double>(it->second);
}

const DeviceInfo *deviceOf(const MeasuredHeader &h, int index) {
  for (const DeviceInfo &d : h.devices)
    if (d.index == index)
      return &d;
  return nullptr;
}

} // namespace

const char *fieldName(Field field) { return Fields[field].name; }

const Quantity &fieldOf(const StaticKernel &kernel, Field field) { return Fields[field].of(kernel); }

Values evaluate(const StaticKernel &kernel, const Bindings &bindings, std::string *why) {
  Values v;
  for (int i = 0; i < FieldCount; ++i) {
    std::string reason;
    v[i] = Fields[i].of(kernel).evaluate(bindings, &reason);
    if (why && why->empty() && !reason.empty())
      *why = std::string(Fields[i].name) + " " + reason;
  }
  for (const auto &[type, flops] : kernel.flops.tensorByType)
    v.tensorByType[type] = flops.evaluate(bindings);
  return v;
}

// --------------------------------------------------------------------------------- tallies

void Sum::add(const std::optional<double> &v) {
  if (v) {
    value += *v;
    any = true;
  } else {
    complete = false;
  }
}

void Sampled::add(const std::optional<double> &v) {
  if (v) {
    sum += *v;
    ++count;
  }
}

std::optional<double> Sampled::over(int64_t launches) const {
  if (count == 0)
    return std::nullopt;
  return count == launches ? sum : sum / static_cast<double>(count) * static_cast<double>(launches);
}

double fp16MoveFlops(const std::optional<double> &staticFp16, const std::optional<double> &staticBf16,
                     const MeasuredFlops &measured) {
  if (staticFp16 != 0.0 || staticBf16 != 0.0 || !measured.fp16 || *measured.fp16 <= 0)
    return 0;
  double wide = measured.fp32.value_or(0) + measured.fp64.value_or(0);
  return *measured.fp16 <= Fp16MoveShare * wide ? *measured.fp16 : 0;
}

void Tally::add(const Launch &l, std::optional<double> durationNs, const Values *predicted,
                std::optional<int64_t> passes) {
  ++launches;
  timeNs += durationNs.value_or(0);
  for (int i = 0; i < FieldCount; ++i)
    predictedAll[i].add(predicted ? (*predicted)[i] : std::nullopt);
  if (predicted)
    for (const auto &[type, flops] : predicted->tensorByType)
      predictedTensorByType[type].add(flops);
  auto read = l.sampled.find(metrics::DramRead), write = l.sampled.find(metrics::DramWrite);
  if (read != l.sampled.end() && write != l.sampled.end()) {
    ++sampled.launches;
    sampled.timeNs += durationNs.value_or(0);
    sampled.dramReadBytes += read->second;
    sampled.dramWriteBytes += write->second;
    sampledIdeal.add(predicted ? (*predicted)[Ideal] : std::nullopt);
  }
  if (!l.profiled)
    return;
  ++profiled;
  if (durationNs) {
    ++profiledTimed;
    profiledTimeNs += *durationNs;
  }
  // Register moves counted as fp16 FMAs are no FLOPs of this kernel: the dot and its dtype leave them out.
  MeasuredFlops m = measuredFlops(l.metrics);
  for (const std::string &precision : m.uncounted())
    uncountedPrecisions.insert(precision);
  double moves = predicted ? fp16MoveFlops((*predicted)[FP16], (*predicted)[BF16], m) : 0;
  auto withoutMoves = [&](const std::optional<double> &v) { return v ? std::optional(*v - moves) : v; };
  flops.add(withoutMoves(m.total()));
  fp64.add(m.fp64);
  fp32.add(m.fp32);
  fp16.add(withoutMoves(m.fp16));
  tensor.add(m.tensor);
  tensorUncounted += m.tensorUncounted ? 1 : 0;
  for (const auto &[type, value] : m.tensorByType)
    tensorByType[type] += value;
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

std::optional<int64_t> Tally::dramReplayPasses() const {
  return dramRead.onePass.count == 0 && dramRead.replayed.count > 0 ? mostReplayPasses : std::nullopt;
}

std::optional<double> Tally::dram() const {
  auto r = total(dramRead), w = total(dramWrite);
  return r && w ? std::optional<double>(*r + *w) : std::nullopt;
}

std::optional<double> Tally::measuredIntensity() const {
  auto f = total(flops), d = dram();
  return f && d && *d > 0 ? std::optional<double>(*f / *d) : std::nullopt;
}

std::optional<double> Tally::perSecond(const std::optional<double> &amount) const {
  if (!amount || profiledTimed == 0 || profiledTimeNs <= 0)
    return std::nullopt;
  double seconds = profiledTimeNs * 1e-9 * static_cast<double>(profiled) / static_cast<double>(profiledTimed);
  return *amount / seconds;
}

std::optional<double> Tally::ratioOf(Field numerator, Field denominator) const {
  auto n = predictedAll[numerator].get(), d = predictedAll[denominator].get();
  return n && d && *d > 0 ? std::optional<double>(*n / *d) : std::nullopt;
}

std::optional<double> Tally::trafficRatio() const {
  auto d = dram();
  auto ideal = predictedProfiled[Ideal].get();
  return d && ideal && *ideal > 0 ? std::optional<double>(*d / *ideal) : std::nullopt;
}

std::optional<FlopBucket> Tally::roofBucket() const {
  std::optional<FlopBucket> fromStatic = dominantBucket({predictedAll[FP64].get(), predictedAll[FP32].get(),
                                                         predictedAll[FP16].get(), predictedAll[BF16].get(),
                                                         predictedAll[Tensor].get()});
  return fromStatic ? fromStatic : dominantBucket({total(fp64), total(fp32), total(fp16), std::nullopt, total(tensor)});
}

std::string Tally::roofDtype() const {
  if (roofBucket() != FlopBucket::Tensor)
    return "";
  if (std::string measured = dominantTensorType(tensorByType); !measured.empty())
    return measured;
  std::map<std::string, double> predicted;
  for (const auto &[type, flops] : predictedTensorByType)
    if (std::optional<double> total = flops.get())
      predicted[type] = *total;
  return dominantTensorType(predicted);
}

// ---------------------------------------------------------------------------------- the join

std::string processLabel(const MeasuredHeader &h) {
  return h.rank ? "rank " + std::to_string(*h.rank) : "pid " + std::to_string(h.pid);
}

LaunchJoin::LaunchJoin(const std::vector<std::pair<std::string, const StaticDocument *>> &statics) {
  for (const auto &[path, doc] : statics)
    for (const StaticKernel &k : doc->kernels) {
      auto [it, inserted] = statics_.emplace(k.mangled, &k);
      if (!inserted && toJson(StaticDocument{"", "", {*it->second}}) != toJson(StaticDocument{"", "", {k}}))
        warnings_.push_back(path + ": kernel " + k.name +
                            " differs from an earlier static entry with the same mangled name; the first is used");
    }
}

const JoinedKernel *LaunchJoin::find(const std::string &mangled) const {
  auto it = byKey_.find(mangled);
  return it == byKey_.end() ? nullptr : &kernels_[it->second];
}

std::string LaunchJoin::startFile(const MeasuredHeader &header, const std::string &path) {
  headers_.push_back(header);
  previous_ = nullptr;
  std::string label = processLabel(header);
  if (!labels_.insert(label).second)
    label += " (" + path + ")";
  return label;
}

void LaunchJoin::addMeasuredFile(const std::string &path) {
  MeasuredReader reader(path);
  std::string label = startFile(reader.header(), path);
  const MeasuredHeader &header = headers_.back();
  int64_t launchCount = 0;
  reader.forEachLaunch([&](const Launch &l) {
    ++launchCount;
    take(l, header, path, label);
  });
  for (const std::string &w : reader.warnings())
    warnings_.push_back(w);
  if (launchCount == 0)
    warnings_.push_back(path + ": no kernel launches recorded");
}

void LaunchJoin::add(const MeasuredFile &file, const std::string &path) {
  std::string label = startFile(file.header, path);
  for (const Launch &l : file.launches)
    take(l, headers_.back(), path, label);
  for (const std::string &w : file.warnings)
    warnings_.push_back(w);
  if (file.launches.empty())
    warnings_.push_back(path + ": no kernel launches recorded");
}

namespace {

/// Binds the members of a by-value argument that the static file names (`shape.rows`) from its bytes.
void bindMembers(const KernelParam &p, const KernelArgument &a, Signature &sig) {
  for (const ParamField &f : p.fields) {
    // The argument's bytes in memory order, two hex digits a byte.
    auto digits = static_cast<size_t>(2 * (f.offset + f.size));
    if (a.hex.size() < digits)
      continue;
    if (std::optional<Number> value =
            decodeArgument(f.type, a.hex.substr(static_cast<size_t>(2 * f.offset), static_cast<size_t>(2 * f.size)))) {
      sig.bindings[f.name] = *value;
      sig.args.emplace_back(f.name, value->str());
    }
  }
}

/// The pointer parameters whose names the kernel's formulas name, by index.
std::set<int> testedPointers(const StaticKernel &kernel) {
  std::set<std::string> named = namedSymbols(kernel);
  std::set<int> tested;
  for (const KernelParam &p : kernel.params)
    if (isPointerType(p.type) && named.count(p.name))
      tested.insert(p.index);
  return tested;
}

} // namespace

Signature LaunchJoin::newSignature(const JoinedKernel &k, const KernelIndex &index, const Launch &l,
                                   const std::string &path) {
  Signature sig;
  sig.grid = l.grid;
  sig.block = l.block;
  sig.bindings = dimensionBindings(l.grid, l.block);
  if (!k.kernel)
    return sig;
  for (const KernelParam &p : k.kernel->params) {
    auto a = std::find_if(l.args.begin(), l.args.end(), [&](const KernelArgument &x) { return x.index == p.index; });
    if (a == l.args.end())
      continue;
    bindMembers(p, *a, sig);
    if (scalarKind(p.type) == ScalarKind::NotScalar && !index.testedPointers.count(p.index))
      continue;
    std::optional<Number> value;
    try {
      value = decodeArgument(p.type, a->hex);
    } catch (const Error &e) {
      throw Error(path + ": launch " + std::to_string(l.index) + " argument " + std::to_string(p.index) + ": " +
                  e.what());
    }
    if (!value || (p.size != 0 && a->size != p.size)) {
      warnings_.push_back(path + ": launch " + std::to_string(l.index) + ": argument " + std::to_string(p.index) +
                          " (" + p.name + ") has " + std::to_string(a->size) + " bytes, the static file says " +
                          p.type + " of " + std::to_string(p.size));
      continue;
    }
    sig.bindings[p.name] = *value;
    sig.args.emplace_back(p.name, value->str());
  }
  // The formulas divide where the kernel multiplies high and shifts: with values that do not divide alike, no
  // count that names that division holds. They are evaluated without its symbols.
  std::string why, failed;
  Bindings usable = sig.bindings;
  for (const std::string &symbol : failedDivisionSymbols(k.kernel->divisions, sig.bindings, &failed))
    usable.erase(symbol);
  sig.values = evaluate(*k.kernel, usable, &why);
  if (!why.empty() && !failed.empty())
    why = failed;
  if (!why.empty()) {
    // Arguments the formulas read that the run did not record (a graph's launch, a struct past its
    // kernel's argument records): the reason a symbol is unbound.
    std::string unrecorded;
    for (const KernelParam &p : k.kernel->params)
      if ((scalarKind(p.type) != ScalarKind::NotScalar || !p.fields.empty() || index.testedPointers.count(p.index)) &&
          std::none_of(l.args.begin(), l.args.end(), [&](const KernelArgument &a) { return a.index == p.index; }))
        unrecorded += (unrecorded.empty() ? "" : ", ") + p.name;
    if (!unrecorded.empty())
      why += " (no bytes recorded for " + unrecorded + ")";
    notEvaluated_.push_back(k.name + " at launch " + std::to_string(l.index) + " (" + dimText(l.grid) + " " +
                            dimText(l.block) + "): " + why);
  }
  return sig;
}

void LaunchJoin::take(const Launch &l, const MeasuredHeader &header, const std::string &path,
                      const std::string &label) {
  const std::string &key = l.mangled.empty() ? l.name : l.mangled;
  auto [at, inserted] = byKey_.try_emplace(key, kernels_.size());
  if (inserted) {
    JoinedKernel &k = kernels_.emplace_back();
    indexes_.emplace_back();
    k.name = l.name;
    k.launchName = l.name;
    k.mangled = l.mangled;
    auto s = statics_.find(l.mangled);
    k.kernel = s == statics_.end() ? nullptr : s->second;
    if (k.kernel) {
      k.name = k.kernel->name;
      indexes_.back().testedPointers = testedPointers(*k.kernel);
    }
  }
  JoinedKernel &k = kernels_[at->second];
  KernelIndex &index = indexes_[at->second];
  if (!k.device)
    k.device = deviceOf(header, l.device);
  // Files from before launches said their passes: the header's, for every profiled launch.
  std::optional<int64_t> passes = l.replayPasses ? l.replayPasses : header.replayPasses;
  auto earlier = [&] {
    return previous_ ? previous_->launchName + " (launch " + std::to_string(previousIndex_) + ", " + path + ")"
                     : std::string("none in this process before it: the data came from a copy or initialisation "
                                   "just before the launch");
  };
  if (l.profiled && !k.earlierLaunch)
    k.earlierLaunch = earlier();
  if (l.profiled && passes.value_or(1) == 1 && !k.earlierOnePassLaunch)
    k.earlierOnePassLaunch = earlier();
  previous_ = &k;
  previousIndex_ = l.index;

  std::optional<double> duration;
  if (l.durationNs)
    duration = static_cast<double>(*l.durationNs);
  else if (auto t = metric(l, metrics::Duration))
    duration = *t;
  else if (l.profiled && !l.metrics.empty())
    ++countedWithoutDuration_; // its counters took the place of its activity record
  else
    ++withoutDuration_;
  totalTimeNs_ += duration.value_or(0);

  // The signature's key is made of the raw argument bytes; they are decoded once, for its first launch. Of
  // a struct, only the members the formulas name: its pointers (CUTLASS's Params) would split one shape's
  // launches into a signature each.
  std::string sigKey = dimText(l.grid) + dimText(l.block);
  if (k.kernel)
    for (const KernelParam &p : k.kernel->params)
      for (const KernelArgument &a : l.args) {
        if (a.index != p.index)
          continue;
        // A pointer keys by whether it is given: its address would split one shape's launches.
        auto key = [](const std::string &type, const std::string &hex) {
          return !isPointerType(type) ? hex : hex.find_first_not_of('0') == std::string::npos ? "0" : "1";
        };
        if (scalarKind(p.type) != ScalarKind::NotScalar || index.testedPointers.count(p.index))
          sigKey += " " + std::to_string(p.index) + "=" + key(p.type, a.hex);
        for (const ParamField &f : p.fields) {
          size_t at = std::min(a.hex.size(), static_cast<size_t>(2 * f.offset));
          sigKey += " " + f.name + "=" + key(f.type, a.hex.substr(at, static_cast<size_t>(2 * f.size)));
        }
      }
  auto [sit, newSig] = index.signatures.try_emplace(sigKey, k.signatures.size());
  if (newSig)
    k.signatures.push_back(newSignature(k, index, l, path));
  Signature &sig = k.signatures[sit->second];
  const Values *values = k.kernel ? &sig.values : nullptr;
  k.tally.add(l, duration, values, passes);
  sig.tally.add(l, duration, values, passes);
  auto [pit, newProcess] = index.processes.try_emplace(label, k.processes.size());
  if (newProcess)
    k.processes.push_back({label, header.rank, header.pid, {}});
  k.processes[pit->second].tally.add(l, duration, values, passes);
}

void LaunchJoin::requireCommonKernels() const {
  if (statics_.empty() || kernels_.empty() ||
      std::any_of(kernels_.begin(), kernels_.end(), [](const JoinedKernel &k) { return k.kernel != nullptr; }))
    return;
  throw Error("none of the " + std::to_string(kernels_.size()) +
              " kernels in the measured files matches a kernel of the static files by mangled name (measured " +
              byKey_.begin()->first + ", static " + statics_.begin()->first +
              "): give the static file made from the sources of the measured program");
}

// -------------------------------------------------------------------------- reading the counters

KernelFacts factsOf(const JoinedKernel &kernel, const Tally &t, const CeilingsDocument *ceilings) {
  KernelFacts facts;
  facts.kernel = kernel.kernel;
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
  facts.measuredTensor = t.total(t.tensor);
  facts.tensorUncountedLaunches = t.tensorUncounted;
  facts.fp16Moves = t.total(t.fp16Moves);
  facts.localBytes = t.total(t.local);
  facts.workingSetBytes = t.largestProfiledIdeal;
  facts.writtenBytes = t.largestProfiledWrite;
  facts.profiledLaunches = t.profiled;
  if (kernel.device) {
    facts.l2SizeBytes = kernel.device->l2Bytes;
    facts.deviceName = kernel.device->name;
  }
  // A header without the L2 size (0: not recorded) borrows it from ceilings probed on the same model.
  if (ceilings && facts.l2SizeBytes.value_or(0) <= 0 && ceilings->device.l2Bytes > 0 &&
      (!kernel.device || kernel.device->name == ceilings->device.name)) {
    facts.l2SizeBytes = ceilings->device.l2Bytes;
    facts.deviceName = ceilings->device.name;
  }
  facts.earlierLaunch = (t.dramRead.onePass.count > 0 ? kernel.earlierOnePassLaunch : kernel.earlierLaunch).value_or("");
  facts.replayPasses = t.dramReplayPasses();
  if (ceilings)
    if (const MemoryCeiling *dram = ceilings->bestMemory("dram"))
      facts.bandwidthCeiling = dram->bytesPerSecond;
  return facts;
}

bool workingSetFits(const KernelFacts &f) {
  return f.workingSetBytes && f.l2SizeBytes && *f.l2SizeBytes > 0 &&
         *f.workingSetBytes <= static_cast<double>(*f.l2SizeBytes);
}

std::optional<double> dirtyLineWriteBack(const KernelFacts &f) {
  if (!f.dramWrite || !f.idealWrite || !f.idealBytes || !f.writtenBytes || !f.l2SizeBytes || *f.l2SizeBytes <= 0 ||
      f.profiledLaunches <= 0 || (f.localBytes && *f.localBytes > 0))
    return std::nullopt;
  double excess = *f.dramWrite - *f.idealWrite;
  double l2 = static_cast<double>(*f.l2SizeBytes);
  if (excess <= TrafficTolerance * *f.idealBytes || *f.writtenBytes > l2 || excess / f.profiledLaunches > l2)
    return std::nullopt;
  return excess;
}

CausedTraffic causedTraffic(const KernelFacts &f, double tolerance) {
  CausedTraffic caused{f.dramRead, f.dramWrite, dirtyLineWriteBack(f), false, false};
  if (caused.dirtyWriteBack)
    *caused.write -= *caused.dirtyWriteBack;
  if (!f.idealBytes || !f.l2SizeBytes || *f.l2SizeBytes <= 0 || f.profiledLaunches <= 0)
    return caused;
  // A shortfall larger than the L2 holds a launch is not the L2's doing.
  auto heldInL2 = [&](const std::optional<double> &counted, const std::optional<double> &ideal) {
    if (!counted || !ideal)
      return false;
    double shortfall = *ideal - *counted;
    return shortfall > tolerance * *f.idealBytes &&
           shortfall / static_cast<double>(f.profiledLaunches) <= static_cast<double>(*f.l2SizeBytes);
  };
  if (heldInL2(caused.write, f.idealWrite)) {
    caused.write = f.idealWrite;
    caused.writesHeldInL2 = true;
  }
  if (heldInL2(caused.read, f.idealRead)) {
    caused.read = f.idealRead;
    caused.readsServedFromL2 = true;
  }
  return caused;
}

} // namespace roofcheck::join
