#include "Shim.h"

#include "DeviceDescription.h"

#include "../ForkedChild.h"
#include "../SignalFlush.h"

#include "roofcheck/Error.h"
#include "roofcheck/Metrics.h"
#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <future>
#include <iterator>
#include <thread>

#include <unistd.h>

namespace roofcheck::runtime {

namespace {

// The device of the context this thread launched into last (by CUPTI's context id, never reused): most
// launches need no lock to know it.
thread_local uint32_t lastContextUid = 0;
thread_local int lastDevice = 0;

// How many launch calls this thread is inside of (entry seen, exit not yet). Only the outermost is the
// program's: a launch callback that comes while the thread is inside another launch comes from the driver
// or CUPTI at work, or from a call the shim made, and must not be recorded, profiled or gated.
thread_local int launchDepth = 0;

// The launch this thread is inside of while its counters are being collected.
struct ProfiledCall {
  bool active = false;
  uint32_t correlationId = 0;
  CUcontext context = nullptr;
  int64_t unheldBefore = 0; ///< Shim::unheldLaunches_ when profiling began
  std::optional<int64_t> passes; ///< of the counter set it is profiled with
  int64_t replayStarted = 0;     ///< ShimTiming's clock when the launch itself began
};
thread_local ProfiledCall profiledCall;

// How this thread holds Shim::launchGate_ between a launch's entry and exit callbacks.
enum class GateHold { None, Shared, Exclusive };
thread_local GateHold gateHold = GateHold::None;

// Set while this thread sets up a new context, so that a context CUPTI or the driver creates meanwhile
// does not re-enter that set-up (a nested std::call_once would wait for itself).
thread_local bool settingUpContext = false;

// How often the records of finished kernels are taken from CUPTI while the program runs: what CUPTI still
// holds when the program is killed (SIGKILL) is lost.
constexpr std::chrono::milliseconds flushPeriod{100};

// A signal that ends the program waits at most this long for the completed launches to be written.
constexpr std::chrono::seconds signalPatience{5};

// Collecting the counters of one launch taking longer than this turns counters off for the rest of the
// run; a step of it taking longer is reported while it lasts.
constexpr double slowProfilingSeconds = 10;

void onExit() { Shim::instance().finish(); }
void onExitBeforeRuntime() { Shim::instance().stopSampling(); }

std::vector<std::string> commandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find('\0', start);
    if (end == std::string::npos)
      end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

} // namespace

Shim &Shim::instance() {
  // Never destroyed: records may arrive from CUPTI's thread while static destructors run.
  static Shim *shim = new Shim();
  return *shim;
}

Shim::Shim()
    : kernels_(diagnostics_), callbacks_(diagnostics_, *this),
      activity_(
          diagnostics_, [this](std::vector<KernelRecord> &&records) { queueBatch(std::move(records)); }),
      profiler_(diagnostics_) {}

int Shim::initialize() {
  std::call_once(initialized_, [this] {
    const char *timing = std::getenv("ROOFCHECK_SHIM_TIMING");
    timing_.enable(timing && *timing && std::string(timing) != "0");
    const char *trace = std::getenv("ROOFCHECK_SHIM_TRACE");
    diagnostics_.enableTrace(trace && *trace && std::string(trace) != "0");
    diagnostics_.trace("initialising");
    int64_t started = timing_.start();
    if (const char *text = std::getenv("ROOFCHECK_OPTIONS"); text && *text) {
      try {
        options_ = runOptionsFromJson(text);
      } catch (const Error &e) {
        diagnostics_.warn("options", std::string(e.what()) + ": running with the default options");
      }
    }
    countersWanted_ = options_.metricsMode != MetricsMode::Time;
    selector_ = std::make_unique<LaunchSelector>(options_, countersWanted_);
    kernels_.setNameFilter(
        [this](const std::string &name, const std::string &mangled) { return selector_->matches(name, mangled); });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      header_.pid = ::getpid();
      std::vector<std::string> rankProblems;
      header_.rank = rankFromEnvironment([](const char *name) { return std::getenv(name); }, rankProblems);
      for (const std::string &problem : rankProblems)
        diagnostics_.warn("rank " + problem, problem);
      header_.program = commandLine();
      header_.started = utcTimestamp();
      header_.roofcheckVersion = roofcheck::Version;
      header_.cudaVersion = versionText(CUDA_VERSION);
      uint32_t cupti = 0;
      if (diagnostics_.cupti(cuptiGetVersion(&cupti), "cuptiGetVersion"))
        header_.cuptiVersion = cupti;
      header_.options = toJson(options_);
    }
    std::thread(&Shim::processQueue, this).detach(); // the Shim is never destroyed
    callbacksOn_ = callbacks_.enable();
    // Every 10 ms CUPTI hands over its full buffers (partly filled ones: processQueue's flush), so the
    // handler keeps up while the program runs and little is left for its exit to wait for.
    activity_.enable(10);
    // PM sampling and the range profiler cannot hold a device's counters at once (docs/runtime.md): sampled
    // traffic is for runs without profiled launches.
    sampledTraffic_ = options_.sampledTrafficIntervalNs > 0 && !countersWanted_;
    if (sampledTraffic_)
      traffic_.prepare(options_.sampledTrafficIntervalNs);
    std::atexit(onExit);
    // A child the program forks writes nothing into this process's file; a signal that ends the program
    // (where it left the default) first writes the completed launches.
    try {
      watchForForks();
    } catch (const Error &e) {
      diagnostics_.warn("fork", e.what());
    }
    try {
      std::vector<int> caught =
          flushOnSignals([this](int) { finishAfterSignal(); }, signalPatience, flushedSignals());
      diagnostics_.trace("flushing on " + std::to_string(caught.size()) + " signals the program left at their default");
    } catch (const Error &e) {
      diagnostics_.warn("signals", e.what());
    }
    timing_.stop(ShimTiming::Initialize, started);
  });
  return 1;
}

