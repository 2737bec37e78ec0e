// What each step of CUPTI's range profiler costs (kernel replay, one auto range a launch) while the process
// holds MB of device memory that the profiled kernel never touches: does the first cuptiRangeProfilerStart of
// an object (150-200 ms under the shim on BabelStream) and a replay pass (~13 ms) scale with the program's
// allocations? The same steps as the shim, timed on the host clock; then the copies that saving that memory
// would take, for comparison. usage: replay-cost MB apart|beside|warm|user-warm|overlap LAUNCHES
//   apart   the base set's object, LAUNCHES launches, disabled; then the traffic set's (the shim's change of set)
//   beside  the traffic set's object enabled while the base set's still is, and the two used in turn
//   warm    each object started and stopped once with no launch before its launches
//   user-warm  as warm, the start and stop under user ranges and replay, then set to auto ranges and kernel replay
//   overlap 2,000 launches over the held memory (queued, then each waited for), alone, then while another
//           thread enables an object (of each set in turn) and starts it empty
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(CUptiResult result, const char *call) {
  if (result == CUPTI_SUCCESS)
    return;
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "replay-cost: %s: %s\n", call, text ? text : "unknown error");
  std::exit(1);
}

void check(cudaError_t result, const char *call) {
  if (result == cudaSuccess)
    return;
  std::fprintf(stderr, "replay-cost: %s: %s\n", call, cudaGetErrorString(result));
  std::exit(1);
}

double now() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Resident host memory and device memory in use, to see where a step puts a copy of the program's memory.
long residentMb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0)
      return std::atol(line.c_str() + 6) / 1024;
  return -1;
}

long deviceUsedMb() {
  size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return static_cast<long>((total - free) >> 20);
}

__global__ void scale(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * 2.0f + 1.0f;
}

struct Config {
  std::vector<uint8_t> image;
  std::vector<const char *> metrics;
  size_t passes = 0;
};

