#include "CuptiProfilerHost.h"

#include "roofcheck/Metrics.h"

#include <cmath>

namespace roofcheck::runtime {

CuptiProfilerHost::~CuptiProfilerHost() {
  if (host_) {
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&p);
  }
}

bool CuptiProfilerHost::knowsChip(const std::string &chip) {
  CUpti_Profiler_Host_GetSupportedChips_Params p{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  if (cuptiProfilerHostGetSupportedChips(&p) != CUPTI_SUCCESS)
    return false;
  for (size_t i = 0; i < p.numChips; ++i)
    if (chip == p.ppChipNames[i])
      return true;
  return false;
}

bool CuptiProfilerHost::exists(const std::string &metric) {
  CUpti_Profiler_Host_GetMetricProperties_Params p{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  p.pMetricName = metric.c_str();
  return cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

std::vector<std::string> CuptiProfilerHost::tensorMetrics() {
  std::vector<std::string> found;
  CUpti_Profiler_Host_GetBaseMetrics_Params p{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  p.metricType = CUPTI_METRIC_TYPE_COUNTER;
  if (!diagnostics_.cupti(cuptiProfilerHostGetBaseMetrics(&p), "cuptiProfilerHostGetBaseMetrics"))
    return found;
  for (size_t i = 0; i < p.numMetrics; ++i) {
    std::string name = p.ppMetricNames[i];
    // The per-source totals (src_fp16, src_bf16_dst_fp32, src_tf32_dst_fp32, src_fp64, src_fp8, src_int8, ...);
    // the per-instruction and per-sparsity breakdowns would only add replay passes.
    if (name.rfind(metrics::TensorOpsPrefix, 0) == 0 && name.find("sparsity") == std::string::npos)
      found.push_back(name + ".sum");
  }
  return found;
}

bool CuptiProfilerHost::configure(const std::string &chip, const std::vector<uint8_t> &counterAvailability,
                                  const std::vector<std::string> &requested, TensorMetrics tensor) {
  chip_ = chip;
  CUpti_Profiler_Host_Initialize_Params init{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  init.profilerType = type_;
  init.pChipName = chip_.c_str();
  init.pCounterAvailabilityImage = counterAvailability.empty() ? nullptr : counterAvailability.data();
  if (!diagnostics_.cupti(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize"))
    return false;
  host_ = init.pHostObject;
  diagnostics_.trace("profiler host initialised for " + chip_);

  for (const std::string &metric : requested) {
    if (exists(metric))
      metrics_.push_back(metric);
    else
      diagnostics_.warn("metric " + metric, "metric '" + metric + "' does not exist on " + chip_ +
                                                ": left out (see `ncu --query-metrics` for the names)");
  }
  if (tensor == TensorMetrics::OpsPerType)
    for (const std::string &metric : tensorMetrics())
      if (exists(metric))
        metrics_.push_back(metric);
  // After the op totals: before them, CUPTI 13.0 schedules GH100's full set in 9 passes instead of 8.
  if (tensor != TensorMetrics::None)
    for (const char *metric : {metrics::TensorPipeInstructions, metrics::TensorPipeMoves})
      if (exists(metric))
        metrics_.push_back(metric);
  if (metrics_.empty()) {
    diagnostics_.warn("no-metrics", "none of the requested metrics exists on " + chip_ + ": counters are off");
    return false;
  }
  for (const std::string &m : metrics_)
    names_.push_back(m.c_str());

  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = host_;
  add.ppMetricNames = names_.data();
  add.numMetrics = names_.size();
  if (!diagnostics_.cupti(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics"))
    return false;
  diagnostics_.trace("profiler host: " + std::to_string(names_.size()) + " metrics added");
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = host_;
  if (!diagnostics_.cupti(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize"))
    return false;
  std::vector<uint8_t> image(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  get.pHostObject = host_;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  if (!diagnostics_.cupti(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage"))
    return false;
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = image.size();
  passes.pConfigImage = image.data();
  if (diagnostics_.cupti(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses"))
    passes_ = static_cast<int64_t>(passes.numOfPasses);
  configImage_ = std::move(image);
  return true;
}

std::optional<std::map<std::string, double>> CuptiProfilerHost::evaluate(const std::vector<uint8_t> &counterData,
                                                                        size_t range) {
  std::vector<double> values(names_.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  p.pCounterDataImage = counterData.data();
  p.counterDataImageSize = counterData.size();
  p.rangeIndex = range;
  p.ppMetricNames = const_cast<const char **>(names_.data());
  p.numMetrics = names_.size();
  p.pMetricValues = values.data();
  if (!diagnostics_.cupti(cuptiProfilerHostEvaluateToGpuValues(&p), "cuptiProfilerHostEvaluateToGpuValues"))
    return std::nullopt;
  std::map<std::string, double> result;
  for (size_t i = 0; i < metrics_.size(); ++i) {
    // CUPTI gives NaN for a metric it could not evaluate for this range: no value, so no entry (a measured
    // file holds numbers only).
    if (std::isfinite(values[i]))
      result[metrics_[i]] = values[i];
    else
      diagnostics_.warn("no value " + metrics_[i], metrics_[i] + " had no value for a profiled launch (seen on the "
                                                   "second GPU of a two-GPU run): left out of those launches' records");
  }
  return result;
}

} // namespace roofcheck::runtime