void Shim::describeDevices() {
  blockFlushedSignalsOnThisThread();
  diagnostics_.trace("describing the devices");
  int64_t started = timing_.start();
  std::vector<DeviceInfo> devices = roofcheck::runtime::describeDevices(diagnostics_);
  // NVML starts here, once a context exists, never in InitializeInjection (which the driver calls from
  // inside cuInit): an nvmlInit concurrent with the first cuInit left a driver mutex owned by its thread
  // after that thread ended, and a second CUDA runtime's cuInit (cuBLASLt's, in cublasCreate) then waited
  // on it forever.
  diagnostics_.trace("devices described; starting NVML");
  nvml_ = std::make_unique<NvmlClocks>();
  ClockSample clocks;
  if (!devices.empty())
    clocks = nvml_->sample(devices[0].uuid);
  std::string driverVersion;
  int driver = 0;
  if (auto nvmlDriver = nvml_->driverVersion())
    driverVersion = *nvmlDriver;
  else if (diagnostics_.driver(cuDriverGetVersion(&driver), "cuDriverGetVersion"))
    driverVersion = versionText(driver);
  std::lock_guard<std::mutex> lock(mutex_);
  header_.devices = std::move(devices);
  header_.clocks = clocks;
  header_.driverVersion = driverVersion;
  timing_.stop(ShimTiming::Describe, started);
  diagnostics_.trace("clocks and driver version known");
}