Config makeConfig(const char *chip, std::vector<const char *> metrics) {
  CUpti_Profiler_Host_Initialize_Params init{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip;
  check(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = metrics.data();
  add.numMetrics = metrics.size();
  check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = init.pHostObject;
  check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  Config config;
  config.image.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  get.pHostObject = init.pHostObject;
  get.configImageSize = config.image.size();
  get.pConfigImage = config.image.data();
  check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config.image.size();
  passes.pConfigImage = config.image.data();
  check(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
  config.passes = passes.numOfPasses;
  config.metrics = std::move(metrics);
  CUpti_Profiler_Host_Deinitialize_Params done{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  done.pHostObject = init.pHostObject;
  check(cuptiProfilerHostDeinitialize(&done), "cuptiProfilerHostDeinitialize");
  return config;
}

// A range profiler object on the context, enabled and configured as the shim does; each profiled launch
// prints a line of its steps' times.
class ProfilerObject {
public:
  ProfilerObject(CUcontext context, const Config &config, const char *label) : label_(label) {
    double t = now();
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = context;
    check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    object_ = enable.pRangeProfilerObject;
    std::printf("%s enable %.1f ms\n", label_, now() - t);
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = object_;
    size.pMetricNames = const_cast<const char **>(config.metrics.data());
    size.numMetrics = config.metrics.size();
    size.maxNumOfRanges = 64;
    size.maxNumRangeTreeNodes = 64;
    check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    counterData_.resize(size.counterDataSize);
    configure(config, CUPTI_AutoRange, CUPTI_KernelReplay);
  }

  // A counter data image made afresh and SetConfig: on the object's first configuration, or again on an
  // enabled object (the range and replay modes changed, the configuration the same).
  void configure(const Config &config, CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay) {
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = object_;
    init.counterDataSize = counterData_.size();
    init.pCounterData = counterData_.data();
    check(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    double t = now();
    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = object_;
    set.configSize = config.image.size();
    set.pConfig = config.image.data();
    set.counterDataImageSize = counterData_.size();
    set.pCounterDataImage = counterData_.data();
    set.range = range;
    set.replayMode = replay;
    set.maxRangesPerPass = 1;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.targetNestingLevel = 1;
    check(cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
    std::printf("%s set-config %s %.1f ms (%zu passes)\n", label_,
                range == CUPTI_AutoRange ? "auto range, kernel replay" : "user range, user replay", now() - t,
                config.passes);
  }

  // Start and Stop with no launch between them: does that take the first start's cost?
  void startEmpty() {
    double t = now();
    start();
    double started = now();
    stop();
    double stopped = now();
    size_t dropped = 0;
    CUptiResult decoded = decode(dropped); // launches another thread made meanwhile, if the range took them
    const char *text = nullptr;
    cuptiGetResultString(decoded, &text);
    std::printf("%s empty start %.1f ms stop %.1f ms (decode: %s, ranges %zu)\n", label_, started - t,
                stopped - started, text ? text : "unknown", ranges());
  }

  void profile(int launch, float *data, int n) {
    long residentBefore = residentMb(), deviceBefore = deviceUsedMb();
    double t = now();
    start();
    double started = now();
    long residentStarted = residentMb(), deviceStarted = deviceUsedMb();
    double launching = now();
    scale<<<(n + 255) / 256, 256>>>(data, n);
    check(cudaGetLastError(), "launch");
    double launched = now();
    bool allPasses = stop();
    double stopped = now();
    size_t dropped = 0;
    check(decode(dropped), "cuptiRangeProfilerDecodeData");
    double decoded = now();
    std::printf("%s launch %d start %.1f ms (host %+ld MB, device %+ld MB) launch %.1f ms (host %+ld MB, "
                "device %+ld MB) stop %.1f ms decode %.1f ms all-passes %d ranges %zu dropped %zu\n",
                label_, launch, started - t, residentStarted - residentBefore, deviceStarted - deviceBefore,
                launched - launching, residentMb() - residentStarted, deviceUsedMb() - deviceStarted,
                stopped - launched, decoded - stopped, static_cast<int>(allPasses), ranges(), dropped);
  }

  ~ProfilerObject() {
    double t = now();
    CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    disable.pRangeProfilerObject = object_;
    check(cuptiRangeProfilerDisable(&disable), "cuptiRangeProfilerDisable");
    std::printf("%s disable %.1f ms\n", label_, now() - t);
  }

private:
  void start() {
    CUpti_RangeProfiler_Start_Params params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = object_;
    check(cuptiRangeProfilerStart(&params), "cuptiRangeProfilerStart");
  }

  /// Whether every pass of the range was submitted.
  bool stop() {
    CUpti_RangeProfiler_Stop_Params params{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = object_;
    check(cuptiRangeProfilerStop(&params), "cuptiRangeProfilerStop");
    return params.isAllPassSubmitted;
  }

  CUptiResult decode(size_t &dropped) {
    CUpti_RangeProfiler_DecodeData_Params params{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = object_;
    CUptiResult result = cuptiRangeProfilerDecodeData(&params);
    dropped = params.numOfRangeDropped;
    return result;
  }

  /// The ranges the counter data holds.
  size_t ranges() {
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = counterData_.data();
    info.counterDataImageSize = counterData_.size();
    check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    return info.numTotalRanges;
  }

  const char *label_;
  CUpti_RangeProfiler_Object *object_ = nullptr;
  std::vector<uint8_t> counterData_;
};

// The copies a save of the held memory would take: to pinned host memory, to pageable, on the device.
void copyCosts(void *held, size_t bytes) {
  double t = now();
  void *pinned = nullptr;
  check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
  std::printf("reference cudaMallocHost %.1f ms\n", now() - t);
  for (int round = 0; round < 2; ++round) {
    t = now();
    check(cudaMemcpy(pinned, held, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::printf("reference copy-to-pinned %.1f ms\n", now() - t);
  }
  check(cudaFreeHost(pinned), "cudaFreeHost");
  void *copy = nullptr;
  check(cudaMalloc(&copy, bytes), "cudaMalloc");
  for (int round = 0; round < 2; ++round) {
    t = now();
    check(cudaMemcpy(copy, held, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::printf("reference copy-on-device %.1f ms\n", now() - t);
  }
  check(cudaFree(copy), "cudaFree");
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc == 4 ? argv[2] : "";
  if (mode != "apart" && mode != "beside" && mode != "warm" && mode != "user-warm" &&
      mode != "overlap") {
    std::fprintf(stderr, "usage: replay-cost MB apart|beside|warm|user-warm|overlap LAUNCHES\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IONBF, 0); // every step printed before a fault in the next
  size_t heldBytes = std::strtoull(argv[1], nullptr, 10) << 20;
  int launches = std::atoi(argv[3]);
  if (launches < 1) {
    std::fprintf(stderr, "replay-cost: LAUNCHES must be 1 or more\n");
    return 2;
  }
  if (mode == "overlap" && heldBytes == 0) {
    std::fprintf(stderr, "replay-cost: overlap launches over the held memory: MB must be above 0\n");
    return 2;
  }
  check(cudaFree(nullptr), "cudaFree");
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);
  const int n = 1 << 20;
  float *data = nullptr;
  check(cudaMalloc(&data, n * sizeof(float)), "cudaMalloc");
  check(cudaMemset(data, 0, n * sizeof(float)), "cudaMemset");
  void *held = nullptr;
  if (heldBytes > 0) {
    check(cudaMalloc(&held, heldBytes), "cudaMalloc");
    check(cudaMemset(held, 1, heldBytes), "cudaMemset");
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  CUpti_Profiler_Initialize_Params profiler{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  check(cuptiProfilerInitialize(&profiler), "cuptiProfilerInitialize");
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  // The shim's traffic set, and the base set's size: it and the fp32/fp64 and tensor instruction counts.
  std::vector<const char *> traffic{"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                                    "lts__t_bytes.sum"};
  std::vector<const char *> base = traffic;
  for (const char *op : {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                         "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                         "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                         "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
                         "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
                         "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "sm__inst_executed_pipe_tensor.sum"})
    base.push_back(op);
  Config baseConfig = makeConfig(chip.pChipName, base), trafficConfig = makeConfig(chip.pChipName, traffic);
  std::printf("held %zu MB, %s, host %ld MB, device %ld MB in use\n", heldBytes >> 20, mode.c_str(), residentMb(),
              deviceUsedMb());
  auto profile = [&](ProfilerObject &object) {
    for (int launch = 0; launch < launches; ++launch)
      object.profile(launch, data, n);
  };
  if (mode == "apart") {
    // As the shim changes sets: the base set's object goes before the traffic set's comes.
    {
      ProfilerObject baseObject(context, baseConfig, "base");
      profile(baseObject);
    }
    ProfilerObject trafficObject(context, trafficConfig, "traffic");
    profile(trafficObject);
  } else if (mode == "beside") {
    ProfilerObject baseObject(context, baseConfig, "base");
    profile(baseObject);
    ProfilerObject trafficObject(context, trafficConfig, "traffic");
    profile(trafficObject);
    profile(baseObject);
    profile(trafficObject);
  } else if (mode == "overlap") {
    // The program's launches (a pass over the held memory each; queued, or each waited for as BabelStream
    // does) alone, then while another thread enables an object and starts it empty: does the first start hold
    // them up, and does its range take any of them?
    int streamLaunches = 2000;
    float *heldData = static_cast<float *>(held);
    int heldFloats = static_cast<int>(heldBytes / sizeof(float));
    auto stream = [&](const char *label, bool waitEach) {
      double t = now(), longest = 0;
      for (int launch = 0; launch < streamLaunches; ++launch) {
        double launching = now();
        scale<<<(heldFloats + 255) / 256, 256>>>(heldData, heldFloats);
        if (waitEach)
          check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        longest = std::max(longest, now() - launching);
      }
      double queued = now();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      std::printf("%s: %d launches%s issued in %.1f ms (longest %.1f ms), done in %.1f ms\n", label, streamLaunches,
                  waitEach ? " each waited for" : "", queued - t, longest, now() - t);
    };
    for (bool waitEach : {false, true})
      for (const Config *config : {&trafficConfig, &baseConfig}) {
        const char *label = config == &baseConfig ? "base" : "traffic";
        stream("alone", waitEach);
        std::optional<ProfilerObject> object;
        double streamBegan = now();
        std::thread warming([&] {
          cuCtxSetCurrent(context);
          double t = now();
          object.emplace(context, *config, label);
          object->startEmpty();
          std::printf("warming thread: %.1f ms from %.1f ms after the launches began\n", now() - t,
                      t - streamBegan);
        });
        stream("beside the warming", waitEach);
        warming.join();
        profile(*object);
      }
  } else if (mode == "user-warm") {
    // Started and stopped empty under user ranges (no launch can fall into the range), then set to auto
    // ranges and kernel replay: is the first start's cost paid, and do its launches replay every pass?
    for (const Config *config : {&baseConfig, &trafficConfig}) {
      ProfilerObject object(context, *config, config == &baseConfig ? "base" : "traffic");
      object.configure(*config, CUPTI_UserRange, CUPTI_UserReplay);
      object.startEmpty();
      object.configure(*config, CUPTI_AutoRange, CUPTI_KernelReplay);
      profile(object);
    }
  } else {
    {
      ProfilerObject baseObject(context, baseConfig, "base");
      baseObject.startEmpty();
      profile(baseObject);
    }
    ProfilerObject trafficObject(context, trafficConfig, "traffic");
    trafficObject.startEmpty();
    profile(trafficObject);
  }
  if (heldBytes > 0)
    copyCosts(held, heldBytes);
  return 0;
}
