// Corpus: control-flow and call shapes (nested loops, a template kernel, calls
// to __device__ helpers, a data-dependent while loop, early returns).
//
// Every kernel has an "ideal:" block right above it with the hand-derived
// expectations (DESIGN.md: add/sub/mul = 1 flop, FMA = 2, per SIMD lane;
// special functions apart; fmaxf and comparisons count 0; ideal bytes = unique
// global footprint read once + written once), then the values for the default
// size in main(). Streaming working sets are >= 4x the 60 MB L2 of an H200.
//
// Usage: corpus-control [--reps K]   (default 2 launches per kernel)

#include <cuda_runtime.h>

#include "corpus_util.h"

// Matrix-vector product y = A x with A column-major (rows x cols), so the loads
// of A are coalesced along threadIdx.x. Nested loops: a grid-stride loop over
// rows, an inner loop over cols (one FMA each).
// ideal: flops.total = 2*rows*cols, fp32 = 2*rows*cols, special = 0,
//   bytes.read = 4*rows*cols + 4*cols, bytes.write = 4*rows
// default rows = 262144, cols = 256 (gridDim.x = 512, blockDim.x = 256: 2 rows per
//   thread): flops.total = 134217728, fp32 = 134217728, special = 0,
//   bytes.read = 268436480, bytes.write = 1048576
__global__ void gemv_colmajor(const float* A, const float* x, float* y, int rows, int cols) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += blockDim.x * gridDim.x) {
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j) {
      acc += A[j * rows + row] * x[j];
    }
    y[row] = acc;
  }
}

// Template kernel, instantiated for float and double: 1 mul + 1 FMA = 3 flops
// per element.
// ideal (T = float):  flops.total = 3n, fp32 = 3n, special = 0, bytes.read = 8n, bytes.write = 4n
// ideal (T = double): flops.total = 3n, fp32 = 0, fp64 = 3n, special = 0,
//   bytes.read = 16n, bytes.write = 8n
// default axpby<float>, n = 67108864: flops.total = 201326592, fp32 = 201326592, special = 0,
//   bytes.read = 536870912, bytes.write = 268435456
// default axpby<double>, n = 33554432: flops.total = 100663296, fp32 = 0, fp64 = 100663296,
//   special = 0, bytes.read = 536870912, bytes.write = 268435456
template <typename T>
__global__ void axpby(int n, T a, const T* x, T b, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b * y[i];
}

// Horner form: 3 FMAs = 6 flops.
__device__ float poly3(float x) {
  return ((0.5f * x + 0.25f) * x - 1.0f) * x + 2.0f;
}

// Calls a __device__ helper (6 flops per call, one call per element).
// ideal: flops.total = 6n, fp32 = 6n, special = 0, bytes.read = 4n, bytes.write = 4n
// default n = 67108864: flops.total = 402653184, fp32 = 402653184, special = 0,
//   bytes.read = 268435456, bytes.write = 268435456
__global__ void apply_poly(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = poly3(in[i]);
}

// 1 mul + 1 FMA = 3 flops, 1 sqrt (special).
__device__ float length2(float a, float b) {
  return sqrtf(a * a + b * b);
}

// Calls a __device__ helper with a special function; float2 loads.
// ideal: flops.total = 3n, fp32 = 3n, special = n (sqrtf), bytes.read = 8n, bytes.write = 4n
// default n = 33554432: flops.total = 100663296, fp32 = 100663296, special = 33554432,
//   bytes.read = 268435456, bytes.write = 134217728
__global__ void vec2_length(const float2* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = v[i];
    out[i] = length2(p.x, p.y);
  }
}

// Data-dependent while loop: one mul per trip; trips(v) = number of halvings
// until v <= 1, so flops depend on the data (unknown statically).
// ideal: flops.total = sum_i trips(in[i]) (data-dependent), fp32 = same, special = 0,
//   bytes.read = 4n, bytes.write = 8n (out and steps)
// default n = 33554432, in[i] = 2^(i % 11) * u with u in (0.5, 1], so trips(in[i]) = i % 11:
//   flops.total = 167772155, fp32 = 167772155, special = 0,
//   bytes.read = 134217728, bytes.write = 268435456
__global__ void halve_until_small(const float* in, float* out, int* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    int k = 0;
    while (v > 1.0f) {
      v = v * 0.5f;
      ++k;
    }
    out[i] = v;
    steps[i] = k;
  }
}

