// vector_add: c[i] = a[i] + b[i] over n floats.
//
// Ideal counts (DESIGN.md conventions; launch covers all n elements):
//   vector_add: flops.total = n (fp32 = n adds), special = 0
//               bytes.read = 8n (a and b), bytes.write = 4n (c)
//               AI = n / 12n = 1/12 flop/byte  -> far left on the roofline,
//               deep in the memory-bound region.
//   Default n = 1<<26: 67,108,864 flops, 536,870,912 B read, 268,435,456 B written.
//
// Usage: vector_add [n] [--reps K]
// Output: result lines are deterministic; timing lines start with "time:".
// Exit: 0 ok, 1 result mismatch, 2 CUDA error or bad arguments.

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

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

// ---------------------------------------------------------------- host side

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

// Uniform float in [lo, hi) from a fixed-seed xorshift64* generator.
static float frand(float lo, float hi) {
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  uint64_t r = g_rng * 0x2545F4914F6CDD1Dull;
  float u = (float)(r >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return (v.size() % 2) ? v[m] : 0.5f * (v[m - 1] + v[m]);
}

static void usage() {
  std::fprintf(stderr, "usage: vector_add [n] [--reps K]\n");
  std::exit(2);
}

int main(int argc, char** argv) {
  long long n_arg = 1 << 26;
  int reps = 3;
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (argv[i][0] != '-' && positional == 0) {
      n_arg = std::atoll(argv[i]);
      ++positional;
    } else {
      usage();
    }
  }
  if (n_arg <= 0 || n_arg > 0x7FFFFFFFll || reps <= 0) usage();
  const int n = (int)n_arg;
  const size_t bytes = (size_t)n * sizeof(float);

  std::vector<float> ha(n), hb(n), hc(n);
  for (int i = 0; i < n; ++i) ha[i] = frand(-1.0f, 1.0f);
  for (int i = 0; i < n; ++i) hb[i] = frand(-1.0f, 1.0f);

  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CUDA_CHECK(cudaMalloc(&da, bytes));
  CUDA_CHECK(cudaMalloc(&db, bytes));
  CUDA_CHECK(cudaMalloc(&dc, bytes));
  CUDA_CHECK(cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaMemset(dc, 0xFF, bytes));  // poison: NaN pattern
    CUDA_CHECK(cudaEventRecord(start));
    vector_add<<<blocks, threads>>>(da, db, dc, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CUDA_CHECK(cudaMemcpy(hc.data(), dc, bytes, cudaMemcpyDeviceToHost));

  // Full check: the fp32 add is exact-rounded on both sides.
  double max_rel = 0.0;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    float ref = ha[i] + hb[i];
    double err = std::fabs((double)hc[i] - (double)ref) /
                 std::max(std::fabs((double)ref), 1e-30);
    if (std::isnan(err)) err = INFINITY;
    if (!(err <= 1e-6)) ok = false;
    max_rel = std::max(max_rel, err);
  }

  std::printf("vector_add n=%d %s max_rel_err=%.3e\n", n, ok ? "ok" : "MISMATCH", max_rel);
  std::printf("time: vector_add n=%d median_ms=%.4f reps=%d\n", n, median(times), reps);

  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dc));
  return ok ? 0 : 1;
}
