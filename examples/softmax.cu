// softmax: row-wise y[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r)
// over a rows x cols fp32 matrix, row-major.
//
// Ideal counts (DESIGN.md conventions). R = rows, C = cols, B = blockDim.x
// (= SM_THREADS = 256, one block per row for the reduction kernels). fmaxf is a
// comparison, not an add/sub/mul: it counts 0 flops (Nsight counts no FMNMX
// either). expf and '/' go to the special bucket, never to flops.total.
//
// Unfused, three kernels:
//   softmax_row_max:   flops.total = 0, special = 0
//                      bytes.read = 4RC, bytes.write = 4R
//   softmax_exp_sum:   flops.total = fp32 = 2RC + R(B-1)
//                        (RC subtractions x - max, RC per-thread sum adds,
//                         B-1 adds per row in the shared-memory tree)
//                      special = RC (expf)
//                      bytes.read = 4RC + 4R (x, row_max), bytes.write = 4RC + 4R (e, row_sum)
//   softmax_normalize: flops.total = 0, special = RC (division)
//                      bytes.read = 4RC + 4R (e, row_sum), bytes.write = 4RC (y)
//   unfused pipeline:  bytes.read = 12RC + 8R, bytes.write = 8RC + 8R (~20RC in all)
//                      AI of the three together = (2RC + R(B-1)) / (20RC + 16R) ~ 0.11
//                      at the default size. Per kernel, only softmax_exp_sum has
//                      fp32 flops (AI ~ 0.28, the same as the fused kernel); the
//                      other two have 0 flops.total.
//
// Fused, one kernel, one block per row; the row is staged in dynamic shared
// memory, so x is read from global memory once and y written once:
//   softmax_fused:     flops.total = fp32 = 2RC + R(B-1), special = 2RC (RC expf + RC divisions)
//                      bytes.read = 4RC, bytes.write = 4RC
//                      AI = (2RC + R(B-1)) / 8RC ~ 0.28 at the default size: the
//                      same flops for ~2.5x fewer bytes than the unfused pipeline.
//
// Default R = 65536, C = 1024 (x is 256 MB, ~4x the 60 MB L2 of an H200):
//   softmax_row_max:   read 268,435,456 B, write 262,144 B
//   softmax_exp_sum:   fp32 = 150,929,408 flops, special = 67,108,864,
//                      read 268,697,600 B, write 268,697,600 B
//   softmax_normalize: special = 67,108,864, read 268,697,600 B, write 268,435,456 B
//   softmax_fused:     fp32 = 150,929,408 flops, special = 134,217,728,
//                      read 268,435,456 B, write 268,435,456 B
//
// Usage: softmax [rows] [cols] [unfused|fused|both] [--reps K]
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

// Threads per block for the per-row kernels; must be a power of two.
#define SM_THREADS 256

// Unfused 1/3: one block per row, block max reduction.
__global__ void softmax_row_max(const float* x, float* row_max, int rows, int cols) {
  __shared__ float red[SM_THREADS];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows) return;
  float m = -INFINITY;
  for (int c = tid; c < cols; c += blockDim.x) {
    m = fmaxf(m, x[row * cols + c]);
  }
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  if (tid == 0) row_max[row] = red[0];
}

// Unfused 2/3: one block per row; writes e = exp(x - max) and the row sum of e.
__global__ void softmax_exp_sum(const float* x, const float* row_max, float* e,
                                float* row_sum, int rows, int cols) {
  __shared__ float red[SM_THREADS];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows) return;
  float mx = row_max[row];
  float s = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = expf(x[row * cols + c] - mx);
    e[row * cols + c] = v;
    s += v;
  }
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  if (tid == 0) row_sum[row] = red[0];
}

// Unfused 3/3: elementwise, one thread per element.
__global__ void softmax_normalize(const float* e, const float* row_sum, float* y,
                                  int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) {
    y[i] = e[i] / row_sum[i / cols];
  }
}

