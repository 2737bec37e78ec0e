// Corpus: reductions and atomics (shared-memory tree, warp shuffle + atomicAdd,
// histogram with a data-dependent atomic index).
//
// Every kernel has an "ideal:" block right above it with the hand-derived
// expectations (DESIGN.md: add/sub/mul = 1 flop, FMA = 2, per SIMD lane;
// special functions apart; ideal bytes = unique global footprint read once +
// written once), then the values for the default size in main().
// Atomics: the add performed by an atomic happens in the memory system and is
// not counted in flops (Nsight's fadd/fmul/ffma do not count it either); a
// location updated by an atomic read-modify-write counts once in bytes.read
// and once in bytes.write.
//
// Usage: corpus-reduction [--reps K]   (default 2 launches per kernel)

#include <cuda_runtime.h>

#include "corpus_util.h"

#define RED_THREADS 256

// One element per thread, tree reduction in shared memory (blockDim.x = 256, a
// power of two): blockDim.x - 1 adds per block; one partial sum per block.
// ideal: flops.total = gridDim.x*(blockDim.x-1), fp32 = gridDim.x*(blockDim.x-1), special = 0,
//   bytes.read = 4n, bytes.write = 4*gridDim.x
// default n = 67108864, blockDim.x = 256, gridDim.x = 262144: flops.total = 66846720,
//   fp32 = 66846720, special = 0, bytes.read = 268435456, bytes.write = 1048576
__global__ void reduce_sum(const float* in, float* partial, int n) {
  __shared__ float sdata[RED_THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// Grid-stride dot product: n FMAs in total (2n flops), then a 5-step warp
// shuffle reduction executed by every lane (5 adds per thread, T =
// gridDim.x*blockDim.x threads, blockDim.x a multiple of 32), then one float
// atomicAdd per warp (T/32 atomics, not counted as flops). *result must be 0.
// ideal: flops.total = 2n + 5*gridDim.x*blockDim.x, fp32 = 2n + 5*gridDim.x*blockDim.x,
//   special = 0, bytes.read = 8n + 4 (x, y, result RMW), bytes.write = 4
// default n = 67108864, gridDim.x = 1024, blockDim.x = 256: flops.total = 135528448,
//   fp32 = 135528448, special = 0, bytes.read = 536870916, bytes.write = 4
// note: nvcc 13.0 -O3 sinks the last shuffle add into the lane-0 branch, so Nsight
//   measures fp32 = 2n + 4T + T/32 = 135274496 (T = 262144); the source executes 5T.
__global__ void dot_atomic(const float* x, const float* y, float* result, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    sum += x[i] * y[i];
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if ((threadIdx.x & 31) == 0) atomicAdd(result, sum);
}

// Integer atomics at a data-dependent index: the histogram footprint depends on
// the data (unknown statically). hist must be zeroed.
// ideal: flops.total = 0, fp32 = 0, special = 0,
//   bytes.read = 4n + 4*distinct(bins hit) (data-dependent; <= 4n + 4*nbins),
//   bytes.write = 4*distinct(bins hit) (data-dependent; <= 4*nbins)
// default n = 67108864, nbins = 1024, data uniform in [0, nbins) (every bin hit):
//   flops.total = 0, fp32 = 0, special = 0, bytes.read = 268439552, bytes.write = 4096
__global__ void histogram_atomic(const int* data, int* hist, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = data[i];
    if (b >= 0 && b < nbins) atomicAdd(&hist[b], 1);
  }
}

// ---------------------------------------------------------------- host side

static int g_reps = 2;
static bool g_ok = true;

static void run_reduce_sum() {
  const int n = 1 << 26;
  const int blocks = (n + RED_THREADS - 1) / RED_THREADS;
  Rng rng(21);
  std::vector<float> hin(n);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dpartial = device_alloc<float>(blocks);
  float ms = time_launches(
      g_reps, [&] { poison(dpartial, blocks * sizeof(float)); },
      [&] { reduce_sum<<<blocks, RED_THREADS>>>(din, dpartial, n); });
  std::vector<float> partial = host_copy(dpartial, blocks);
  double err = 0.0;
  for (int b = 0; b < blocks; ++b) {
    double ref = 0.0;
    for (int k = 0; k < RED_THREADS && b * RED_THREADS + k < n; ++k) ref += hin[(size_t)b * RED_THREADS + k];
    err = std::max(err, rel_err(partial[b], ref, 1.0));
  }
  g_ok &= report("reduce_sum", "n=67108864", err, 1e-5, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dpartial));
}

static void run_dot_atomic() {
  const int n = 1 << 26;
  Rng rng(22);
  // Positive inputs: the dot product is large, so a relative error is meaningful.
  std::vector<float> hx(n), hy(n);
  for (auto& v : hx) v = rng.uniform(0.0f, 1.0f);
  for (auto& v : hy) v = rng.uniform(0.0f, 1.0f);
  float* dx = device_copy(hx);
  float* dy = device_copy(hy);
  float* dresult = device_alloc<float>(1);
  float ms = time_launches(
      g_reps, [&] { CUDA_CHECK(cudaMemset(dresult, 0, sizeof(float))); },
      [&] { dot_atomic<<<1024, 256>>>(dx, dy, dresult, n); });
  float result = 0.0f;
  CUDA_CHECK(cudaMemcpy(&result, dresult, sizeof(float), cudaMemcpyDeviceToHost));
  double ref = 0.0;
  for (int i = 0; i < n; ++i) ref += (double)hx[i] * hy[i];
  // The float atomics run in a nondeterministic order: print only the verdict,
  // never the error value, so the line is identical from run to run.
  const double err = rel_err(result, ref, 1.0);
  const double tol = 1e-3;
  std::printf("dot_atomic n=67108864 %s max_err<=%.0e\n", err <= tol ? "ok" : "MISMATCH", tol);
  std::printf("time: dot_atomic n=67108864 median_ms=%.4f reps=%d\n", ms, g_reps);
  g_ok &= err <= tol;
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaFree(dresult));
}

static void run_histogram_atomic() {
  const int n = 1 << 26, nbins = 1024;
  Rng rng(23);
  std::vector<int> hdata(n);
  for (auto& v : hdata) v = (int)rng.below(nbins);
  std::vector<long long> ref(nbins, 0);
  for (int v : hdata) ++ref[v];
  int* ddata = device_copy(hdata);
  int* dhist = device_alloc<int>(nbins);
  float ms = time_launches(
      g_reps, [&] { CUDA_CHECK(cudaMemset(dhist, 0, nbins * sizeof(int))); },
      [&] { histogram_atomic<<<(n + 255) / 256, 256>>>(ddata, dhist, n, nbins); });
  std::vector<int> hist = host_copy(dhist, nbins);
  double err = 0.0;
  for (int b = 0; b < nbins; ++b) err = std::max(err, rel_err(hist[b], (double)ref[b], 1.0));
  g_ok &= report("histogram_atomic", "n=67108864 nbins=1024", err, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(ddata));
  CUDA_CHECK(cudaFree(dhist));
}

int main(int argc, char** argv) {
  g_reps = parse_reps(argc, argv, "corpus-reduction", 2);
  run_reduce_sum();
  run_dot_atomic();
  run_histogram_atomic();
  return g_ok ? 0 : 1;
}