void Shim::configureCounters(CUcontext context, CUdevice device) {
  const std::vector<std::string> &requested =
      options_.metricsMode == MetricsMode::List ? options_.metrics : defaultMetrics();
  using Outcome = CounterConfigurations::Outcome;
  Outcome outcome = counters_.configure(context, device, requested, options_.metricsMode == MetricsMode::Default,
                                        options_.trafficSet);
  if (outcome == Outcome::NotAllowed)
    selector_->stopProfiling();
  if (outcome != Outcome::Made)
    return;
  CuptiProfilerHost *full = counters_.hostFor(static_cast<int>(device), CounterSet::Full);
  CuptiProfilerHost *traffic = counters_.hostFor(static_cast<int>(device), CounterSet::Traffic);
  bool hasTrafficSet = traffic != full;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!header_.replayPasses) { // the header describes the first device configured
      header_.replayPasses = full->passes();
      header_.options["chip"] = full->chip();
      header_.options["collected_metrics"] = full->metrics();
      header_.options["traffic_metrics"] = hasTrafficSet ? Json(traffic->metrics()) : Json::array();
    }
  }
  if (hasTrafficSet)
    selector_->useTrafficSet();
}

int Shim::deviceOf(CUcontext context) {
  {
    std::lock_guard<std::mutex> lock(contextMutex_);
    if (auto it = contextDevice_.find(context); it != contextDevice_.end())
      return it->second;
  }
  // Asked without the lock held: this runs inside the driver's callbacks.
  CUdevice device = 0;
  int index = diagnostics_.driver(cuCtxGetDevice_v2(&device, context), "cuCtxGetDevice") ? static_cast<int>(device) : 0;
  std::lock_guard<std::mutex> lock(contextMutex_);
  contextDevice_.emplace(context, index);
  return index;
}

void Shim::onContextCreated(CUcontext context) {
  if (settingUpContext)
    return; // a context made while this thread sets one up (by CUPTI or the driver): not the program's
  struct SettingUp {
    SettingUp() { settingUpContext = true; }
    ~SettingUp() { settingUpContext = false; }
  } settingUp;
  diagnostics_.trace("context created");
  // The header's devices and clocks (NVML starts slowly) are asked on a thread of their own: the program
  // goes on meanwhile, and the header is written with the first records, once they are known.
  std::call_once(describeStarted_, [this] {
    std::shared_future<void> described = std::async(std::launch::async, [this] { describeDevices(); }).share();
    std::lock_guard<std::mutex> lock(describeMutex_);
    devicesDescribed_ = std::move(described);
  });
  int device = deviceOf(context);
  if (countersWanted_)
    configureCounters(context, device);
  traffic_.startDevice(device, context); // where prepared
  diagnostics_.trace("context set up");
}

void Shim::onContextDestroying(CUcontext context) {
  diagnostics_.trace("context being destroyed");
  activity_.flushAll();
  profiler_.release(context);
  int device = deviceOf(context);
  bool lastOfDevice = false;
  {
    std::lock_guard<std::mutex> lock(contextMutex_);
    contextDevice_.erase(context);
    lastOfDevice = std::none_of(contextDevice_.begin(), contextDevice_.end(),
                                [&](const auto &c) { return c.second == device; });
  }
  if (lastOfDevice)
    traffic_.stopDevice(device); // its samples are decoded while the device can still be asked
}

void Shim::onNvtxPush(const char *message) { nvtx_.push(message); }
void Shim::onNvtxPop() { nvtx_.pop(); }
void Shim::onNvtxStart(uint64_t id, const char *message) { nvtx_.start(id, message); }
void Shim::onNvtxEnd(uint64_t id) { nvtx_.end(id); }

void Shim::onLaunch(const LaunchCall &call) {
  if (!call.graph) {
    if (call.entering)
      enterLaunch(call);
    else
      exitLaunch(call);
    return;
  }
  if (!call.entering || finished_)
    return;
  std::vector<std::string> ranges = nvtx_.open();
  if (!ranges.empty()) {
    std::lock_guard<std::mutex> lock(arrivalsMutex_);
    arrivedGraphRanges_.emplace_back(call.correlationId, std::move(ranges));
  }
}