// Fused: one block per row, dynamic shared memory holds the row (cols floats).
__global__ void softmax_fused(const float* x, float* y, int rows, int cols) {
  extern __shared__ float buf[];
  __shared__ float red[SM_THREADS];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows) return;

  float m = -INFINITY;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = x[row * cols + c];
    buf[c] = v;
    m = fmaxf(m, v);
  }
  red[tid] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] = fmaxf(red[tid], red[tid + k]);
    __syncthreads();
  }
  float mx = red[0];
  __syncthreads();

  float s = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = expf(buf[c] - mx);
    buf[c] = v;
    s += v;
  }
  red[tid] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  float sum = red[0];

  for (int c = tid; c < cols; c += blockDim.x) {
    y[row * cols + c] = buf[c] / sum;
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
  std::fprintf(stderr, "usage: softmax [rows] [cols] [unfused|fused|both] [--reps K]\n");
  std::exit(2);
}

// Max relative error of got[] against ref[] (NaN in got -> infinity).
static double max_rel_err(const float* got, const double* ref, size_t count) {
  double worst = 0.0;
  for (size_t i = 0; i < count; ++i) {
    double err = std::fabs((double)got[i] - ref[i]) / std::max(std::fabs(ref[i]), 1e-30);
    if (std::isnan(err)) err = INFINITY;
    worst = std::max(worst, err);
  }
  return worst;
}

