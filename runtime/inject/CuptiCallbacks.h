// The one class that talks to CUPTI's callback API: subscribes, turns on the driver launch callbacks,
// context creation/destruction, module loads and NVTX ranges (push/pop and start/end), and hands each event to a
// sink in plain terms.
#pragma once

#include "Diagnostics.h"

#include "roofcheck/Contracts.h"

#include <cuda.h>
#include <cupti.h>

#include <string>

namespace roofcheck::runtime {

/// One kernel launch call as the driver saw it (valid only during the callback).
struct LaunchCall {
  bool entering = true;
  bool graph = false;            ///< cuGraphLaunch: the kernels come from activity records
  CUfunction function = nullptr; ///< may be a CUkernel cast to CUfunction
  const char *symbolName = nullptr;
  Dim3 grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  int64_t sharedDynamic = 0;
  CUstream stream = nullptr;
  bool perThreadStream = false;  ///< a _ptsz launch: the null stream is the per-thread one
  void **kernelParams = nullptr;
  void **extra = nullptr;
  CUcontext context = nullptr;
  uint32_t contextUid = 0;
  uint32_t correlationId = 0;
};

class CallbackSink {
public:
  virtual ~CallbackSink() = default;
  virtual void onLaunch(const LaunchCall &call) = 0;
  virtual void onContextCreated(CUcontext context) = 0;
  virtual void onContextDestroying(CUcontext context) = 0;
  /// A module loaded into a context, as its cubin (ELF).
  virtual void onModuleLoaded(const uint8_t *cubin, size_t size) = 0;
  virtual void onNvtxPush(const char *message) = 0;
  virtual void onNvtxPop() = 0;
  /// nvtxRangeStart*: a range not tied to a thread, open until onNvtxEnd with the same id.
  virtual void onNvtxStart(uint64_t id, const char *message) = 0;
  virtual void onNvtxEnd(uint64_t id) = 0;
};

class CuptiCallbacks {
public:
  CuptiCallbacks(Diagnostics &diagnostics, CallbackSink &sink) : diagnostics_(diagnostics), sink_(sink) {}

  /// Subscribes and enables the callbacks; false (with one warning naming the cause) when another
  /// CUPTI client holds the subscription or CUPTI refuses.
  bool enable();

private:
  static void CUPTIAPI dispatch(void *self, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data);
  void onDriverApi(CUpti_CallbackId id, const CUpti_CallbackData &data);
  void onNvtx(CUpti_CallbackId id, const CUpti_NvtxData &data);

  Diagnostics &diagnostics_;
  CallbackSink &sink_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
};

} // namespace roofcheck::runtime