void Shim::enterLaunch(const LaunchCall &call) {
  if (launchDepth++ > 0 || finished_)
    return;
  // A launch into a capturing stream only adds a node to a graph; the graph's launches are recorded.
  CUstream stream = call.perThreadStream && !call.stream ? CU_STREAM_PER_THREAD : call.stream;
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return;
  int64_t started = timing_.start();
  ++seen_;
  int64_t index = nextIndex_++;
  std::shared_ptr<KernelInfo> info = kernels_.lookup(call.function, call.symbolName);
  const std::string &signature = info->mangled.empty() ? info->name : info->mangled;
  LaunchDecision decision = selector_->decideWithMatch(info->selected, signature, call.grid, call.block);
  if (diagnostics_.tracing())
    diagnostics_.trace("launch " + std::to_string(index) + " " + info->name + (decision.record ? " recorded" : "") +
                       (decision.profile ? " profiled" : ""));
  if (countersWanted_)
    holdGate(decision.profile);
  if (!decision.record) {
    timing_.stop(ShimTiming::LaunchSkipped, started);
    return;
  }
  Pending p;
  p.correlationId = call.correlationId;
  Launch &l = p.launch;
  l.index = index;
  if (call.contextUid == 0 || call.contextUid != lastContextUid) {
    lastDevice = deviceOf(call.context);
    lastContextUid = call.contextUid;
  }
  l.device = lastDevice;
  if (sampledTraffic_) {
    traffic_.awaitStart(l.device); // the first launches of a sampled device: no kernel runs before its sampling
    // Registered after the CUDA runtime's own exit handler (made when it started, before this launch), so
    // run before it: sampling is stopped and decoded while the runtime still holds its contexts.
    std::call_once(samplingStopRegistered_, [] { std::atexit(onExitBeforeRuntime); });
  }
  l.context = call.contextUid;
  l.grid = call.grid;
  l.block = call.block;
  l.cluster = call.cluster;
  l.sharedDynamic = call.sharedDynamic;
  p.argumentBytes = kernels_.capture(*info, call.kernelParams, call.extra);
  p.kernel = std::move(info);
  l.nvtx = nvtx_.open();
  if (decision.profile && gateHold == GateHold::Exclusive)
    p.awaitingMetrics = beginProfiling(call, p.kernel->name, index, decision.counters, l);
  {
    std::lock_guard<std::mutex> lock(arrivalsMutex_);
    arrivedLaunches_.push_back(std::move(p));
  }
  timing_.stop(ShimTiming::LaunchKept, started);
}

void Shim::holdGate(bool exclusive) {
  if (exclusive) {
    if (launchGate_.enterExclusive())
      gateHold = GateHold::Exclusive;
    else
      diagnostics_.warn("gate-exclusive", "some launches have no counters: the program's other launches did not "
                                          "leave a profiled launch alone within " +
                                              std::to_string(gateWaitSeconds) + " s");
  } else if (launchGate_.enterShared()) {
    gateHold = GateHold::Shared;
  } else {
    ++unheldLaunches_;
    diagnostics_.warn("gate-shared", "a launch went on after waiting " + std::to_string(gateWaitSeconds) +
                                         " s for a profiled launch on another thread: that profiled launch's "
                                         "counters are dropped");
  }
}

bool Shim::beginProfiling(const LaunchCall &call, const std::string &kernel, int64_t index, CounterSet counters,
                          Launch &launch) {
  watch_.start(kernel, "starting CUPTI's range profiler (cuptiRangeProfilerEnable, SetConfig, Start)");
  CuptiProfilerHost *host = counters_.hostFor(launch.device, counters);
  int64_t started = timing_.start();
  bool begun = host && profiler_.begin(call.context, *host);
  timing_.stop(ShimTiming::ProfileBegin, started);
  diagnostics_.trace("launch " + std::to_string(index) + ": profiling " + (begun ? "begun" : "refused"));
  if (!begun) {
    watch_.end();
    if (profiler_.permanentlyUnavailable())
      selector_->stopProfiling();
    return false;
  }
  watch_.step("inside the launch (CUPTI runs the kernel once per replay pass)");
  profiledCall = {true, call.correlationId, call.context, unheldLaunches_.load(), host->passes(), timing_.start()};
  // A profiled launch gets no activity record: its stream id comes from CUPTI here.
  uint32_t streamId = 0;
  if (diagnostics_.cupti(cuptiGetStreamIdEx(call.context, call.stream, call.perThreadStream ? 1 : 0, &streamId),
                         "cuptiGetStreamIdEx"))
    launch.stream = streamId;
  return true;
}

