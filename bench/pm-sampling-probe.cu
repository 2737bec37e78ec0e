// Can PM sampling give every launch its DRAM bytes? Copy, read and write kernels of known traffic run
// back to back while CuptiPmSampling samples dram__bytes_read/write.sum every INTERVAL ns; each kernel
// stamps its own GPU start and end (%globaltimer), and PmAttribution gives each launch its share of the
// samples once they are shifted onto the kernels' clock. Prints one line a launch (expected and sampled
// bytes) and the workload's wall time with sampling and without, run in turn (kernel activity records on in
// both, as in the shim). Also compares the clock of CUPTI's kernel activity records, which the shim would
// attribute samples by, with %globaltimer and with the samples' clock.
// usage: roofcheck-pm-sampling-probe [INTERVAL_NS [SAMPLES.csv]] [--no-sampling]
//   SAMPLES.csv: the last run's samples (start, end, read, write; shifted) and kernel spans, to look at
//   --no-sampling: the workload alone, for ncu to count
#include "CuptiPmSampling.h"
#include "Diagnostics.h"
#include "PmAttribution.h"
#include "pm-sampling-activity.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace roofcheck::runtime;

namespace {

__device__ uint64_t globalTimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Stamps the kernel's span in span[0] (first block to start) and span[1] (last block to end).
__device__ void stampStart(unsigned long long *span) {
  if (threadIdx.x == 0)
    atomicMin(&span[0], static_cast<unsigned long long>(globalTimer()));
}
__device__ void stampEnd(unsigned long long *span) {
  __syncthreads();
  if (threadIdx.x == 0)
    atomicMax(&span[1], static_cast<unsigned long long>(globalTimer()));
}

__global__ void copy(const float4 *in, float4 *out, size_t n, unsigned long long *span) {
  stampStart(span);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
  stampEnd(span);
}

__global__ void read(const float4 *in, float *sink, size_t n, unsigned long long *span) {
  stampStart(span);
  float sum = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = in[i];
    sum += v.x + v.y + v.z + v.w;
  }
  if (sum == 12345.0f) // never: keeps the loads
    *sink = sum;
  stampEnd(span);
}

__global__ void write(float4 *out, size_t n, unsigned long long *span) {
  stampStart(span);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = make_float4(1, 2, 3, 4);
  stampEnd(span);
}

struct Launch {
  const char *kernel;
  size_t bytes;          ///< of each buffer the kernel touches
  double read, written;  ///< expected DRAM bytes
};

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// The workload: each kernel on each size, five times back to back, then a pause.
std::vector<Launch> runWorkload(float4 *a, float4 *b, float *sink, unsigned long long *spans) {
  std::vector<Launch> launches;
  const size_t sizes[] = {size_t(2) << 30, size_t(256) << 20, size_t(64) << 20, size_t(16) << 20, size_t(4) << 20,
                          size_t(1) << 20};
  for (size_t bytes : sizes)
    for (int kind = 0; kind < 3; ++kind) {
      for (int rep = 0; rep < 5; ++rep) {
        unsigned long long *span = spans + 2 * launches.size();
        size_t n = bytes / sizeof(float4);
        if (kind == 0) {
          copy<<<132 * 8, 256>>>(a, b, n, span);
          launches.push_back({"copy", bytes, double(bytes), double(bytes)});
        } else if (kind == 1) {
          read<<<132 * 8, 256>>>(a, sink, n, span);
          launches.push_back({"read", bytes, double(bytes), 0});
        } else {
          write<<<132 * 8, 256>>>(b, n, span);
          launches.push_back({"write", bytes, 0, double(bytes)});
        }
      }
      check(cudaDeviceSynchronize(), "workload");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  return launches;
}

} // namespace