static bool report(const char* name, int rows, int cols, double err, double tol,
                   const std::vector<float>& times, int reps) {
  const bool ok = err <= tol;
  std::printf("%s rows=%d cols=%d %s max_rel_err=%.3e\n", name, rows, cols,
              ok ? "ok" : "MISMATCH", err);
  std::printf("time: %s rows=%d cols=%d median_ms=%.4f reps=%d\n", name, rows, cols,
              median(times), reps);
  return ok;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

int main(int argc, char** argv) {
  long long rows_arg = 65536, cols_arg = 1024;
  int reps = 3;
  const char* which = "both";
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (argv[i][0] != '-' && positional == 0) {
      rows_arg = std::atoll(argv[i]);
      ++positional;
    } else if (argv[i][0] != '-' && positional == 1) {
      cols_arg = std::atoll(argv[i]);
      ++positional;
    } else if (argv[i][0] != '-' && positional == 2) {
      which = argv[i];
      ++positional;
    } else {
      usage();
    }
  }
  const bool do_unfused = std::strcmp(which, "unfused") == 0 || std::strcmp(which, "both") == 0;
  const bool do_fused = std::strcmp(which, "fused") == 0 || std::strcmp(which, "both") == 0;
  if (rows_arg <= 0 || cols_arg <= 0 || rows_arg * cols_arg > 0x7FFFFFFFll || reps <= 0 ||
      !(do_unfused || do_fused))
    usage();
  const int rows = (int)rows_arg, cols = (int)cols_arg;
  const size_t fused_smem = (size_t)cols * sizeof(float);
  if (do_fused && fused_smem > 40 * 1024) {
    std::fprintf(stderr, "softmax: fused kernel stages a row in shared memory; cols must be <= %d\n",
                 40 * 1024 / 4);
    return 2;
  }
  const size_t elems = (size_t)rows * cols;
  const size_t bytes = elems * sizeof(float);
  const size_t row_bytes = (size_t)rows * sizeof(float);

  std::vector<float> hx(elems);
  for (size_t i = 0; i < elems; ++i) hx[i] = frand(-4.0f, 4.0f);

  // CPU reference (double), full.
  std::vector<double> ref_max(rows), ref_sum(rows), ref_y(elems);
  for (int r = 0; r < rows; ++r) {
    const float* xr = &hx[(size_t)r * cols];
    float m = xr[0];
    for (int c = 1; c < cols; ++c) m = std::max(m, xr[c]);
    double s = 0.0;
    for (int c = 0; c < cols; ++c) {
      double v = std::exp((double)xr[c] - (double)m);
      ref_y[(size_t)r * cols + c] = v;
      s += v;
    }
    for (int c = 0; c < cols; ++c) ref_y[(size_t)r * cols + c] /= s;
    ref_max[r] = m;
    ref_sum[r] = s;
  }

  float *dx = nullptr, *dy = nullptr, *de = nullptr, *dmax = nullptr, *dsum = nullptr;
  CUDA_CHECK(cudaMalloc(&dx, bytes));
  CUDA_CHECK(cudaMalloc(&dy, bytes));
  CUDA_CHECK(cudaMemcpy(dx, hx.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t ev[4];
  for (int i = 0; i < 4; ++i) CUDA_CHECK(cudaEventCreate(&ev[i]));
  std::vector<float> hy(elems);
  bool ok = true;

  if (do_unfused) {
    CUDA_CHECK(cudaMalloc(&de, bytes));
    CUDA_CHECK(cudaMalloc(&dmax, row_bytes));
    CUDA_CHECK(cudaMalloc(&dsum, row_bytes));
    std::vector<float> t_max, t_exp, t_norm;
    const int norm_threads = 256;
    const int norm_blocks = (int)((elems + norm_threads - 1) / norm_threads);
    for (int r = 0; r < reps; ++r) {
      CUDA_CHECK(cudaMemset(dy, 0xFF, bytes));  // poison: NaN pattern
      CUDA_CHECK(cudaMemset(de, 0xFF, bytes));
      CUDA_CHECK(cudaMemset(dmax, 0xFF, row_bytes));
      CUDA_CHECK(cudaMemset(dsum, 0xFF, row_bytes));
      CUDA_CHECK(cudaEventRecord(ev[0]));
      softmax_row_max<<<rows, SM_THREADS>>>(dx, dmax, rows, cols);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaEventRecord(ev[1]));
      softmax_exp_sum<<<rows, SM_THREADS>>>(dx, dmax, de, dsum, rows, cols);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaEventRecord(ev[2]));
      softmax_normalize<<<norm_blocks, norm_threads>>>(de, dsum, dy, rows, cols);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaEventRecord(ev[3]));
      CUDA_CHECK(cudaEventSynchronize(ev[3]));
      t_max.push_back(elapsed(ev[0], ev[1]));
      t_exp.push_back(elapsed(ev[1], ev[2]));
      t_norm.push_back(elapsed(ev[2], ev[3]));
    }
    std::vector<float> hmax(rows), hsum(rows);
    CUDA_CHECK(cudaMemcpy(hmax.data(), dmax, row_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hsum.data(), dsum, row_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hy.data(), dy, bytes, cudaMemcpyDeviceToHost));
    ok &= report("softmax_row_max", rows, cols, max_rel_err(hmax.data(), ref_max.data(), rows),
                 0.0, t_max, reps);
    ok &= report("softmax_exp_sum", rows, cols, max_rel_err(hsum.data(), ref_sum.data(), rows),
                 1e-4, t_exp, reps);
    ok &= report("softmax_normalize", rows, cols, max_rel_err(hy.data(), ref_y.data(), elems),
                 1e-4, t_norm, reps);
  }

  if (do_fused) {
    std::vector<float> t_fused;
    for (int r = 0; r < reps; ++r) {
      CUDA_CHECK(cudaMemset(dy, 0xFF, bytes));  // poison: NaN pattern
      CUDA_CHECK(cudaEventRecord(ev[0]));
      softmax_fused<<<rows, SM_THREADS, fused_smem>>>(dx, dy, rows, cols);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaEventRecord(ev[1]));
      CUDA_CHECK(cudaEventSynchronize(ev[1]));
      t_fused.push_back(elapsed(ev[0], ev[1]));
    }
    CUDA_CHECK(cudaMemcpy(hy.data(), dy, bytes, cudaMemcpyDeviceToHost));
    ok &= report("softmax_fused", rows, cols, max_rel_err(hy.data(), ref_y.data(), elems), 1e-4,
                 t_fused, reps);
  }

  for (int i = 0; i < 4; ++i) CUDA_CHECK(cudaEventDestroy(ev[i]));
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  if (de) CUDA_CHECK(cudaFree(de));
  if (dmax) CUDA_CHECK(cudaFree(dmax));
  if (dsum) CUDA_CHECK(cudaFree(dsum));
  return ok ? 0 : 1;
}