void Shim::exitLaunch(const LaunchCall &call) {
  if (launchDepth == 0)
    return; // its entry came before the shim was listening
  if (--launchDepth > 0)
    return; // a launch inside another one: its entry was passed over too
  int64_t started = timing_.start();
  struct ReleaseGate {
    LaunchGate &gate;
    ~ReleaseGate() {
      if (gateHold == GateHold::Shared)
        gate.leaveShared();
      else if (gateHold == GateHold::Exclusive)
        gate.leaveExclusive();
      gateHold = GateHold::None;
    }
  } release{launchGate_};
  if (!profiledCall.active || profiledCall.correlationId != call.correlationId) {
    timing_.stop(ShimTiming::LaunchExit, started);
    return;
  }
  profiledCall.active = false;
  timing_.stop(ShimTiming::ProfileReplay, profiledCall.replayStarted);
  diagnostics_.trace("profiled launch " + std::to_string(call.correlationId) + ": collecting its counters");
  watch_.step("collecting its counters (cuptiRangeProfilerStop, DecodeData, evaluation)");
  int64_t ending = timing_.start();
  MetricsArrival arrival{call.correlationId, profiler_.end(call.context), profiledCall.passes};
  timing_.stop(ShimTiming::ProfileEnd, ending);
  if (unheldLaunches_ != profiledCall.unheldBefore)
    arrival.metrics.reset(); // another launch may have been counted with this one
  diagnostics_.trace("profiled launch " + std::to_string(call.correlationId) + ": counters " +
                     (arrival.metrics ? "collected" : "failed"));
  if (auto [seconds, kernel] = watch_.end(); seconds > slowProfilingSeconds) {
    selector_->stopProfiling();
    diagnostics_.warn("profiling-slow", "counters are off from here on: collecting them for one launch of " + kernel +
                                            " took " + std::to_string(static_cast<int>(seconds)) +
                                            " s (kernel replay saves and restores the program's device memory "
                                            "for every pass); durations continue");
  }
  {
    std::lock_guard<std::mutex> lock(arrivalsMutex_);
    arrivedMetrics_.push_back(std::move(arrival));
  }
  // Kernel replay leaves CUPTI's current activity buffer with a record that never completes, and CUPTI
  // then hands over no buffer until a forced flush: a SIGKILL would lose every launch since. Nothing runs
  // beside a profiled launch (the gate, and replay itself), so all earlier kernels have ended by now.
  // After the arrival above, so that the counters' duration is the one this launch keeps.
  int64_t flushing = timing_.start();
  activity_.flushAll();
  timing_.stop(ShimTiming::ProfileFlush, flushing);
  wakeHandler(); // written at once: a crash right after loses no profiled launch
}

void Shim::queueBatch(std::vector<KernelRecord> &&records) {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    queue_.push_back(std::move(records));
  }
  queueChanged_.notify_all();
}

void Shim::wakeHandler() {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    arrivalsWaiting_ = true;
  }
  queueChanged_.notify_all();
}

