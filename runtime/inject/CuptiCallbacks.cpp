#include "CuptiCallbacks.h"

#include "LaunchCallbackIds.h"

#include "../ForkedChild.h"

#include <cupti_driver_cbid.h>
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>

namespace roofcheck::runtime {

namespace {

constexpr CUpti_CallbackId nvtxCallbacks[] = {
    CUPTI_CBID_NVTX_nvtxRangePushA,
    CUPTI_CBID_NVTX_nvtxRangePushEx,
    CUPTI_CBID_NVTX_nvtxRangePop,
    CUPTI_CBID_NVTX_nvtxDomainRangePushEx,
    CUPTI_CBID_NVTX_nvtxDomainRangePop,
    CUPTI_CBID_NVTX_nvtxRangeStartA,
    CUPTI_CBID_NVTX_nvtxRangeStartEx,
    CUPTI_CBID_NVTX_nvtxRangeEnd,
    CUPTI_CBID_NVTX_nvtxDomainRangeStartEx,
    CUPTI_CBID_NVTX_nvtxDomainRangeEnd,
};

template <typename Params> void classicLaunch(LaunchCall &call, const Params *p) {
  call.function = p->f;
  call.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  call.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  call.sharedDynamic = p->sharedMemBytes;
  call.stream = p->hStream;
  call.kernelParams = p->kernelParams;
}

template <typename Params> void exLaunch(LaunchCall &call, const Params *p) {
  call.function = p->f;
  call.kernelParams = p->kernelParams;
  call.extra = p->extra;
  if (const CUlaunchConfig *c = p->config) {
    call.grid = {c->gridDimX, c->gridDimY, c->gridDimZ};
    call.block = {c->blockDimX, c->blockDimY, c->blockDimZ};
    call.sharedDynamic = c->sharedMemBytes;
    call.stream = c->hStream;
    for (unsigned i = 0; c->attrs && i < c->numAttrs; ++i)
      if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
        call.cluster = {c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y,
                        c->attrs[i].value.clusterDim.z};
  }
}

// The message of an NVTX event attribute when it is an ASCII string.
const char *asciiMessage(const nvtxEventAttributes_t *attributes) {
  if (attributes && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII)
    return attributes->message.ascii;
  return nullptr;
}

// The id nvtxRangeStart* returned, which its nvtxRangeEnd names; 0 when CUPTI does not give it.
uint64_t rangeId(const CUpti_NvtxData &data) {
  return data.functionReturnValue ? *static_cast<const nvtxRangeId_t *>(data.functionReturnValue) : 0;
}

} // namespace

bool CuptiCallbacks::enable() {
  CUptiResult subscribed = cuptiSubscribe(&subscriber_, &CuptiCallbacks::dispatch, this);
  if (subscribed != CUPTI_SUCCESS) {
    subscriber_ = nullptr;
    if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
      diagnostics_.warn("subscribe", "another CUPTI client is attached to this process (e.g. ncu or nsys): "
                                     "launch details and counters are off, durations come from activity "
                                     "records where CUPTI allows; run roofcheck outside the other tool");
    else
      diagnostics_.warn("subscribe", "cuptiSubscribe failed: " + Diagnostics::cuptiError(subscribed) +
                                         ": launch details and counters are off");
    return false;
  }
  bool ok = true;
  for (CUpti_CallbackId id : launchCallbackIds)
    ok &= diagnostics_.cupti(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id),
                             "cuptiEnableCallback(driver launch)");
  ok &= diagnostics_.cupti(
      cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED),
      "cuptiEnableCallback(context created)");
  ok &= diagnostics_.cupti(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                                               CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING),
                           "cuptiEnableCallback(context destroyed)");
  ok &= diagnostics_.cupti(
      cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED),
      "cuptiEnableCallback(module loaded)");
  for (CUpti_CallbackId id : nvtxCallbacks)
    diagnostics_.cupti(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_NVTX, id), "cuptiEnableCallback(NVTX)");
  return ok;
}

