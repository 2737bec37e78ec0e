#include "CuptiPmSampling.h"

#include <algorithm>

namespace roofcheck::runtime {

CuptiPmSampling::~CuptiPmSampling() {
  if (!object_)
    return;
  if (started_)
    stop();
  CUpti_PmSampling_Disable_Params disable{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
  disable.pPmSamplingObject = object_;
  diagnostics_.cupti(cuptiPmSamplingDisable(&disable), "cuptiPmSamplingDisable");
}

bool CuptiPmSampling::configure(int device, const std::string &chip, const std::vector<std::string> &metrics,
                                bool askAvailability) {
  // The counters PM sampling can read on this device: asked size first, then the image.
  std::vector<uint8_t> availability;
  if (askAvailability) {
    CUpti_PmSampling_GetCounterAvailability_Params available{
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
    available.deviceIndex = static_cast<size_t>(device);
    if (!diagnostics_.cupti(cuptiPmSamplingGetCounterAvailability(&available),
                            "cuptiPmSamplingGetCounterAvailability"))
      return false;
    availability.resize(available.counterAvailabilityImageSize);
    available.pCounterAvailabilityImage = availability.data();
    if (!diagnostics_.cupti(cuptiPmSamplingGetCounterAvailability(&available),
                            "cuptiPmSamplingGetCounterAvailability"))
      return false;
  }
  if (!host_.configure(chip, availability, metrics, /*addTensorMetrics=*/false))
    return false;
  diagnostics_.trace("PM sampling: configuration made for device " + std::to_string(device));
  return true;
}

bool CuptiPmSampling::enable(int device, uint64_t intervalNs, size_t hardwareBufferBytes) {
  CUpti_PmSampling_Enable_Params enable{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
  enable.deviceIndex = static_cast<size_t>(device);
  if (!diagnostics_.cupti(cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable"))
    return false;
  object_ = enable.pPmSamplingObject;
  diagnostics_.trace("PM sampling: enabled");

  CUpti_PmSampling_SetConfig_Params config{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
  config.pPmSamplingObject = object_;
  config.configSize = host_.configImage().size();
  config.pConfig = host_.configImage().data();
  config.hardwareBufferSize = hardwareBufferBytes;
  config.samplingInterval = intervalNs;
  config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  // Keeping the oldest records, a full buffer says so (overflow) instead of losing the start silently.
  config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  if (!diagnostics_.cupti(cuptiPmSamplingSetConfig(&config), "cuptiPmSamplingSetConfig"))
    return false;
  diagnostics_.trace("PM sampling: configured");
  return true;
}

std::optional<size_t> CuptiPmSampling::counterDataSize(uint32_t maxSamples) {
  CUpti_PmSampling_GetCounterDataSize_Params size{CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pPmSamplingObject = object_;
  size.pMetricNames = const_cast<const char **>(host_.metricNames().data());
  size.numMetrics = host_.metricNames().size();
  size.maxSamples = maxSamples;
  if (!object_ ||
      !diagnostics_.cupti(cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize"))
    return std::nullopt;
  return size.counterDataSize;
}

bool CuptiPmSampling::makeCounterData(uint32_t maxSamples) {
  std::optional<size_t> one = counterDataSize(1), two = counterDataSize(2), all = counterDataSize(maxSamples);
  if (!one || !two || !all)
    return false;
  layout_ = PmCounterDataLayout::fromSizes(*one, *two, maxSamples, *all);
  counterData_.assign(*all, 0);
  CUpti_PmSampling_CounterDataImage_Initialize_Params init{
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pPmSamplingObject = object_;
  init.counterDataSize = counterData_.size();
  init.pCounterData = counterData_.data();
  if (!diagnostics_.cupti(cuptiPmSamplingCounterDataImageInitialize(&init),
                          "cuptiPmSamplingCounterDataImageInitialize"))
    return false;
  blankCounterData_ = counterData_;
  writtenBytes_ = 0;
  return true;
}

bool CuptiPmSampling::start() {
  if (!object_)
    return false;
  CUpti_PmSampling_Start_Params start{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
  start.pPmSamplingObject = object_;
  started_ = object_ && diagnostics_.cupti(cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
  return started_;
}

bool CuptiPmSampling::stop() {
  CUpti_PmSampling_Stop_Params stop{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
  stop.pPmSamplingObject = object_;
  started_ = false;
  return object_ && diagnostics_.cupti(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop");
}

std::vector<PmSample> CuptiPmSampling::drain(bool *overflow, bool *more, std::chrono::steady_clock::time_point until,
                                             uint64_t enough) {
  std::vector<PmSample> samples;
  bool waiting = true;
  while (waiting && lastSampleEnd_ < enough && std::chrono::steady_clock::now() < until)
    waiting = decode(samples, overflow);
  if (more)
    *more = waiting;
  return samples;
}

bool CuptiPmSampling::decode(std::vector<PmSample> &samples, bool *overflow) {
  // Every decode goes into a fresh image and all its completed samples are taken: decoding again into an
  // image that already holds samples gave zero-valued samples after the first drain on the H200. A decode
  // that fills the image loses the records it had read past it (gaps of 0.06-12 ms on the H200,
  // docs/benchmarks.md): the image is made larger than what one decode normally finds waiting.
  if (!object_ || blankCounterData_.empty())
    return false;
  blankCounterData();
  writtenBytes_ = counterData_.size(); // until the decode says how much of it holds samples
  CUpti_PmSampling_DecodeData_Params decode{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
  decode.pPmSamplingObject = object_;
  decode.pCounterDataImage = counterData_.data();
  decode.counterDataImageSize = counterData_.size();
  if (!diagnostics_.cupti(cuptiPmSamplingDecodeData(&decode), "cuptiPmSamplingDecodeData"))
    return false;
  if (decode.overflow)
    *overflow = true;
  CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counterData_.data();
  info.counterDataImageSize = counterData_.size();
  if (!diagnostics_.cupti(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo"))
    return false;
  for (size_t i = 0; i < info.numCompletedSamples; ++i) {
    CUpti_PmSampling_CounterData_GetSampleInfo_Params sample{
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
    sample.pPmSamplingObject = object_;
    sample.pCounterDataImage = counterData_.data();
    sample.counterDataImageSize = counterData_.size();
    sample.sampleIndex = i;
    if (!diagnostics_.cupti(cuptiPmSamplingCounterDataGetSampleInfo(&sample),
                            "cuptiPmSamplingCounterDataGetSampleInfo"))
      return false;
    if (lastSampleEnd_ != 0 && sample.startTimestamp > lastSampleEnd_)
      missingNs_ += sample.startTimestamp - lastSampleEnd_;
    lastSampleEnd_ = std::max(lastSampleEnd_, sample.endTimestamp);
    std::optional<std::map<std::string, double>> values = host_.evaluate(counterData_, i);
    if (values)
      samples.push_back({sample.startTimestamp, sample.endTimestamp, std::move(*values)});
  }
  // Samples begun and not completed are written too.
  writtenBytes_ = layout_.writtenBytes(std::max(info.numPopulatedSamples, info.numCompletedSamples),
                                       counterData_.size());
  bool full = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
  if (full)
    diagnostics_.trace("PM sampling: a decode filled its image of " + std::to_string(info.numCompletedSamples) +
                       " samples: those read past it are lost");
  return full;
}

void CuptiPmSampling::blankCounterData() {
  // Copying all of a 10,000-sample image before each decode cost 1.3-2.2 us a sample, the written part 0.8
  // (H100, docs/benchmarks.md). That part is checked once against the whole blank image, after the first
  // decode that found samples.
  std::copy(blankCounterData_.begin(), blankCounterData_.begin() + writtenBytes_, counterData_.begin());
  if (layoutChecked_ || !layout_.known() || writtenBytes_ <= layout_.headerBytes + layout_.sampleBytes ||
      writtenBytes_ == counterData_.size())
    return;
  layoutChecked_ = true;
  if (!std::equal(counterData_.begin(), counterData_.end(), blankCounterData_.begin())) {
    diagnostics_.trace("PM sampling: a decode wrote past the samples it decoded: the whole image is made blank "
                       "before each decode");
    layout_ = {};
    std::copy(blankCounterData_.begin(), blankCounterData_.end(), counterData_.begin());
  }
}

} // namespace roofcheck::runtime