void Shim::processQueue() {
  blockFlushedSignalsOnThisThread();
  auto lastFlush = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(queueMutex_);
  while (!stopping_) {
    // Awake at least every flushPeriod, to collect CUPTI's completed records and look after a launch
    // being profiled.
    bool work = queueChanged_.wait_for(lock, flushPeriod,
                                       [this] { return stopping_ || !queue_.empty() || arrivalsWaiting_; });
    lock.unlock();
    if (std::optional<std::string> message = watch_.overdue(std::chrono::duration<double>(slowProfilingSeconds)))
      diagnostics_.warn("profiling-stuck", *message);
    if (auto now = std::chrono::steady_clock::now(); now - lastFlush >= flushPeriod) {
      activity_.flushCompleted(); // its records come back through queueBatch, handled next round
      lastFlush = now;
    }
    lock.lock();
    if (stopping_)
      break;
    // Sampled traffic is settled as time passes, and samples no launch needs are dropped, work or not.
    if (!work && options_.sampledTrafficIntervalNs == 0)
      continue;
    // Everything queued is handled and written in one go: one write(2) however many buffers CUPTI
    // handed over meanwhile.
    ++busy_;
    arrivalsWaiting_ = false;
    std::deque<std::vector<KernelRecord>> batches;
    batches.swap(queue_);
    lock.unlock();
    handleBatches(batches);
    writeReady();
    lock.lock();
    --busy_;
    queueChanged_.notify_all();
  }
}

void Shim::drainQueue() {
  std::unique_lock<std::mutex> lock(queueMutex_);
  // A batch the handler thread holds is finished in a moment.
  queueChanged_.wait_for(lock, std::chrono::seconds(10), [this] { return busy_ == 0; });
  stopping_ = true;
  arrivalsWaiting_ = false;
  std::deque<std::vector<KernelRecord>> batches;
  batches.swap(queue_);
  lock.unlock();
  queueChanged_.notify_all();
  handleBatches(batches);
}

void Shim::handleBatches(std::deque<std::vector<KernelRecord>> &batches) {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t started = timing_.start();
  // The launches of these records all arrived before their kernels ran, so before the records.
  absorbArrivalsLocked();
  for (const std::vector<KernelRecord> &batch : batches)
    for (const KernelRecord &r : batch)
      onKernelRecordLocked(r);
  settleTrafficLocked(false);
  timing_.stop(ShimTiming::Match, started);
}

void Shim::absorbArrivalsLocked() {
  std::vector<Pending> launches;
  std::vector<MetricsArrival> metrics;
  std::vector<std::pair<uint32_t, std::vector<std::string>>> graphRanges;
  {
    std::lock_guard<std::mutex> lock(arrivalsMutex_);
    launches.swap(arrivedLaunches_);
    metrics.swap(arrivedMetrics_);
    graphRanges.swap(arrivedGraphRanges_);
  }
  for (Pending &p : launches) {
    p.launch.name = p.kernel->name;
    p.launch.mangled = p.kernel->mangled;
    p.launch.registers = registersOf(*p.kernel); // the activity record's, when one comes, replaces it
    p.launch.args = kernels_.decode(*p.kernel, p.argumentBytes);
    p.kernel.reset();
    p.argumentBytes = {};
    uint32_t id = p.correlationId;
    pending_.insert_or_assign(id, std::move(p));
  }
  for (auto &[id, ranges] : graphRanges)
    graphNvtx_[id] = std::move(ranges);
  for (MetricsArrival &arrival : metrics) {
    auto it = pending_.find(arrival.correlationId);
    if (it == pending_.end())
      continue;
    Pending &p = it->second;
    p.awaitingMetrics = false;
    if (arrival.metrics) {
      p.launch.profiled = true;
      p.launch.replayPasses = arrival.passes;
      p.launch.metrics = std::move(*arrival.metrics);
      // Under kernel replay CUPTI gives the launch no activity record: its duration is the counter's.
      auto duration = p.launch.metrics.find(metrics::Duration);
      if (!p.timed && duration != p.launch.metrics.end()) {
        p.launch.durationNs = static_cast<int64_t>(duration->second);
        p.timed = true;
      }
    }
    if (p.timed) {
      emitLocked(std::move(p.launch));
      pending_.erase(it);
    }
  }
}

