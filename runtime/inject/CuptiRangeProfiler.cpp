#include "CuptiRangeProfiler.h"

namespace roofcheck::runtime {

bool CuptiRangeProfiler::enable(CUcontext context, ContextState &state) {
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context;
  diagnostics_.trace("cuptiRangeProfilerEnable");
  CUptiResult result = cuptiRangeProfilerEnable(&enable);
  if (result != CUPTI_SUCCESS) {
    state.broken = true;
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
      unavailable_ = true;
      diagnostics_.warn("privileges", "counters are off: no permission to read GPU performance counters "
                                      "(run as root, or load the nvidia module with "
                                      "NVreg_RestrictProfilingToAdminUsers=0); durations continue");
    } else if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || result == CUPTI_ERROR_NOT_COMPATIBLE) {
      unavailable_ = true;
      diagnostics_.warn("profiler-busy", "counters are off: another profiler holds the GPU counters (" +
                                             Diagnostics::cuptiError(result) + "); durations continue");
    } else {
      diagnostics_.warn("profiler-enable", "counters are off for a context: cuptiRangeProfilerEnable failed: " +
                                               Diagnostics::cuptiError(result) + "; durations continue");
    }
    return false;
  }
  state.object = enable.pRangeProfilerObject;
  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = state.object;
  size.pMetricNames = const_cast<const char **>(state.host->metricNames().data());
  size.numMetrics = state.host->metricNames().size();
  size.maxNumOfRanges = rangesPerImage;
  size.maxNumRangeTreeNodes = rangesPerImage;
  if (!diagnostics_.cupti(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize")) {
    state.broken = true;
    return false;
  }
  state.counterData.assign(size.counterDataSize, 0);
  return true;
}

// The image holds rangesPerImage ranges, one a profiled launch; when it is full it starts afresh.
bool CuptiRangeProfiler::configure(ContextState &state) {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = state.object;
  init.counterDataSize = state.counterData.size();
  init.pCounterData = state.counterData.data();
  diagnostics_.trace("cuptiRangeProfilerCounterDataImageInitialize, SetConfig");
  if (!diagnostics_.cupti(cuptiRangeProfilerCounterDataImageInitialize(&init),
                          "cuptiRangeProfilerCounterDataImageInitialize"))
    return false;
  CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  config.pRangeProfilerObject = state.object;
  config.configSize = state.host->configImage().size();
  config.pConfig = state.host->configImage().data();
  config.counterDataImageSize = state.counterData.size();
  config.pCounterDataImage = state.counterData.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (!diagnostics_.cupti(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig"))
    return false;
  state.configured = true;
  state.rangesHeld = 0;
  return true;
}

bool CuptiRangeProfiler::begin(CUcontext context, int device, CuptiProfilerHost &host) {
  if (unavailable_ || !host.configured())
    return false;
  std::lock_guard<std::mutex> lock(mutex_);
  ContextState &state = contexts_[context];
  if (state.broken || state.active || !vacate(context, device))
    return false;
  if (state.object && state.host != &host) {
    // An object keeps the configuration it was first set up with: counter data initialised for another one
    // fails (CUPTI_ERROR_UNKNOWN, CUPTI 13.0 on the H200), so another counter set takes a fresh object.
    if (!disable(state)) {
      state.broken = true;
      return false;
    }
    state = ContextState{};
  }
  if (!state.object) {
    state.device = device;
    state.host = &host;
    if (!enable(context, state))
      return false;
  }
  if ((!state.configured || state.rangesHeld >= rangesPerImage) && !configure(state)) {
    state.broken = true;
    return false;
  }
  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = state.object;
  diagnostics_.trace("cuptiRangeProfilerStart");
  CUptiResult started = cuptiRangeProfilerStart(&start);
  if (started == CUPTI_ERROR_HARDWARE_BUSY) {
    diagnostics_.warn("busy", "some launches have no counters: the GPU's performance counters were in use by "
                              "another process (profile one process at a time); durations continue");
    return false;
  }
  if (!diagnostics_.cupti(started, "cuptiRangeProfilerStart"))
    return false;
  state.active = true;
  return true;
}

std::optional<std::map<std::string, double>> CuptiRangeProfiler::end(CUcontext context) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = contexts_.find(context);
  if (it == contexts_.end() || !it->second.object)
    return std::nullopt;
  ContextState &state = it->second;
  state.active = false;
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = state.object;
  diagnostics_.trace("cuptiRangeProfilerStop");
  if (!diagnostics_.cupti(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop"))
    return std::nullopt;
  // Counters of a launch replayed short of its passes are partly zero: the launch keeps its duration only.
  if (!stop.isAllPassSubmitted) {
    diagnostics_.warn("passes", "kernel replay did not submit every pass of a profiled launch: its counters are "
                                "left out, as they would be partial");
    return std::nullopt;
  }
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = state.object;
  diagnostics_.trace("cuptiRangeProfilerDecodeData");
  if (!diagnostics_.cupti(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData"))
    return std::nullopt;
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = state.counterData.data();
  info.counterDataImageSize = state.counterData.size();
  if (!diagnostics_.cupti(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo") ||
      info.numTotalRanges == 0)
    return std::nullopt;
  state.rangesHeld = info.numTotalRanges;
  // The newest range left would then be an earlier launch's: none is this launch's.
  if (decode.numOfRangeDropped > 0) {
    diagnostics_.warn("ranges-dropped", "the range profiler dropped a range (another launch ran on the context "
                                        "while one was profiled): those counters are lost");
    return std::nullopt;
  }
  // The newest range is this launch's, whether decoding appends ranges or starts the image over.
  diagnostics_.trace("cuptiProfilerHostEvaluateToGpuValues");
  return state.host->evaluate(state.counterData, info.numTotalRanges - 1);
}

void CuptiRangeProfiler::release(CUcontext context) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = contexts_.find(context);
  if (it == contexts_.end())
    return;
  if (it->second.object)
    disable(it->second);
  contexts_.erase(it);
}

bool CuptiRangeProfiler::vacate(CUcontext context, int device) {
  for (auto &[other, state] : contexts_) {
    if (other == context || !state.object || state.device != device)
      continue;
    if (state.active || !disable(state))
      return false;
    state = ContextState{}; // enabled afresh at its next profiled launch
  }
  return true;
}

bool CuptiRangeProfiler::disable(ContextState &state) {
  CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = state.object;
  diagnostics_.trace("cuptiRangeProfilerDisable");
  return diagnostics_.cupti(cuptiRangeProfilerDisable(&params), "cuptiRangeProfilerDisable");
}

} // namespace roofcheck::runtime
