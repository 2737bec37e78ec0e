#include "CuptiPmSampling.h"

#include <algorithm>
#include <string>
#include <utility>

namespace roofcheck::runtime {

CuptiPmSampling::~CuptiPmSampling() {
  evaluator_.reset();
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
  if (!host_.configure(chip, availability, metrics, CuptiProfilerHost::TensorMetrics::None))
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
  evaluator_.reset(); // it may read the images
  layout_ = PmCounterDataLayout::fromSizes(*one, *two, maxSamples, *all);
  std::vector<uint8_t> blank(*all, 0);
  CUpti_PmSampling_CounterDataImage_Initialize_Params init{
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pPmSamplingObject = object_;
  init.counterDataSize = blank.size();
  init.pCounterData = blank.data();
  if (!diagnostics_.cupti(cuptiPmSamplingCounterDataImageInitialize(&init),
                          "cuptiPmSamplingCounterDataImageInitialize"))
    return false;
  blank_ = PmBlankImage(std::move(blank), layout_);
  diagnostics_.trace(std::string("PM sampling: decode images of ") + std::to_string(maxSamples) + " samples, " +
                     std::to_string(*all) + " bytes each; blank image kept " +
                     (blank_.compact() ? "as its header and one sample" : "whole"));
  for (std::vector<uint8_t> &image : counterData_) {
    image.resize(*all);
    blank_.restore(image, *all);
  }
  writtenBytes_ = {};
  evaluator_ = std::make_unique<PmSampleEvaluator>(
      [this](const std::vector<uint8_t> &image, size_t sample) { return host_.evaluate(image, sample); });
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

CuptiPmSampling::Drained CuptiPmSampling::drain(std::chrono::steady_clock::time_point until, uint64_t enough,
                                                bool pipelined) {
  Drained drained;
  bool waiting = true;
  while (waiting && lastSampleEnd_ < enough && std::chrono::steady_clock::now() < until)
    waiting = decode(drained);
  drained.more = waiting;
  if (evaluator_)
    drained.samples = evaluator_->take(!pipelined);
  return drained;
}

bool CuptiPmSampling::decode(Drained &drained) {
  // Every decode goes into a fresh image and all its completed samples are taken: decoding again into an
  // image that already holds samples gave zero-valued samples after the first drain on the H200. A decode
  // that fills the image loses the records it had read past it (gaps of 0.06-12 ms on the H200,
  // docs/benchmarks.md): the image is made larger than what one decode normally finds waiting.
  if (!object_ || !evaluator_)
    return false;
  size_t image = nextImage_;
  std::vector<uint8_t> &counterData = counterData_[image];
  evaluator_->release(counterData);
  blankCounterData(image);
  writtenBytes_[image] = counterData.size(); // until the decode says how much of it holds samples
  CUpti_PmSampling_DecodeData_Params decode{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
  decode.pPmSamplingObject = object_;
  decode.pCounterDataImage = counterData.data();
  decode.counterDataImageSize = counterData.size();
  if (!diagnostics_.cupti(cuptiPmSamplingDecodeData(&decode), "cuptiPmSamplingDecodeData"))
    return false;
  if (decode.overflow)
    drained.overflow = true;
  CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  if (!diagnostics_.cupti(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo"))
    return false;
  std::vector<PmSample> times;
  times.reserve(info.numCompletedSamples);
  for (size_t i = 0; i < info.numCompletedSamples; ++i) {
    CUpti_PmSampling_CounterData_GetSampleInfo_Params sample{
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
    sample.pPmSamplingObject = object_;
    sample.pCounterDataImage = counterData.data();
    sample.counterDataImageSize = counterData.size();
    sample.sampleIndex = i;
    if (!diagnostics_.cupti(cuptiPmSamplingCounterDataGetSampleInfo(&sample),
                            "cuptiPmSamplingCounterDataGetSampleInfo"))
      break; // the samples before it are still evaluated
    if (lastSampleEnd_ != 0 && sample.startTimestamp > lastSampleEnd_)
      missingNs_ += sample.startTimestamp - lastSampleEnd_;
    lastSampleEnd_ = std::max(lastSampleEnd_, sample.endTimestamp);
    times.push_back({sample.startTimestamp, sample.endTimestamp, {}});
  }
  // Samples begun and not completed are written too.
  writtenBytes_[image] = layout_.writtenBytes(std::max(info.numPopulatedSamples, info.numCompletedSamples),
                                              counterData.size());
  bool full = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
  if (full)
    diagnostics_.trace("PM sampling: a decode filled its image of " + std::to_string(info.numCompletedSamples) +
                       " samples: those read past it are lost");
  bool complete = times.size() == info.numCompletedSamples;
  drained.decoded += times.size();
  evaluator_->evaluate(counterData, std::move(times));
  nextImage_ = 1 - image;
  return complete && full;
}

void CuptiPmSampling::blankCounterData(size_t image) {
  // Copying all of a 10,000-sample image before each decode cost 1.3-2.2 us a sample, the written part 0.8
  // (H100, docs/benchmarks.md). That part is checked once against the whole blank image, after the first
  // decode that found samples.
  std::vector<uint8_t> &counterData = counterData_[image];
  size_t written = writtenBytes_[image];
  blank_.restore(counterData, written);
  if (layoutChecked_ || !layout_.known() || written <= layout_.headerBytes + layout_.sampleBytes ||
      written == counterData.size())
    return;
  layoutChecked_ = true;
  if (!blank_.matches(counterData)) {
    diagnostics_.trace("PM sampling: a decode wrote past the samples it decoded: the whole image is made blank "
                       "before each decode");
    layout_ = {};
    blank_.restore(counterData, counterData.size());
  }
}

} // namespace roofcheck::runtime