// CUPTI's activity record and Nsight Compute agree on a kernel's registers; the function attribute, the
// compiler's count, agrees with both above 16 and is raised to 16 by both below it (numRegs 12 was 16 on
// the H200; 22, 32, 40, 64, 128 were themselves: bench/registers-probe.sh).
int Shim::registersOf(const KernelInfo &kernel) const {
  auto learned = activityRegisters_.find(kernel.mangled);
  if (learned != activityRegisters_.end())
    return learned->second;
  constexpr int FewestAllocated = 16;
  return kernel.registers > 0 ? std::max(kernel.registers, FewestAllocated) : 0;
}

void Shim::onKernelRecordLocked(const KernelRecord &r) {
  auto fill = [&](Launch &l) {
    l.durationNs = static_cast<int64_t>(r.end >= r.start ? r.end - r.start : 0);
    l.device = static_cast<int>(r.deviceId);
    l.context = r.contextId;
    l.stream = r.streamId;
    l.grid = r.grid;
    l.block = r.block;
    l.cluster = r.cluster;
    l.registers = r.registers;
    l.sharedStatic = r.sharedStatic;
    activityRegisters_[r.name] = r.registers;
    l.sharedDynamic = r.sharedDynamic;
  };
  auto it = pending_.find(r.correlationId);
  if (it != pending_.end()) {
    Pending &p = it->second;
    fill(p.launch);
    p.timed = true;
    if (!p.awaitingMetrics) {
      completeLocked(std::move(p.launch), r);
      pending_.erase(it);
    }
    return;
  }
  // Kernels of a graph (and every kernel when the callbacks are off) exist only as activity records.
  if (r.graphId == 0 && callbacksOn_)
    return; // a launch the filters passed over, or a replay of a profiled one
  ++seen_;
  Launch l;
  l.index = nextIndex_++;
  l.mangled = r.name;
  l.name = demangle(l.mangled.c_str());
  if (!selector_->decide(l.name, l.mangled, r.grid, r.block).record)
    return;
  fill(l);
  if (auto nvtx = graphNvtx_.find(r.correlationId); nvtx != graphNvtx_.end())
    l.nvtx = nvtx->second;
  completeLocked(std::move(l), r);
}

void Shim::completeLocked(Launch &&launch, const KernelRecord &record) {
  if (!traffic_.samples(launch.device)) {
    emitLocked(std::move(launch));
    return;
  }
  uint64_t id = nextSpanId_++;
  traffic_.addSpan(id, launch.device, {record.start, record.end});
  awaitingTraffic_.emplace(id, std::move(launch));
}

void Shim::settleTrafficLocked(bool all) {
  for (TrafficLedger::Settled &s : all ? traffic_.finish() : traffic_.settle()) {
    auto it = awaitingTraffic_.find(s.id);
    if (it == awaitingTraffic_.end())
      continue;
    Launch &l = it->second;
    l.sampled = std::move(s.traffic.values);
    l.sampledShared = !l.sampled.empty() && s.traffic.shared;
    emitLocked(std::move(l));
    awaitingTraffic_.erase(it);
  }
}

void Shim::writeHeader() {
  if (headerWritten_)
    return;
  std::shared_future<void> described;
  {
    std::lock_guard<std::mutex> lock(describeMutex_);
    described = devicesDescribed_;
  }
  if (!described.valid())
    return; // no context yet: nothing to describe, nothing to record
  // Never hang on a driver or NVML call that does not return: the header then goes without them.
  if (described.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
    diagnostics_.warn("describe", "the devices and clocks were not known after 5 s: the header goes without them");
  std::lock_guard<std::mutex> writing(writerMutex_);
  if (headerWritten_)
    return;
  headerWritten_ = true;
  Json header;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    header = toJson(header_);
    path = options_.outputDir + "/" + measuredFileName(header_.pid, header_.rank);
  }
  diagnostics_.trace("writing the header");
  if (!writer_.open(path)) {
    diagnostics_.warn("output", writer_.error() + ": nothing is recorded (pass a writable --output-dir)");
    return;
  }
  writer_.write(header);
}

