// The least a CUPTI launch tracer can cost: an injection library (CUDA_INJECTION64_PATH) that asks CUPTI for
// what roofcheck's shim asks and does nothing with it. bench/runtime-floor.sh measures it side by side with
// native runs and with the shim, so the shim's overhead splits into CUPTI's share and roofcheck's own.
// ROOFCHECK_FLOOR picks what is asked for:
//   load        nothing: the driver loads this library (and CUPTI with it) and calls InitializeInjection
//   callbacks   the shim's launch callbacks (the 8 launch APIs, enter and exit), each returning at once
//   activity    kernel activity records (64 KiB buffers, 10 ms flush period, as the shim), freed unread
//   both        callbacks and activity: what `roofcheck run --metrics time` needs from CUPTI
//   pm          both, and device 0's DRAM bytes read by PM sampling every 10 us into a 64 MiB hardware buffer
//               (the shim's settings, made the shim's way: the configuration on a thread from the start, without
//               counter availability; enabled, configured and started there once the program has a context,
//               its first launch waiting for that; stopped and disabled at exit), with nothing decoded: what
//               `roofcheck run --metrics time --sampled-traffic 10` needs from CUPTI
// ROOFCHECK_FLOOR_FLUSH_MS (default 10; 0: no periodic flush) and ROOFCHECK_FLOOR_BUFFER_KIB (default 64) vary
// the two activity settings, to tell what the records' cost depends on.
#include "CuptiPmSampling.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"
#include "LaunchCallbackIds.h"

#include "roofcheck/Metrics.h"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace {

size_t bufferBytes = 64 << 10;

unsigned long fromEnvironment(const char *name, unsigned long fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::strtoul(text, nullptr, 10) : fallback;
}

bool checked(CUptiResult result, const char *call) {
  if (result == CUPTI_SUCCESS)
    return true;
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "cupti-floor: %s: %s\n", call, text ? text : "unknown error");
  return false;
}

// Device 0's PM sampling, every call on a thread of its own as in the shim (never inside the driver's callbacks).
class PmSamplingFloor {
public:
  void begin() { std::thread(&PmSamplingFloor::run, this).detach(); }

  void contextCreated(CUcontext context) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (context_)
      return;
    context_ = context;
    // Registered after the CUDA runtime's handler, so run before its teardown: a program whose context
    // goes with sampling enabled exits with an error.
    std::atexit([] { pmSampling().stopAtExit(); });
    changed_.notify_all();
  }

  // A launch's entry: the first waits until sampling has started (or failed), as the shim's does.
  void awaitStart() {
    if (launched_.load(std::memory_order_acquire))
      return; // every launch after the first: no lock
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(5), [this] { return settled_; });
    launched_ = true;
  }

  static PmSamplingFloor &pmSampling() {
    static auto *floor = new PmSamplingFloor; // never destroyed: the thread may outlive the exit handlers
    return *floor;
  }

private:
  void stopAtExit() {
    std::unique_lock<std::mutex> lock(mutex_);
    stopRequested_ = true;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(2), [this] { return stopped_; });
  }

  void run() {
    using namespace roofcheck::runtime;
    auto pm = std::make_unique<CuptiPmSampling>(diagnostics_);
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    bool configured = diagnostics_.driver(cuInit(0), "cuInit") &&
                      diagnostics_.cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize") &&
                      diagnostics_.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") &&
                      pm->configure(0, chip.pChipName, {roofcheck::metrics::DramRead, roofcheck::metrics::DramWrite},
                                    !CuptiProfilerHost::knowsChip(chip.pChipName));
    CUcontext context = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return context_ || stopRequested_; });
      context = context_;
    }
    if (!configured || !context || !diagnostics_.driver(cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
        !pm->enable(0, 10'000, size_t(64) << 20) || !pm->start())
      std::fprintf(stderr, "cupti-floor: PM sampling did not start\n");
    std::unique_lock<std::mutex> lock(mutex_);
    settled_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return stopRequested_; });
    lock.unlock();
    pm.reset(); // stops and disables
    lock.lock();
    stopped_ = true;
    changed_.notify_all();
  }

  roofcheck::runtime::Diagnostics diagnostics_;
  std::mutex mutex_;
  std::condition_variable changed_;
  CUcontext context_ = nullptr;
  std::atomic<bool> launched_ = false;
  bool settled_ = false, stopRequested_ = false, stopped_ = false;
};

bool samplePm = false;

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data) {
  if (!samplePm)
    return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
    PmSamplingFloor::pmSampling().contextCreated(static_cast<const CUpti_ResourceData *>(data)->context);
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
           static_cast<const CUpti_CallbackData *>(data)->callbackSite == CUPTI_API_ENTER)
    PmSamplingFloor::pmSampling().awaitStart();
}

void CUPTIAPI requestBuffer(uint8_t **buffer, size_t *size, size_t *maxNumRecords) {
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, bufferBytes));
  *size = *buffer ? bufferBytes : 0;
  *maxNumRecords = 0;
}

void CUPTIAPI completeBuffer(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t) { std::free(buffer); }

void flushAtExit() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  const char *mode = std::getenv("ROOFCHECK_FLOOR");
  if (!mode || std::strcmp(mode, "load") == 0)
    return 1;
  samplePm = std::strcmp(mode, "pm") == 0;
  bool callbacks = std::strcmp(mode, "callbacks") == 0 || std::strcmp(mode, "both") == 0 || samplePm;
  bool activity = std::strcmp(mode, "activity") == 0 || std::strcmp(mode, "both") == 0 || samplePm;
  bufferBytes = fromEnvironment("ROOFCHECK_FLOOR_BUFFER_KIB", 64) << 10;
  if (!callbacks && !activity) {
    std::fprintf(stderr, "cupti-floor: unknown ROOFCHECK_FLOOR '%s' (load, callbacks, activity, both, pm)\n", mode);
    return 1;
  }
  if (callbacks) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (checked(cuptiSubscribe(&subscriber, onCallback, nullptr), "cuptiSubscribe")) {
      for (CUpti_CallbackId id : roofcheck::runtime::launchCallbackIds)
        checked(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id), "cuptiEnableCallback");
      if (samplePm &&
          checked(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED),
                  "cuptiEnableCallback"))
        PmSamplingFloor::pmSampling().begin();
    }
  }
  if (activity &&
      checked(cuptiActivityRegisterCallbacks(requestBuffer, completeBuffer), "cuptiActivityRegisterCallbacks") &&
      checked(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable")) {
    if (unsigned long period = fromEnvironment("ROOFCHECK_FLOOR_FLUSH_MS", 10); period > 0)
      checked(cuptiActivityFlushPeriod(static_cast<uint32_t>(period)), "cuptiActivityFlushPeriod");
    std::atexit(flushAtExit);
  }
  return 1;
}
