// What PM sampling's decoding costs, call by call, and whether making blank again only the part of the
// counter data image a decode wrote is enough (docs/benchmarks.md, "PM sampling's decoder"). Samples
// dram__bytes_read.sum and dram__bytes_write.sum every 10 us into a 64 MiB hardware buffer while device-to-device
// copies of 256 MiB run for SECONDS (default 1.5), decoding every PERIOD_MS into an image of MAX_SAMPLES; the
// image is made blank again before each decode: whole (a copy of the blank image), prefix (the header, the
// completed samples and one more, then compared with the whole blank image), init
// (cuptiPmSamplingCounterDataImageInitialize), or layout (whole, printing which bytes the first decodes changed). Prints the time a sample of each call, the samples
// lost, and the bytes counted against the copies' (each copy reads and writes its size).
// build: g++ -std=c++17 -O2 -I$CUDA/include bench/pm-decode-cost.cpp -L$CUDA/lib64 -lcupti -lcuda -lpthread
// usage: pm-decode-cost whole|prefix|init|layout MAX_SAMPLES PERIOD_MS [SECONDS]   (needs a GPU; root where
// the driver restricts profiling). Exit 2 with one line on bad arguments, 1 where a CUDA or CUPTI call fails.
#include <cuda.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
using clk = std::chrono::steady_clock;
static double us(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
#define CK(x) do { int r_ = (x); if (r_) { std::fprintf(stderr, "pm-decode-cost: %s returned %d\n", #x, r_); std::exit(1); } } while (0)
// A whole argument as a number of at least least; -1 where it is not.
static double number(const char *text, double least) {
  char *end = nullptr;
  double value = std::strtod(text, &end);
  return end != text && *end == '\0' && value >= least ? value : -1;
}
int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: pm-decode-cost whole|prefix|init|layout MAX_SAMPLES PERIOD_MS [SECONDS]\n");
    return 2;
  }
  std::string mode = argv[1];
  if (mode != "whole" && mode != "prefix" && mode != "init" && mode != "layout") {
    std::fprintf(stderr, "pm-decode-cost: unknown way '%s' (whole, prefix, init or layout)\n", mode.c_str());
    return 2;
  }
  double samplesArg = number(argv[2], 2), periodArg = number(argv[3], 0), seconds = argc > 4 ? number(argv[4], 0.001) : 1.5;
  if (samplesArg < 0 || samplesArg > 1e6 || periodArg < 0 || seconds < 0) {
    std::fprintf(stderr, "pm-decode-cost: MAX_SAMPLES must be 2 to 1000000, PERIOD_MS 0 or more, SECONDS more than 0\n");
    return 2;
  }
  uint32_t maxSamples = static_cast<uint32_t>(samplesArg);
  int periodMs = static_cast<int>(periodArg);
  CK(cuInit(0));
  CUdevice dev; CK(cuDeviceGet(&dev, 0));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CUpti_Profiler_Initialize_Params pi{CUpti_Profiler_Initialize_Params_STRUCT_SIZE}; CK(cuptiProfilerInitialize(&pi));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE}; CK(cuptiDeviceGetChipName(&chip));
  CUpti_PmSampling_GetCounterAvailability_Params av{CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
  CK(cuptiPmSamplingGetCounterAvailability(&av));
  std::vector<uint8_t> avail(av.counterAvailabilityImageSize); av.pCounterAvailabilityImage = avail.data();
  CK(cuptiPmSamplingGetCounterAvailability(&av));
  CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hi.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING; hi.pChipName = chip.pChipName; hi.pCounterAvailabilityImage = avail.data();
  CK(cuptiProfilerHostInitialize(&hi));
  const char *metrics[] = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = hi.pHostObject; add.ppMetricNames = metrics; add.numMetrics = 2; CK(cuptiProfilerHostConfigAddMetrics(&add));
  CUpti_Profiler_Host_GetConfigImageSize_Params cs{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  cs.pHostObject = hi.pHostObject; CK(cuptiProfilerHostGetConfigImageSize(&cs));
  std::vector<uint8_t> config(cs.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params gc{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  gc.pHostObject = hi.pHostObject; gc.configImageSize = config.size(); gc.pConfigImage = config.data(); CK(cuptiProfilerHostGetConfigImage(&gc));
  CUpti_PmSampling_Enable_Params en{CUpti_PmSampling_Enable_Params_STRUCT_SIZE}; en.deviceIndex = 0; CK(cuptiPmSamplingEnable(&en));
  auto obj = en.pPmSamplingObject;
  CUpti_PmSampling_SetConfig_Params sc{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
  sc.pPmSamplingObject = obj; sc.configSize = config.size(); sc.pConfig = config.data();
  sc.hardwareBufferSize = size_t(64) << 20; sc.samplingInterval = 10000;
  sc.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  sc.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  CK(cuptiPmSamplingSetConfig(&sc));
  auto sizeFor = [&](size_t n) {
    CUpti_PmSampling_GetCounterDataSize_Params sz{CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    sz.pPmSamplingObject = obj; sz.pMetricNames = metrics; sz.numMetrics = 2; sz.maxSamples = n;
    CK(cuptiPmSamplingGetCounterDataSize(&sz)); return sz.counterDataSize; };
  size_t s1 = sizeFor(1), s2 = sizeFor(2), sN = sizeFor(maxSamples);
  size_t per = s2 - s1, head = s1 - per;
  std::printf("image sizes: 1 -> %zu, 2 -> %zu, %u -> %zu (head %zu + %zu a sample; linear: %s)\n", s1, s2, maxSamples, sN,
              head, per, head + per * maxSamples == sN ? "yes" : "no");
  std::vector<uint8_t> image(sN);
  CUpti_PmSampling_CounterDataImage_Initialize_Params ci{CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  ci.pPmSamplingObject = obj; ci.counterDataSize = image.size(); ci.pCounterData = image.data();
  auto t = clk::now(); CK(cuptiPmSamplingCounterDataImageInitialize(&ci)); double initUs = us(t, clk::now());
  std::vector<uint8_t> blank = image;
  size_t nonzero = 0, lastNonzero = 0; for (size_t i = 0; i < blank.size(); ++i) if (blank[i]) { ++nonzero; lastNonzero = i; }
  size_t slotMismatch = 0;
  for (size_t i = 1; i < maxSamples; ++i)
    for (size_t k = 0; k < per; ++k) if (blank[head + i * per + k] != blank[head + k]) ++slotMismatch;
  std::printf("blank sample slots identical to the first: %s (%zu bytes differ)\n", slotMismatch ? "no" : "yes", slotMismatch);
  std::printf("initialise %zu bytes: %.0f us; %zu nonzero bytes in the blank image, last at %zu\n", image.size(), initUs, nonzero, lastNonzero);

  // Load: 256 MiB copies on a stream, for `seconds`.
  size_t bytes = size_t(256) << 20;
  CUdeviceptr a, b; CK(cuMemAlloc(&a, bytes)); CK(cuMemAlloc(&b, bytes));
  CUstream stream; CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUpti_PmSampling_Start_Params st{CUpti_PmSampling_Start_Params_STRUCT_SIZE}; st.pPmSamplingObject = obj; CK(cuptiPmSamplingStart(&st));
  std::atomic<bool> loadDone{false};
  std::atomic<long> copies{0};
  std::thread load([&] {
    CK(cuCtxSetCurrent(ctx));
    auto end = clk::now() + std::chrono::duration<double>(seconds);
    while (clk::now() < end) { for (int i = 0; i < 8; ++i) { CK(cuMemcpyDtoDAsync(b, a, bytes, stream)); ++copies; } CK(cuStreamSynchronize(stream)); }
    loadDone = true;
  });
  double tReset = 0, tDecode = 0, tInfo = 0, tSample = 0, tEval = 0;
  size_t samples = 0, decodes = 0, most = 0, full = 0, overflow = 0, gaps = 0, badRestore = 0;
  double readSum = 0, writeSum = 0; uint64_t lastEnd = 0, missing = 0;
  int layoutPrinted = 0; bool stopped = false;
  std::vector<double> values(2);
  for (;;) {
    if (loadDone && !stopped) { CUpti_PmSampling_Stop_Params sp{CUpti_PmSampling_Stop_Params_STRUCT_SIZE}; sp.pPmSamplingObject = obj; CK(cuptiPmSamplingStop(&sp)); stopped = true; }
    auto t0 = clk::now();
    CUpti_PmSampling_DecodeData_Params dd{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
    dd.pPmSamplingObject = obj; dd.pCounterDataImage = image.data(); dd.counterDataImageSize = image.size();
    CK(cuptiPmSamplingDecodeData(&dd));
    auto t1 = clk::now();
    CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = image.data(); info.counterDataImageSize = image.size(); CK(cuptiPmSamplingGetCounterDataInfo(&info));
    auto t2 = clk::now();
    tDecode += us(t0, t1); tInfo += us(t1, t2); ++decodes;
    size_t n = info.numCompletedSamples; most = std::max(most, n); samples += n;
    if (dd.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) ++full;
    if (dd.overflow) ++overflow;
    for (size_t i = 0; i < n; ++i) {
      auto a0 = clk::now();
      CUpti_PmSampling_CounterData_GetSampleInfo_Params si{CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
      si.pPmSamplingObject = obj; si.pCounterDataImage = image.data(); si.counterDataImageSize = image.size(); si.sampleIndex = i;
      CK(cuptiPmSamplingCounterDataGetSampleInfo(&si));
      auto a1 = clk::now();
      CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
      ev.pHostObject = hi.pHostObject; ev.pCounterDataImage = image.data(); ev.counterDataImageSize = image.size();
      ev.rangeIndex = i; ev.ppMetricNames = metrics; ev.numMetrics = 2; ev.pMetricValues = values.data();
      CK(cuptiProfilerHostEvaluateToGpuValues(&ev));
      auto a2 = clk::now();
      tSample += us(a0, a1); tEval += us(a1, a2);
      if (lastEnd && si.startTimestamp > lastEnd) { ++gaps; missing += si.startTimestamp - lastEnd; }
      lastEnd = std::max(lastEnd, (uint64_t)si.endTimestamp);
      readSum += values[0]; writeSum += values[1];
    }
    if (mode == "layout" && n && layoutPrinted < 6) {
      size_t first = SIZE_MAX, last = 0, count = 0;
      for (size_t i = 0; i < image.size(); ++i) if (image[i] != blank[i]) { first = std::min(first, i); last = i; ++count; }
      std::printf("layout: %zu samples decoded; %zu bytes differ from blank, offsets %zu..%zu; head+n*per = %zu\n", n, count, first, last, head + n * per);
      ++layoutPrinted;
    }
    auto r0 = clk::now();
    if (mode == "init") { CK(cuptiPmSamplingCounterDataImageInitialize(&ci)); }
    else if (mode == "prefix") { size_t upto = std::min(image.size(), head + (n + 1) * per); std::memcpy(image.data(), blank.data(), upto); }
    else std::memcpy(image.data(), blank.data(), image.size());
    auto r1 = clk::now(); tReset += us(r0, r1);
    if (mode == "prefix" && std::memcmp(image.data(), blank.data(), image.size()) != 0) ++badRestore;
    if (stopped && dd.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS && n == 0) break;
    if (!stopped || n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(periodMs));
  }
  load.join();
  double expected = double(copies) * bytes;
  std::printf("%s %u/%dms: %zu samples in %zu decodes (most %zu, full %zu, overflow %zu, gaps %zu = %.2f ms), bad restores %zu\n",
              mode.c_str(), maxSamples, periodMs, samples, decodes, most, full, overflow, gaps, missing / 1e6, badRestore);
  std::printf("  us a sample: decode %.2f, info %.3f, sample info %.2f, evaluate %.2f, reset %.2f; total %.2f\n",
              tDecode / samples, tInfo / samples, tSample / samples, tEval / samples, tReset / samples,
              (tDecode + tInfo + tSample + tEval + tReset) / samples);
  std::printf("  per decode: decode %.0f us, reset %.0f us\n", tDecode / decodes, tReset / decodes);
  std::printf("  bytes: read %.4g, write %.4g, copies' %.4g each (ratio %.4f / %.4f)\n", readSum, writeSum, expected,
              readSum / expected, writeSum / expected);
  CUpti_PmSampling_Disable_Params dis{CUpti_PmSampling_Disable_Params_STRUCT_SIZE}; dis.pPmSamplingObject = obj; cuptiPmSamplingDisable(&dis);
}
