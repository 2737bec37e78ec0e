// matmul: C = A * B for square N x N fp32 matrices, row-major.
//
// Ideal counts (DESIGN.md conventions; n = N; one thread per C element):
//   matmul_naive: flops.total = 2n^3 (fp32: n^3 FMAs, 2 flops each), special = 0
//                 bytes.read = 8n^2 (A and B once each), bytes.write = 4n^2 (C)
//                 AI = 2n^3 / 12n^2 = n/6 flop/byte (341 at n = 2048): compute
//                 bound *if* the re-reads are served by caches. Each thread reads
//                 a full row of A and column of B from global memory, so the
//                 kernel issues 8n^3 bytes of loads and relies on L1/L2 to keep
//                 DRAM traffic near the ideal; it sits well below the FMA roof.
//   matmul_tiled: same ideal counts (2n^3 flops, 8n^2 read, 4n^2 write). Each
//                 32x32 tile of A and B is staged in shared memory once per
//                 block, cutting global loads by TILE = 32x, so it climbs
//                 closer to the compute roof.
//   Default n = 2048: 17,179,869,184 flops, 33,554,432 B read, 16,777,216 B written
//   (the 48 MB working set fits in the 60 MB L2 of an H200).
//
// Usage: matmul [N] [naive|tiled|both] [--reps K]
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

#define TILE 32

// One thread per C[row][col]; the k-loop reads A and B straight from global memory.
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) {
      acc += A[row * n + k] * B[k * n + col];
    }
    C[row * n + col] = acc;
  }
}

// Shared-memory tiling, blockDim = (TILE, TILE). Out-of-range tile entries are
// loaded as zero, so any n works (n a multiple of TILE is the fast path).
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      acc += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  if (row < n && col < n) {
    C[row * n + col] = acc;
  }
}

// ---------------------------------------------------------------- host side

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

static uint64_t next_u64() {
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 0x2545F4914F6CDD1Dull;
}

// Uniform float in [lo, hi) from a fixed-seed xorshift64* generator.
static float frand(float lo, float hi) {
  float u = (float)(next_u64() >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return (v.size() % 2) ? v[m] : 0.5f * (v[m - 1] + v[m]);
}

static void usage() {
  std::fprintf(stderr, "usage: matmul [N] [naive|tiled|both] [--reps K]\n");
  std::exit(2);
}

struct Sample {
  int row, col;
  double ref;
};

// Runs one kernel `reps` times, checks sampled entries, prints result + time lines.
static bool run_one(const char* name, bool tiled, int n, int reps, const float* dA,
                    const float* dB, float* dC, const std::vector<Sample>& samples) {
  const size_t bytes = (size_t)n * n * sizeof(float);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaMemset(dC, 0xFF, bytes));  // poison: NaN pattern
    CUDA_CHECK(cudaEventRecord(start));
    if (tiled) {
      dim3 block(TILE, TILE);
      dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
      matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
    } else {
      dim3 block(32, 8);
      dim3 grid((n + 31) / 32, (n + 7) / 8);
      matmul_naive<<<grid, block>>>(dA, dB, dC, n);
    }
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::vector<float> hC((size_t)n * n);
  CUDA_CHECK(cudaMemcpy(hC.data(), dC, bytes, cudaMemcpyDeviceToHost));

  double max_rel = 0.0;
  bool ok = true;
  for (const Sample& s : samples) {
    double got = hC[(size_t)s.row * n + s.col];
    double err = std::fabs(got - s.ref) / std::max(std::fabs(s.ref), 1e-30);
    if (!(err <= 1e-4)) ok = false;  // also catches NaN
    if (std::isnan(err)) err = INFINITY;
    max_rel = std::max(max_rel, err);
  }
  std::printf("%s N=%d %s max_rel_err=%.3e (sampled %zu entries)\n", name, n,
              ok ? "ok" : "MISMATCH", max_rel, samples.size());
  std::printf("time: %s N=%d median_ms=%.4f reps=%d\n", name, n, median(times), reps);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ok;
}

int main(int argc, char** argv) {
  long long n_arg = 2048;
  int reps = 3;
  const char* which = "both";
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (argv[i][0] != '-' && positional == 0) {
      n_arg = std::atoll(argv[i]);
      ++positional;
    } else if (argv[i][0] != '-' && positional == 1) {
      which = argv[i];
      ++positional;
    } else {
      usage();
    }
  }
  const bool do_naive = std::strcmp(which, "naive") == 0 || std::strcmp(which, "both") == 0;
  const bool do_tiled = std::strcmp(which, "tiled") == 0 || std::strcmp(which, "both") == 0;
  if (n_arg <= 0 || n_arg * n_arg > 0x7FFFFFFFll || reps <= 0 || !(do_naive || do_tiled))
    usage();
  const int n = (int)n_arg;
  const size_t elems = (size_t)n * n;
  const size_t bytes = elems * sizeof(float);

  // Positive inputs keep every C entry well away from zero, so the relative
  // error is meaningful.
  std::vector<float> hA(elems), hB(elems);
  for (size_t i = 0; i < elems; ++i) hA[i] = frand(0.0f, 1.0f);
  for (size_t i = 0; i < elems; ++i) hB[i] = frand(0.0f, 1.0f);

  // CPU reference on a fixed sample of entries (corners included), in double.
  std::vector<Sample> samples;
  const int n_samples = 1024;
  for (int s = 0; s < n_samples; ++s) {
    int row, col;
    if (s == 0) { row = 0; col = 0; }
    else if (s == 1) { row = n - 1; col = n - 1; }
    else if (s == 2) { row = 0; col = n - 1; }
    else if (s == 3) { row = n - 1; col = 0; }
    else { row = (int)(next_u64() % n); col = (int)(next_u64() % n); }
    double acc = 0.0;
    for (int k = 0; k < n; ++k) acc += (double)hA[(size_t)row * n + k] * hB[(size_t)k * n + col];
    samples.push_back({row, col, acc});
  }

  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CUDA_CHECK(cudaMalloc(&dA, bytes));
  CUDA_CHECK(cudaMalloc(&dB, bytes));
  CUDA_CHECK(cudaMalloc(&dC, bytes));
  CUDA_CHECK(cudaMemcpy(dA, hA.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB.data(), bytes, cudaMemcpyHostToDevice));

  bool ok = true;
  if (do_naive) ok &= run_one("matmul_naive", false, n, reps, dA, dB, dC, samples);
  if (do_tiled) ok &= run_one("matmul_tiled", true, n, reps, dA, dB, dC, samples);

  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  return ok ? 0 : 1;
}
