// The least a CUPTI launch tracer can cost: an injection library (CUDA_INJECTION64_PATH) that asks CUPTI for
// what roofcheck's shim asks and does nothing with it. bench/runtime-floor.sh measures it side by side with
// native runs and with the shim, so the shim's overhead splits into CUPTI's share and roofcheck's own.
// ROOFCHECK_FLOOR picks what is asked for:
//   load        nothing: the driver loads this library (and CUPTI with it) and calls InitializeInjection
//   callbacks   the shim's launch callbacks (the 8 launch APIs, enter and exit), each returning at once
//   activity    kernel activity records (64 KiB buffers, 10 ms flush period, as the shim), freed unread
//   both        callbacks and activity: what `roofcheck run --metrics time` needs from CUPTI
// ROOFCHECK_FLOOR_FLUSH_MS (default 10; 0: no periodic flush) and ROOFCHECK_FLOOR_BUFFER_KIB (default 64) vary
// the two activity settings, to tell what the records' cost depends on.
#include "LaunchCallbackIds.h"

#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

void CUPTIAPI ignoreCallback(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) {}

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
  bool callbacks = std::strcmp(mode, "callbacks") == 0 || std::strcmp(mode, "both") == 0;
  bool activity = std::strcmp(mode, "activity") == 0 || std::strcmp(mode, "both") == 0;
  bufferBytes = fromEnvironment("ROOFCHECK_FLOOR_BUFFER_KIB", 64) << 10;
  if (!callbacks && !activity) {
    std::fprintf(stderr, "cupti-floor: unknown ROOFCHECK_FLOOR '%s' (load, callbacks, activity, both)\n", mode);
    return 1;
  }
  if (callbacks) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (checked(cuptiSubscribe(&subscriber, ignoreCallback, nullptr), "cuptiSubscribe"))
      for (CUpti_CallbackId id : roofcheck::runtime::launchCallbackIds)
        checked(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id), "cuptiEnableCallback");
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