// Early returns on both bounds; cols is not a multiple of blockDim.x, so the
// last block column is partial. ReLU via fmaxf (0 flops): 1 add per element.
// Launch: blockDim = (128, 4), gridDim = (ceil_div(cols, 128), ceil_div(rows, 4)).
// ideal: flops.total = rows*cols, fp32 = rows*cols, special = 0,
//   bytes.read = 4*rows*cols + 4*cols, bytes.write = 4*rows*cols
// default rows = 65536, cols = 1000: flops.total = 65536000, fp32 = 65536000, special = 0,
//   bytes.read = 262148000, bytes.write = 262144000
__global__ void add_bias_relu(const float* in, const float* bias, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= cols) return;
  if (r >= rows) return;
  float v = in[r * cols + c] + bias[c];
  out[r * cols + c] = fmaxf(v, 0.0f);
}

// ---------------------------------------------------------------- host side

static int g_reps = 2;
static bool g_ok = true;

static void run_gemv() {
  const int rows = 262144, cols = 256;
  const size_t elems = (size_t)rows * cols;
  Rng rng(31);
  std::vector<float> hA(elems), hx(cols);
  for (auto& v : hA) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hx) v = rng.uniform(-1.0f, 1.0f);
  float* dA = device_copy(hA);
  float* dx = device_copy(hx);
  float* dy = device_alloc<float>(rows);
  float ms = time_launches(
      g_reps, [&] { poison(dy, rows * sizeof(float)); },
      [&] { gemv_colmajor<<<512, 256>>>(dA, dx, dy, rows, cols); });
  std::vector<float> y = host_copy(dy, rows);
  std::vector<double> ref(rows, 0.0);
  for (int j = 0; j < cols; ++j)
    for (int r = 0; r < rows; ++r) ref[r] += (double)hA[(size_t)j * rows + r] * hx[j];
  double err = 0.0;
  for (int r = 0; r < rows; ++r) err = std::max(err, rel_err(y[r], ref[r], 1.0));
  g_ok &= report("gemv_colmajor", "rows=262144 cols=256", err, 1e-4, ms, g_reps);
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
}

template <typename T>
static void run_axpby(const char* name, int n, double tol) {
  const T a = (T)1.25, b = (T)-0.5;
  Rng rng(sizeof(T) == 4 ? 32 : 33);
  std::vector<T> hx(n), hy(n);
  for (auto& v : hx) v = (T)rng.uniform_d(-1.0, 1.0);
  for (auto& v : hy) v = (T)rng.uniform_d(-1.0, 1.0);
  T* dx = device_copy(hx);
  T* dy0 = device_copy(hy);
  T* dy = device_alloc<T>(n);
  float ms = time_launches(
      g_reps, [&] { CUDA_CHECK(cudaMemcpy(dy, dy0, n * sizeof(T), cudaMemcpyDeviceToDevice)); },
      [&] { axpby<T><<<(n + 255) / 256, 256>>>(n, a, dx, b, dy); });
  std::vector<T> out = host_copy(dy, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i)
    err = std::max(err, rel_err((double)out[i], (double)a * hx[i] + (double)b * hy[i], 1.0));
  char size[32];
  std::snprintf(size, sizeof size, "n=%d", n);
  g_ok &= report(name, size, err, tol, ms, g_reps);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy0));
  CUDA_CHECK(cudaFree(dy));
}

