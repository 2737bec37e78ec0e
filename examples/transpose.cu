// transpose: out = in^T for a square N x N fp32 matrix, row-major.
//
// Ideal counts (DESIGN.md conventions; n = N; one thread per element):
//   transpose_naive: flops.total = 0, special = 0
//                    bytes.read = 4n^2, bytes.write = 4n^2   (AI = 0)
//                    The read in[y*n + x] is coalesced along threadIdx.x; the
//                    store out[x*n + y] strides by n floats along threadIdx.x, so
//                    every 4-byte store touches its own 32-byte sector: predicted
//                    write traffic up to 8 x 4n^2 = 32n^2 bytes. On an H200 the
//                    8x shows in L2 sector traffic and in time (~3x slower than
//                    tiled), not in DRAM bytes: the 32 warps of a block fill each
//                    sector before L2 writes it back, so DRAM writes stay ~4n^2.
//   transpose_tiled: flops.total = 0, special = 0
//                    bytes.read = 4n^2, bytes.write = 4n^2   (AI = 0)
//                    A 32 x 33 shared-memory tile (the +1 column avoids bank
//                    conflicts) lets both the global read and the global store
//                    run along threadIdx.x, so predicted bytes = ideal bytes.
//   Default n = 8192: 268,435,456 B read, 268,435,456 B written (512 MB, ~8x the
//   60 MB L2 of an H200).
//
// Usage: transpose [N] [naive|tiled|both] [--reps K]
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

#define TILE_DIM 32

// blockDim = (32, 32). Coalesced read, strided (uncoalesced) store.
__global__ void transpose_naive(const float* in, float* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    out[x * n + y] = in[y * n + x];
  }
}

// blockDim = (TILE_DIM, TILE_DIM). Reads a tile row-wise, writes the transposed
// tile row-wise; the 33-float row pitch keeps shared-memory columns conflict-free.
__global__ void transpose_tiled(const float* in, float* out, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < n && y < n) {
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  if (x < n && y < n) {
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
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
  std::fprintf(stderr, "usage: transpose [N] [naive|tiled|both] [--reps K]\n");
  std::exit(2);
}

static bool run_one(const char* name, bool tiled, int n, int reps, const float* din,
                    float* dout, const std::vector<float>& hin) {
  const size_t elems = (size_t)n * n;
  const size_t bytes = elems * sizeof(float);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  dim3 block(TILE_DIM, TILE_DIM);
  dim3 grid((n + TILE_DIM - 1) / TILE_DIM, (n + TILE_DIM - 1) / TILE_DIM);
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaMemset(dout, 0xFF, bytes));  // poison: NaN pattern
    CUDA_CHECK(cudaEventRecord(start));
    if (tiled) {
      transpose_tiled<<<grid, block>>>(din, dout, n);
    } else {
      transpose_naive<<<grid, block>>>(din, dout, n);
    }
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::vector<float> hout(elems);
  CUDA_CHECK(cudaMemcpy(hout.data(), dout, bytes, cudaMemcpyDeviceToHost));

  // Full check, exact: a transpose only moves bits.
  size_t bad = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (std::memcmp(&hout[(size_t)x * n + y], &hin[(size_t)y * n + x], sizeof(float)) != 0)
        ++bad;
  const bool ok = bad == 0;
  std::printf("%s N=%d %s max_rel_err=%.3e mismatched=%zu\n", name, n, ok ? "ok" : "MISMATCH",
              ok ? 0.0 : INFINITY, bad);
  std::printf("time: %s N=%d median_ms=%.4f reps=%d\n", name, n, median(times), reps);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ok;
}

int main(int argc, char** argv) {
  long long n_arg = 8192;
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

  std::vector<float> hin(elems);
  for (size_t i = 0; i < elems; ++i) hin[i] = frand(-1.0f, 1.0f);

  float *din = nullptr, *dout = nullptr;
  CUDA_CHECK(cudaMalloc(&din, bytes));
  CUDA_CHECK(cudaMalloc(&dout, bytes));
  CUDA_CHECK(cudaMemcpy(din, hin.data(), bytes, cudaMemcpyHostToDevice));

  bool ok = true;
  if (do_naive) ok &= run_one("transpose_naive", false, n, reps, din, dout, hin);
  if (do_tiled) ok &= run_one("transpose_tiled", true, n, reps, din, dout, hin);

  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  return ok ? 0 : 1;
}
