// A minimal CUDA injection library (CUDA_INJECTION64_PATH) that does, one switch at a time, each thing the
// shim does when CUDA starts, to find which one makes a later cuInit (cuBLASLt's own runtime, inside
// cublasCreate) wait forever on a mutex of the driver's (docs/benchmarks.md, Runtime shim). Which things:
// a comma-separated list in CUINIT_PROBE, from
//   subscribe          cuptiSubscribe with a callback that does nothing
//   launch-callbacks   ... and the driver's launch callbacks enabled (implies subscribe)
//   nvtx-callbacks     ... and the NVTX domain enabled (implies subscribe)
//   context-callback   ... and CONTEXT_CREATED enabled, doing nothing (implies subscribe)
//   context-query      CONTEXT_CREATED asks the driver for the context's device (cuCtxGetDevice_v2)
//   context-thread     CONTEXT_CREATED starts a thread that asks the driver about the devices, then ends
//   activity           kernel activity records (cuptiActivityRegisterCallbacks, CONCURRENT_KERNEL)
//   flush-period       ... and cuptiActivityFlushPeriod(10) (implies activity)
//   nvml-thread        a thread started here that loads NVML and calls nvmlInit_v2, then ends
// Used by bench/runtime-cuinit.sh; not part of roofcheck.
#include <cuda.h>
#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <dlfcn.h>

namespace {

bool wanted(const char *feature) {
  const char *list = std::getenv("CUINIT_PROBE");
  if (!list)
    return false;
  std::string all = std::string(",") + list + ",";
  return all.find(std::string(",") + feature + ",") != std::string::npos;
}

bool contextQuery = false;
bool contextThread = false;

void askAboutDevices() {
  int count = 0;
  cuDeviceGetCount(&count);
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    char name[256];
    int sms = 0;
    size_t memory = 0;
    cuDeviceGet(&device, i);
    cuDeviceGetName(name, sizeof name, device);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    cuDeviceTotalMem(&memory, device);
  }
  std::fprintf(stderr, "probe: devices asked about from a thread of its own (%d)\n", count);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
    return;
  CUcontext context = static_cast<const CUpti_ResourceData *>(data)->context;
  if (contextQuery) {
    CUdevice device = 0;
    cuCtxGetDevice_v2(&device, context);
  }
  if (contextThread)
    std::thread(askAboutDevices).detach();
  std::fprintf(stderr, "probe: context created\n");
}

void CUPTIAPI requestBuffer(uint8_t **buffer, size_t *size, size_t *maxRecords) {
  *size = 64 << 10;
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *size));
  *maxRecords = 0;
}

void CUPTIAPI completeBuffer(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t) { std::free(buffer); }

void startNvml() {
  void *nvml = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  auto init = nvml ? reinterpret_cast<int (*)()>(::dlsym(nvml, "nvmlInit_v2")) : nullptr;
  std::fprintf(stderr, "probe: nvmlInit_v2 %s\n", init ? (init() == 0 ? "succeeded" : "failed") : "not found");
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  contextQuery = wanted("context-query");
  contextThread = wanted("context-thread");
  bool launches = wanted("launch-callbacks"), nvtx = wanted("nvtx-callbacks");
  bool context = wanted("context-callback") || contextQuery || contextThread;
  if (wanted("subscribe") || launches || nvtx || context) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(onCallback), nullptr) != CUPTI_SUCCESS)
      std::fprintf(stderr, "probe: cuptiSubscribe failed\n");
    if (launches)
      for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx})
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
    if (nvtx)
      cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
    if (context)
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  }
  if (wanted("activity") || wanted("flush-period")) {
    cuptiActivityRegisterCallbacks(requestBuffer, completeBuffer);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (wanted("flush-period"))
      cuptiActivityFlushPeriod(10);
  }
  if (wanted("nvml-thread"))
    std::thread(startNvml).detach();
  std::fprintf(stderr, "probe: injected (%s)\n", std::getenv("CUINIT_PROBE") ? std::getenv("CUINIT_PROBE") : "");
  return 1;
}