void CUPTIAPI CuptiCallbacks::dispatch(void *self, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                       const void *data) {
  if (inForkedChild())
    return; // the parent's shim state, locks included, is not this process's to use
  auto *callbacks = static_cast<CuptiCallbacks *>(self);
  switch (domain) {
  case CUPTI_CB_DOMAIN_DRIVER_API:
    callbacks->onDriverApi(id, *static_cast<const CUpti_CallbackData *>(data));
    break;
  case CUPTI_CB_DOMAIN_RESOURCE: {
    const auto *resource = static_cast<const CUpti_ResourceData *>(data);
    if (id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
      callbacks->sink_.onContextCreated(resource->context);
    else if (id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
      callbacks->sink_.onContextDestroying(resource->context);
    else if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
      const auto *module = static_cast<const CUpti_ModuleResourceData *>(resource->resourceDescriptor);
      if (module && module->pCubin)
        callbacks->sink_.onModuleLoaded(reinterpret_cast<const uint8_t *>(module->pCubin), module->cubinSize);
    }
    break;
  }
  case CUPTI_CB_DOMAIN_NVTX:
    callbacks->onNvtx(id, *static_cast<const CUpti_NvtxData *>(data));
    break;
  default:
    break;
  }
}

void CuptiCallbacks::onDriverApi(CUpti_CallbackId id, const CUpti_CallbackData &data) {
  LaunchCall call;
  call.entering = data.callbackSite == CUPTI_API_ENTER;
  call.symbolName = data.symbolName;
  call.context = data.context;
  call.contextUid = data.contextUid;
  call.correlationId = data.correlationId;
  call.perThreadStream = id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
                         id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
                         id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
  switch (id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    classicLaunch(call, static_cast<const cuLaunchKernel_params *>(data.functionParams));
    call.extra = static_cast<const cuLaunchKernel_params *>(data.functionParams)->extra;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    classicLaunch(call, static_cast<const cuLaunchKernel_ptsz_params *>(data.functionParams));
    call.extra = static_cast<const cuLaunchKernel_ptsz_params *>(data.functionParams)->extra;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    classicLaunch(call, static_cast<const cuLaunchCooperativeKernel_params *>(data.functionParams));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    classicLaunch(call, static_cast<const cuLaunchCooperativeKernel_ptsz_params *>(data.functionParams));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    exLaunch(call, static_cast<const cuLaunchKernelEx_params *>(data.functionParams));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    exLaunch(call, static_cast<const cuLaunchKernelEx_ptsz_params *>(data.functionParams));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
  case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
    call.graph = true;
    break;
  default:
    return;
  }
  sink_.onLaunch(call);
}

void CuptiCallbacks::onNvtx(CUpti_CallbackId id, const CUpti_NvtxData &data) {
  switch (id) {
  case CUPTI_CBID_NVTX_nvtxRangePushA: {
    const auto *p = static_cast<const nvtxRangePushA_params *>(data.functionParams);
    sink_.onNvtxPush(p ? p->message : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePushEx: {
    const auto *p = static_cast<const nvtxRangePushEx_params *>(data.functionParams);
    sink_.onNvtxPush(p ? asciiMessage(p->eventAttrib) : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
    const auto *p = static_cast<const nvtxDomainRangePushEx_params *>(data.functionParams);
    sink_.onNvtxPush(p ? asciiMessage(p->core.eventAttrib) : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePop:
  case CUPTI_CBID_NVTX_nvtxDomainRangePop:
    sink_.onNvtxPop();
    break;
  case CUPTI_CBID_NVTX_nvtxRangeStartA: {
    const auto *p = static_cast<const nvtxRangeStartA_params *>(data.functionParams);
    sink_.onNvtxStart(rangeId(data), p ? p->message : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangeStartEx: {
    const auto *p = static_cast<const nvtxRangeStartEx_params *>(data.functionParams);
    sink_.onNvtxStart(rangeId(data), p ? asciiMessage(p->eventAttrib) : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
    const auto *p = static_cast<const nvtxDomainRangeStartEx_params *>(data.functionParams);
    sink_.onNvtxStart(rangeId(data), p ? asciiMessage(p->core.eventAttrib) : nullptr);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangeEnd: {
    const auto *p = static_cast<const nvtxRangeEnd_params *>(data.functionParams);
    if (p)
      sink_.onNvtxEnd(p->id);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxDomainRangeEnd: {
    const auto *p = static_cast<const nvtxDomainRangeEnd_params *>(data.functionParams);
    if (p)
      sink_.onNvtxEnd(p->core.id);
    break;
  }
  default:
    break;
  }
}

} // namespace roofcheck::runtime