void Shim::emitLocked(Launch &&launch) {
  ++recorded_;
  if (launch.profiled)
    ++profiled_;
  ready_.push_back(std::move(launch));
}

void Shim::writeReady() {
  std::vector<Launch> batch;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    batch.swap(ready_);
  }
  if (batch.empty())
    return;
  writeHeader();
  // Serialised under the writer's lock: a kernel record reaches the file before any launch that names it.
  std::lock_guard<std::mutex> writing(writerMutex_);
  int64_t started = timing_.start();
  std::string text;
  text.reserve(batch.size() * 200);
  for (const Launch &l : batch)
    records_.append(text, l);
  timing_.stop(ShimTiming::Serialise, started);
  started = timing_.start();
  writer_.appendText(text);
  if (writer_.isOpen() && !writer_.flush())
    diagnostics_.warn("write", writer_.error());
  timing_.stop(ShimTiming::Write, started);
}

void Shim::writePendingLocked(bool includeUntimed) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.timed || includeUntimed) {
      emitLocked(std::move(it->second.launch));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

// CUPTI writes a kernel's end time into its record a while after the kernel ends, and a forced flush hands
// over a record without one (skipped: no duration). After a signal a launch without its record is not
// written, so a program that aborts right after cudaDeviceSynchronize could lose a finished launch (seen
// once in seven runs on the H200): completed buffers are asked for first, for up to 100 ms while a
// recorded launch still waits for its record.
void Shim::awaitKernelRecords() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  for (;;) {
    activity_.flushCompleted();
    drainQueue();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (std::none_of(pending_.begin(), pending_.end(), [](const auto &p) { return !p.second.timed; }))
        return;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void Shim::writeOut(bool atExit) {
  if (inForkedChild())
    return;
  // The exit and a signal can both get here (a crash on one thread while another exits): the second waits
  // until the first has written everything, so a signal raised after it leaves a complete file.
  std::lock_guard<std::mutex> once(writeOutMutex_);
  if (finished_.exchange(true))
    return;
  diagnostics_.trace(atExit ? "finish: flushing CUPTI's buffers" : "ended by a signal: flushing CUPTI's buffers");
  int64_t started = timing_.start();
  if (!atExit)
    awaitKernelRecords();
  activity_.flushAll();
  timing_.stop(ShimTiming::FinishFlush, started);
  started = timing_.start();
  drainQueue();
  timing_.stop(ShimTiming::FinishDrain, started);
  started = timing_.start();
  RunCounts counts;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    settleTrafficLocked(true);
    // At exit every kernel has finished; after a signal, a launch without its record may never have run.
    writePendingLocked(atExit);
    counts.launchesSeen = seen_;
    counts.launchesRecorded = recorded_;
    counts.launchesProfiled = profiled_;
  }
  writeReady();
  writeHeader();
  counts.activityRecordsDropped = activity_.droppedRecords();
  counts.warnings = diagnostics_.warnings();
  std::lock_guard<std::mutex> writing(writerMutex_);
  if (atExit)
    writer_.append(summaryRecord(counts)); // a file without one comes from a process that died
  if (!writer_.close()) // too late for the summary record: stderr is where it can still be said
    std::fprintf(stderr, "roofcheck: warning: %s: the measured file is incomplete\n", writer_.error().c_str());
  timing_.stop(ShimTiming::FinishWrite, started);
  // A crash on another thread from here on (the program's exit tearing CUDA down under it) ends the
  // process at once, as without the shim, not after the exiting thread has finished.
  flushNoLongerNeeded();
  if (atExit && timing_.enabled())
    std::fprintf(stderr, "roofcheck: timing: %s\n", timing_.summary().c_str());
}

} // namespace roofcheck::runtime

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  return roofcheck::runtime::Shim::instance().initialize();
}