static void run_apply_poly() {
  const int n = 1 << 26;
  Rng rng(34);
  std::vector<float> hin(n);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { apply_poly<<<(n + 255) / 256, 256>>>(din, dout, n); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) {
    double x = hin[i];
    err = std::max(err, rel_err(out[i], ((0.5 * x + 0.25) * x - 1.0) * x + 2.0, 1.0));
  }
  g_ok &= report("apply_poly", "n=67108864", err, 1e-6, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

static void run_vec2_length() {
  const int n = 1 << 25;
  Rng rng(35);
  std::vector<float> hv(2 * (size_t)n);
  for (auto& v : hv) v = rng.uniform(-1.0f, 1.0f);
  float* dv = device_copy(hv);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { vec2_length<<<(n + 255) / 256, 256>>>(reinterpret_cast<const float2*>(dv), dout, n); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) {
    double a = hv[2 * (size_t)i], b = hv[2 * (size_t)i + 1];
    err = std::max(err, rel_err(out[i], std::sqrt(a * a + b * b), 1.0));
  }
  g_ok &= report("vec2_length", "n=33554432", err, 1e-6, ms, g_reps);
  CUDA_CHECK(cudaFree(dv));
  CUDA_CHECK(cudaFree(dout));
}

static void run_halve_until_small() {
  const int n = 1 << 25;
  Rng rng(36);
  std::vector<float> hin(n);
  long long expected_trips = 0;
  for (int i = 0; i < n; ++i) {
    float u = rng.uniform(0.5078125f, 1.0f);  // in (0.5, 1], never exactly 0.5
    hin[i] = std::ldexp(u, i % 11);
    expected_trips += i % 11;
  }
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(n);
  int* dsteps = device_alloc<int>(n);
  float ms = time_launches(
      g_reps,
      [&] {
        poison(dout, n * sizeof(float));
        poison(dsteps, n * sizeof(int));
      },
      [&] { halve_until_small<<<(n + 255) / 256, 256>>>(din, dout, dsteps, n); });
  std::vector<float> out = host_copy(dout, n);
  std::vector<int> steps = host_copy(dsteps, n);
  double err = 0.0;
  long long trips = 0;
  for (int i = 0; i < n; ++i) {
    trips += steps[i];
    if (steps[i] != i % 11) err = INFINITY;
    err = std::max(err, rel_err(out[i], std::ldexp((double)hin[i], -(i % 11)), 1.0));
  }
  if (trips != expected_trips) err = INFINITY;
  char size[64];
  std::snprintf(size, sizeof size, "n=33554432 trips=%lld", trips);
  g_ok &= report("halve_until_small", size, err, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dsteps));
}

static void run_add_bias_relu() {
  const int rows = 65536, cols = 1000;
  const size_t elems = (size_t)rows * cols;
  Rng rng(37);
  std::vector<float> hin(elems), hbias(cols);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hbias) v = rng.uniform(-0.5f, 0.5f);
  float* din = device_copy(hin);
  float* dbias = device_copy(hbias);
  float* dout = device_alloc<float>(elems);
  dim3 block(128, 4);
  dim3 grid((cols + 127) / 128, (rows + 3) / 4);
  float ms = time_launches(
      g_reps, [&] { poison(dout, elems * sizeof(float)); },
      [&] { add_bias_relu<<<grid, block>>>(din, dbias, dout, rows, cols); });
  std::vector<float> out = host_copy(dout, elems);
  double err = 0.0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      float v = hin[(size_t)r * cols + c] + hbias[c];  // same fp32 add as the GPU
      err = std::max(err, rel_err(out[(size_t)r * cols + c], v > 0.0f ? v : 0.0f, 1.0));
    }
  }
  g_ok &= report("add_bias_relu", "rows=65536 cols=1000", err, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dbias));
  CUDA_CHECK(cudaFree(dout));
}

int main(int argc, char** argv) {
  g_reps = parse_reps(argc, argv, "corpus-control", 2);
  run_gemv();
  run_axpby<float>("axpby<float>", 1 << 26, 1e-6);
  run_axpby<double>("axpby<double>", 1 << 25, 1e-14);
  run_apply_poly();
  run_vec2_length();
  run_halve_until_small();
  run_add_bias_relu();
  return g_ok ? 0 : 1;
}
