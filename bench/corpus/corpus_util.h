// Host-side helpers shared by the corpus programs (no kernels in here).
//
// Every corpus program prints, per kernel, one deterministic result line
//   <kernel> <size> ok|MISMATCH max_err=<e>
// and one timing line starting with "time:", and exits 0 (all ok), 1 (a result
// mismatch) or 2 (CUDA error or bad arguments).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                      \
                   cudaGetErrorName(err_), __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                   \
      std::exit(2);                                                             \
    }                                                                           \
  } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

// Fixed-seed xorshift64* generator.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * ((float)(next() >> 40) * (1.0f / 16777216.0f));
  }
  double uniform_d(double lo, double hi) {
    return lo + (hi - lo) * ((double)(next() >> 11) * (1.0 / 9007199254740992.0));
  }
  // Uniform integer in [0, n).
  uint32_t below(uint32_t n) { return (uint32_t)((next() >> 32) % n); }
};

static inline float median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return (v.size() % 2) ? v[m] : 0.5f * (v[m - 1] + v[m]);
}

// Times `reps` launches with CUDA events: prep() runs before each (poison
// outputs, reset in-place data; not timed), launch() is the kernel launch.
template <typename Prep, typename Launch>
static float time_launches(int reps, Prep prep, Launch launch) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    prep();
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return median_of(times);
}

// err = |got - ref| / max(|ref|, floor); NaN counts as infinity.
static inline double rel_err(double got, double ref, double floor) {
  double e = std::fabs(got - ref) / std::max(std::fabs(ref), floor);
  return std::isnan(e) ? INFINITY : e;
}

// Prints the result line and the time line; returns ok.
static inline bool report(const char* name, const char* size, double max_err, double tol,
                          float median_ms, int reps) {
  const bool ok = max_err <= tol;
  std::printf("%s %s %s max_err=%.3e\n", name, size, ok ? "ok" : "MISMATCH", max_err);
  std::printf("time: %s %s median_ms=%.4f reps=%d\n", name, size, median_ms, reps);
  return ok;
}

// Parses "[--reps K]"; anything else is a usage error (exit 2).
static inline int parse_reps(int argc, char** argv, const char* prog, int def) {
  int reps = def;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else {
      reps = 0;
      break;
    }
  }
  if (reps <= 0) {
    std::fprintf(stderr, "usage: %s [--reps K]\n", prog);
    std::exit(2);
  }
  return reps;
}

template <typename T>
static inline T* device_alloc(size_t count) {
  T* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
  return p;
}

template <typename T>
static inline T* device_copy(const std::vector<T>& h) {
  T* p = device_alloc<T>(h.size());
  CUDA_CHECK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

template <typename T>
static inline std::vector<T> host_copy(const T* d, size_t count) {
  std::vector<T> h(count);
  CUDA_CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

static inline void poison(void* d, size_t bytes) { CUDA_CHECK(cudaMemset(d, 0xFF, bytes)); }