int main(int argc, char **argv) {
  uint64_t interval = argc > 1 && argv[1][0] != '-' ? std::strtoull(argv[1], nullptr, 10) : 1000;
  bool sampling = !(argc > 1 && std::strcmp(argv[argc - 1], "--no-sampling") == 0);
  const size_t maxBytes = size_t(2) << 30, maxLaunches = 128;
  float4 *a, *b;
  float *sink;
  unsigned long long *spans;
  check(cudaMalloc(&a, maxBytes), "cudaMalloc");
  check(cudaMalloc(&b, maxBytes), "cudaMalloc");
  check(cudaMalloc(&sink, sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&spans, 2 * maxLaunches * sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMemset(a, 0, maxBytes), "cudaMemset");
  std::vector<unsigned long long> initial(2 * maxLaunches);
  for (size_t i = 0; i < maxLaunches; ++i)
    initial[2 * i] = ~0ull, initial[2 * i + 1] = 0;
  auto resetSpans = [&] {
    check(cudaMemcpy(spans, initial.data(), initial.size() * sizeof(initial[0]), cudaMemcpyHostToDevice), "spans");
  };
  auto timed = [&](auto &&work) {
    auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  resetSpans();
  runWorkload(a, b, sink, spans); // warm-up
  if (!sampling) {
    resetSpans();
    std::vector<Launch> launches = runWorkload(a, b, sink, spans);
    std::printf("%zu launches without sampling\n", launches.size());
    return 0;
  }

  Diagnostics diagnostics;
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (!diagnostics.cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize"))
    return 1;
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  if (!diagnostics.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName"))
    return 1;
  CuptiPmSampling pm(diagnostics);
  if (!pm.configure(0, chip.pChipName, {"dram__bytes_read.sum", "dram__bytes_write.sum"}, /*askAvailability=*/true) ||
      !pm.enable(0, interval, size_t(512) << 20) || !pm.makeCounterData(200000))
    return 1;

  ActivitySpans activity(diagnostics);
  if (!activity.enable())
    return 1;

  // Wall time of the workload, in turn without and with sampling (sampling off: not started).
  double without[3], with[3];
  std::vector<PmSample> samples;
  std::vector<Launch> launches;
  bool overflow = false;
  for (int run = 0; run < 3; ++run) {
    resetSpans();
    without[run] = timed([&] { runWorkload(a, b, sink, spans); });
    resetSpans();
    samples.clear();
    if (!pm.start())
      return 1;
    std::atomic<bool> done{false};
    std::mutex samplesMutex;
    // Decoded while the workload runs, as the shim would, so the hardware buffer never fills.
    std::thread decoder([&] {
      while (!done) {
        CuptiPmSampling::Drained more = pm.drain();
        std::lock_guard<std::mutex> lock(samplesMutex);
        overflow |= more.overflow;
        samples.insert(samples.end(), more.samples.begin(), more.samples.end());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
    with[run] = timed([&] { launches = runWorkload(a, b, sink, spans); });
    done = true;
    decoder.join();
    pm.stop();
    CuptiPmSampling::Drained rest = pm.drain();
    overflow |= rest.overflow;
    samples.insert(samples.end(), rest.samples.begin(), rest.samples.end());
  }
  std::vector<unsigned long long> stamped(2 * launches.size());
  check(cudaMemcpy(stamped.data(), spans, stamped.size() * sizeof(stamped[0]), cudaMemcpyDeviceToHost), "spans");
  std::vector<KernelSpan> kernelSpans;
  for (size_t i = 0; i < launches.size(); ++i)
    kernelSpans.push_back({stamped[2 * i], stamped[2 * i + 1]});
  // The activity records of the last run are the last launches.size() to start.
  std::vector<KernelSpan> activitySpans = activity.last(launches.size());
  // The samples' clock and %globaltimer need not agree: shift the samples onto the kernels' clock first.
  int64_t activityOffset = activitySpans.size() == launches.size()
                               ? estimateClockOffset(samples, activitySpans, 2000000) : 0;
  int64_t offset = estimateClockOffset(samples, kernelSpans, 2000000);
  for (PmSample &p : samples)
    p.start += offset, p.end += offset;
  std::vector<SpanTraffic> traffic = attributeSamples(samples, kernelSpans);
  if (argc > 2 && argv[2][0] != '-') {
    FILE *dump = std::fopen(argv[2], "w");
    if (!dump)
      return 1;
    std::fprintf(dump, "what,start,end,read,write\n");
    for (const PmSample &p : samples)
      std::fprintf(dump, "sample,%llu,%llu,%.0f,%.0f\n", static_cast<unsigned long long>(p.start),
                   static_cast<unsigned long long>(p.end),
                   p.values.count("dram__bytes_read.sum") ? p.values.at("dram__bytes_read.sum") : -1.0,
                   p.values.count("dram__bytes_write.sum") ? p.values.at("dram__bytes_write.sum") : -1.0);
    for (size_t i = 0; i < launches.size(); ++i)
      std::fprintf(dump, "%s,%llu,%llu,%.0f,%.0f\n", launches[i].kernel,
                   static_cast<unsigned long long>(kernelSpans[i].start),
                   static_cast<unsigned long long>(kernelSpans[i].end), launches[i].read, launches[i].written);
    std::fclose(dump);
  }

  std::printf("interval %llu ns, %zu samples, overflow %s, samples shifted by %lld ns",
              static_cast<unsigned long long>(interval), samples.size(), overflow ? "yes" : "no",
              static_cast<long long>(offset));
  if (!samples.empty())
    std::printf(", samples %llu..%llu ns, kernels %llu..%llu ns", static_cast<unsigned long long>(samples.front().start),
                static_cast<unsigned long long>(samples.back().end),
                static_cast<unsigned long long>(kernelSpans.front().start),
                static_cast<unsigned long long>(kernelSpans.back().end));
  if (activitySpans.size() == launches.size()) {
    // Activity start minus %globaltimer start, launch by launch: their clocks' difference.
    std::vector<int64_t> difference;
    for (size_t i = 0; i < launches.size(); ++i)
      difference.push_back(int64_t(activitySpans[i].start) - int64_t(kernelSpans[i].start));
    std::sort(difference.begin(), difference.end());
    std::printf("\nactivity records: start minus %%globaltimer start median %lld ns (min %lld, max %lld); samples "
                "shifted onto the activity spans by %lld ns",
                static_cast<long long>(difference[difference.size() / 2]), static_cast<long long>(difference.front()),
                static_cast<long long>(difference.back()), static_cast<long long>(activityOffset));
  } else {
    std::printf("\nactivity records: %zu for the last run's %zu launches", activitySpans.size(), launches.size());
  }
  std::printf("\nwall without/with sampling:");
  for (int run = 0; run < 3; ++run)
    std::printf(" %.4f/%.4f s", without[run], with[run]);
  std::printf("\nkernel bytes duration_us expected_read sampled_read read_ratio expected_write sampled_write "
              "write_ratio covered shared\n");
  for (size_t i = 0; i < launches.size(); ++i) {
    const Launch &l = launches[i];
    const SpanTraffic &t = traffic[i];
    double r = t.values.count("dram__bytes_read.sum") ? t.values.at("dram__bytes_read.sum") : 0;
    double w = t.values.count("dram__bytes_write.sum") ? t.values.at("dram__bytes_write.sum") : 0;
    uint64_t ns = kernelSpans[i].end - kernelSpans[i].start;
    std::printf("%s %zu %.1f %.0f %.0f %.4f %.0f %.0f %.4f %.2f %s\n", l.kernel, l.bytes, ns / 1e3, l.read, r,
                l.read > 0 ? r / l.read : 0.0, l.written, w, l.written > 0 ? w / l.written : 0.0,
                ns ? double(t.coveredNs) / ns : 0.0, t.shared ? "yes" : "no");
  }
  for (const std::string &w : diagnostics.warnings())
    std::printf("warning: %s\n", w.c_str());
  return 0;
}
