#include "Shim.h"

#include "roofcheck/Error.h"
#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <chrono>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <future>
#include <iterator>

#include <unistd.h>

namespace roofcheck::runtime {

namespace {

thread_local std::vector<std::string> nvtxStack;

// The launch this thread is inside of while its counters are being collected.
struct ProfiledCall {
  bool active = false;
  uint32_t correlationId = 0;
  CUcontext context = nullptr;
};
thread_local ProfiledCall profiledCall;

// How this thread holds Shim::launchGate_ between a launch's entry and exit callbacks.
enum class GateHold { None, Shared, Exclusive };
thread_local GateHold gateHold = GateHold::None;

// Never wait long at the gate: a launch that cannot pass in time runs unprofiled rather than stall.
constexpr std::chrono::milliseconds gateWait{500};

constexpr int crashSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};

void onCrash(int signal) {
  Shim::instance().finishAfterCrash();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void onExit() { Shim::instance().finish(); }

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

std::string versionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string uuidText(const CUuuid &uuid) {
  char text[64];
  const auto *b = reinterpret_cast<const unsigned char *>(uuid.bytes);
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
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
          diagnostics_, [this](const KernelRecord &r) { queueRecord(r); }, [this] { queueBatch(); }),
      host_(diagnostics_),
      profiler_(diagnostics_, host_) {}

int Shim::initialize() {
  std::call_once(initialized_, [this] {
    if (const char *text = std::getenv("ROOFCHECK_OPTIONS"); text && *text) {
      try {
        options_ = runOptionsFromJson(text);
      } catch (const Error &e) {
        diagnostics_.warn("options", std::string(e.what()) + ": running with the default options");
      }
    }
    countersWanted_ = options_.metricsMode != MetricsMode::Time;
    selector_ = std::make_unique<LaunchSelector>(options_, countersWanted_);
    // NVML takes a while to start: it does so while the driver creates the first context.
    nvmlReady_ = std::async(std::launch::async, [this] { nvml_ = std::make_unique<NvmlClocks>(); });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      header_.pid = ::getpid();
      header_.rank = rankFromEnvironment([](const char *name) { return std::getenv(name); });
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
    activity_.enable(100);
    std::atexit(onExit);
    for (int s : crashSignals) {
      struct sigaction current {};
      // Only where the program left the default: its own handlers stay in charge.
      if (::sigaction(s, nullptr, &current) == 0 && current.sa_handler == SIG_DFL && !(current.sa_flags & SA_SIGINFO))
        std::signal(s, onCrash);
    }
  });
  return 1;
}

void Shim::describeDevices() {
  std::vector<DeviceInfo> devices;
  int count = 0;
  if (!diagnostics_.driver(cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return;
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    if (!diagnostics_.driver(cuDeviceGet(&device, i), "cuDeviceGet"))
      continue;
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    if (diagnostics_.driver(cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName"))
      info.name = name;
    CUuuid uuid{};
    if (diagnostics_.driver(cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid"))
      info.uuid = uuidText(uuid);
    int major = 0, minor = 0, sms = 0, l2 = 0;
    diagnostics_.driver(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
                        "cuDeviceGetAttribute");
    diagnostics_.driver(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
                        "cuDeviceGetAttribute");
    diagnostics_.driver(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
                        "cuDeviceGetAttribute");
    diagnostics_.driver(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device), "cuDeviceGetAttribute");
    info.computeCapability = std::to_string(major) + "." + std::to_string(minor);
    info.multiprocessors = sms;
    info.l2Bytes = l2;
    size_t memory = 0;
    if (diagnostics_.driver(cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"))
      info.memoryBytes = static_cast<int64_t>(memory);
    devices.push_back(info);
  }
  nvmlReady_.wait();
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
}

void Shim::configureCounters(CUcontext context, CUdevice device) {
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (!diagnostics_.cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize")) {
    selector_->stopProfiling();
    return;
  }
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (!diagnostics_.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") || !chip.pChipName) {
    selector_->stopProfiling();
    return;
  }
  std::vector<uint8_t> availability;
  CUpti_Profiler_GetCounterAvailability_Params query{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  query.ctx = context;
  CUptiResult sized = cuptiProfilerGetCounterAvailability(&query);
  if (sized == CUPTI_SUCCESS) {
    availability.resize(query.counterAvailabilityImageSize);
    query.pCounterAvailabilityImage = availability.data();
    if (cuptiProfilerGetCounterAvailability(&query) != CUPTI_SUCCESS)
      availability.clear();
  }
  if (sized == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    diagnostics_.warn("privileges", "counters are off: no permission to read GPU performance counters (run as "
                                    "root, or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0); "
                                    "durations continue");
    selector_->stopProfiling();
    return;
  }
  const std::vector<std::string> &requested =
      options_.metricsMode == MetricsMode::List ? options_.metrics : defaultMetrics();
  if (!host_.configure(chip.pChipName, availability, requested, options_.metricsMode == MetricsMode::Default)) {
    selector_->stopProfiling();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  header_.replayPasses = host_.passes();
  header_.options["chip"] = host_.chip();
  header_.options["collected_metrics"] = host_.metrics();
}

int Shim::deviceOf(CUcontext context) {
  std::lock_guard<std::mutex> lock(contextMutex_);
  auto it = contextDevice_.find(context);
  if (it != contextDevice_.end())
    return it->second;
  CUdevice device = 0;
  int index = diagnostics_.driver(cuCtxGetDevice_v2(&device, context), "cuCtxGetDevice") ? static_cast<int>(device) : 0;
  contextDevice_[context] = index;
  return index;
}

void Shim::onContextCreated(CUcontext context) {
  std::call_once(devicesDescribed_, [this] { describeDevices(); });
  int device = deviceOf(context);
  if (countersWanted_)
    std::call_once(countersConfigured_, [&] { configureCounters(context, device); });
  writeHeader();
}

void Shim::onContextDestroying(CUcontext context) {
  activity_.flushAll();
  profiler_.release(context);
  std::lock_guard<std::mutex> lock(contextMutex_);
  contextDevice_.erase(context);
}

void Shim::onNvtxPush(const char *message) { nvtxStack.emplace_back(message ? message : ""); }

void Shim::onNvtxPop() {
  if (!nvtxStack.empty())
    nvtxStack.pop_back();
}

void Shim::onLaunch(const LaunchCall &call) {
  if (finished_)
    return;
  if (call.graph) {
    if (call.entering && !nvtxStack.empty()) {
      std::lock_guard<std::mutex> lock(mutex_);
      graphNvtx_[call.correlationId] = nvtxStack;
    }
    return;
  }
  if (!call.entering) {
    struct ReleaseGate {
      std::shared_timed_mutex &gate;
      ~ReleaseGate() {
        if (gateHold == GateHold::Shared)
          gate.unlock_shared();
        else if (gateHold == GateHold::Exclusive)
          gate.unlock();
        gateHold = GateHold::None;
      }
    } release{launchGate_};
    if (!profiledCall.active || profiledCall.correlationId != call.correlationId)
      return;
    profiledCall.active = false;
    auto metrics = profiler_.end(call.context);
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = pending_.find(call.correlationId);
    if (it == pending_.end())
      return;
    Pending &p = it->second;
    p.awaitingMetrics = false;
    if (metrics) {
      p.launch.profiled = true;
      p.launch.metrics = std::move(*metrics);
      // Under kernel replay CUPTI gives the launch no activity record: its duration is the counter's.
      auto duration = p.launch.metrics.find("gpu__time_duration.sum");
      if (!p.timed && duration != p.launch.metrics.end()) {
        p.launch.durationNs = static_cast<int64_t>(duration->second);
        p.timed = true;
      }
    }
    if (p.timed) {
      emitLocked(p.launch);
      pending_.erase(it);
      lock.unlock();
      writeReady();
    }
    return;
  }

  // A launch into a capturing stream only adds a node to a graph; the graph's launches are recorded.
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(call.stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return;
  ++seen_;
  int64_t index = nextIndex_++;
  std::shared_ptr<const KernelInfo> info = kernels_.lookup(call.function, call.symbolName);
  LaunchDecision decision = selector_->decide(info->name, info->mangled, call.grid, call.block);
  if (countersWanted_ && gateHold == GateHold::None) {
    if (decision.profile && launchGate_.try_lock_for(gateWait))
      gateHold = GateHold::Exclusive;
    else if (!decision.profile && launchGate_.try_lock_shared_for(gateWait))
      gateHold = GateHold::Shared;
  }
  if (!decision.record)
    return;
  Pending p;
  Launch &l = p.launch;
  l.index = index;
  l.name = info->name;
  l.mangled = info->mangled;
  l.device = deviceOf(call.context);
  l.context = call.contextUid;
  l.grid = call.grid;
  l.block = call.block;
  l.cluster = call.cluster;
  l.sharedDynamic = call.sharedDynamic;
  l.args = kernels_.arguments(call.function, call.kernelParams, call.extra);
  l.nvtx = nvtxStack;
  if (decision.profile && gateHold == GateHold::Exclusive) {
    p.awaitingMetrics = profiler_.begin(call.context);
    if (!p.awaitingMetrics && profiler_.permanentlyUnavailable())
      selector_->stopProfiling();
  }
  if (p.awaitingMetrics) {
    profiledCall = {true, call.correlationId, call.context};
    // A profiled launch gets no activity record: its stream id comes from CUPTI here.
    uint32_t streamId = 0;
    if (diagnostics_.cupti(cuptiGetStreamIdEx(call.context, call.stream, call.perThreadStream ? 1 : 0, &streamId),
                           "cuptiGetStreamIdEx"))
      l.stream = streamId;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  pending_[call.correlationId] = std::move(p);
}

void Shim::queueRecord(KernelRecord record) {
  std::lock_guard<std::mutex> lock(queueMutex_);
  incoming_.push_back(std::move(record));
}

void Shim::queueBatch() {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    if (incoming_.empty())
      return;
    queue_.push_back(std::move(incoming_));
    incoming_.clear();
  }
  queueChanged_.notify_all();
}

void Shim::processQueue() {
  std::unique_lock<std::mutex> lock(queueMutex_);
  while (!stopping_) {
    queueChanged_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty())
      continue;
    // Everything queued is matched first and written in one go, so the writes come in large batches
    // that serialise in parallel even when CUPTI hands over many small buffers.
    ++busy_;
    while (!queue_.empty()) {
      std::vector<KernelRecord> batch = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      for (const KernelRecord &r : batch)
        onKernelRecord(r);
      lock.lock();
    }
    lock.unlock();
    writeReady();
    lock.lock();
    --busy_;
    queueChanged_.notify_all();
  }
}

void Shim::drainQueue(bool wait) {
  queueBatch();
  std::unique_lock<std::mutex> lock(queueMutex_, std::defer_lock);
  if (wait)
    lock.lock();
  else if (!lock.try_lock())
    return;
  while (!queue_.empty()) {
    std::vector<KernelRecord> batch = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    for (const KernelRecord &r : batch)
      onKernelRecord(r);
    lock.lock();
  }
  // A batch the handler thread holds is finished in a moment; after a crash it is not waited for.
  if (wait)
    queueChanged_.wait_for(lock, std::chrono::seconds(10), [this] { return busy_ == 0; });
  stopping_ = wait;
  queueChanged_.notify_all();
}

void Shim::onKernelRecord(const KernelRecord &r) {
  std::lock_guard<std::mutex> lock(mutex_);
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
    l.sharedDynamic = r.sharedDynamic;
  };
  auto it = pending_.find(r.correlationId);
  if (it != pending_.end()) {
    Pending &p = it->second;
    fill(p.launch);
    p.timed = true;
    if (!p.awaitingMetrics) {
      emitLocked(p.launch);
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
  emitLocked(l);
}

void Shim::writeHeader() {
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
  if (!writer_.open(path)) {
    diagnostics_.warn("output", writer_.error() + ": nothing is recorded (pass a writable --output-dir)");
    return;
  }
  writer_.write(header);
}

void Shim::emitLocked(const Launch &launch) {
  ++recorded_;
  if (launch.profiled)
    ++profiled_;
  ready_.push_back(launch);
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
  std::vector<std::string> lines(batch.size());
  auto serialise = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      lines[i] = toJson(batch[i]).dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  // Serialising through core's toJson costs some 20 us a launch on the H200's host: use up to half the
  // cores (at most 8), in chunks of at least 64 launches.
  constexpr size_t chunk = 64;
  size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency() / 2, 1, 8);
  size_t parts = std::min<size_t>(threads, (batch.size() + chunk - 1) / chunk);
  size_t per = (batch.size() + parts - 1) / parts;
  std::vector<std::future<void>> helpers;
  for (size_t part = 1; part < parts; ++part)
    helpers.push_back(std::async(std::launch::async, serialise, part * per, std::min(batch.size(), (part + 1) * per)));
  serialise(0, std::min(batch.size(), per));
  for (auto &helper : helpers)
    helper.wait();
  std::lock_guard<std::mutex> writing(writerMutex_);
  for (const std::string &line : lines)
    writer_.appendLine(line);
  if (writer_.isOpen() && !writer_.flush())
    diagnostics_.warn("write", writer_.error());
}

void Shim::writePendingLocked(bool includeUntimed) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.timed || includeUntimed) {
      emitLocked(it->second.launch);
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

void Shim::finish() {
  if (finished_.exchange(true))
    return;
  activity_.flushAll();
  drainQueue(true);
  RunCounts counts;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    writePendingLocked(true);
    counts.launchesSeen = seen_;
    counts.launchesRecorded = recorded_;
    counts.launchesProfiled = profiled_;
  }
  writeReady();
  writeHeader();
  counts.activityRecordsDropped = activity_.droppedRecords();
  counts.warnings = diagnostics_.warnings();
  std::lock_guard<std::mutex> writing(writerMutex_);
  writer_.append(summaryRecord(counts));
  writer_.close();
}

void Shim::finishAfterCrash() {
  if (finished_.exchange(true))
    return;
  activity_.flushAll();
  drainQueue(false);
  // The crash may have happened inside the shim itself: never wait for its locks here.
  if (!mutex_.try_lock())
    return;
  writePendingLocked(false);
  mutex_.unlock();
  writeReady();
  std::lock_guard<std::mutex> writing(writerMutex_);
  writer_.close();
}

} // namespace roofcheck::runtime

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  return roofcheck::runtime::Shim::instance().initialize();
}
