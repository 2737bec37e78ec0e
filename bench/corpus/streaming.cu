// Corpus: streaming kernels (elementwise, vectorized, strided, indirect, fp64/fp16/bf16).
//
// Every kernel has an "ideal:" block right above it with the hand-derived
// expectations (DESIGN.md: add/sub/mul = 1 flop, FMA = 2, per SIMD lane, so a
// __hfma2 on a pair is 4; special functions apart; ideal bytes = unique global
// footprint read once + written once), then the values for the default size in
// main(). Working sets are >= 4x the 60 MB L2 of an H200.
//
// Usage: corpus-streaming [--reps K]   (default 2 launches per kernel)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "corpus_util.h"

// ideal: flops.total = 2n, fp32 = 2n, special = 0, bytes.read = 8n, bytes.write = 4n
// default n = 67108864: flops.total = 134217728, fp32 = 134217728, special = 0,
//   bytes.read = 536870912, bytes.write = 268435456
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// ideal: flops.total = 2n, fp32 = 0, fp64 = 2n, special = 0, bytes.read = 16n, bytes.write = 8n
// default n = 67108864: flops.total = 134217728, fp32 = 0, fp64 = 134217728, special = 0,
//   bytes.read = 1073741824, bytes.write = 536870912
__global__ void daxpy(int n, double a, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Grid-stride loop: the launch (1024 blocks x 256 threads) is smaller than n;
// each element is still visited exactly once.
// ideal: flops.total = n, fp32 = n, special = 0, bytes.read = 4n, bytes.write = 4n
// default n = 67108864: flops.total = 67108864, fp32 = 67108864, special = 0,
//   bytes.read = 268435456, bytes.write = 268435456
__global__ void scale_grid_stride(const float* in, float* out, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = s * in[i];
  }
}

// ideal: flops.total = 0, fp32 = 0, special = 0, bytes.read = 16*n4, bytes.write = 16*n4
// default n4 = 16777216: flops.total = 0, fp32 = 0, special = 0,
//   bytes.read = 268435456, bytes.write = 268435456
__global__ void copy_float4(const float4* in, float4* out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// Reads every stride-th float. Ideal read counts only the n floats used; with
// stride*4 >= 32 every load is its own 32-byte sector, so the predicted read
// traffic is 32n (8x ideal at stride = 8).
// ideal: flops.total = 0, fp32 = 0, special = 0, bytes.read = 4n, bytes.write = 4n
// default n = 8388608, stride = 8: flops.total = 0, fp32 = 0, special = 0,
//   bytes.read = 33554432, bytes.write = 33554432   (predicted read 268435456)
__global__ void strided_copy(const float* in, float* out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

// Indirect load: the footprint of in[] depends on the contents of idx[].
// ideal: flops.total = 0, fp32 = 0, special = 0,
//   bytes.read = 4n (idx) + 4*distinct(idx[0..n)) (in; data-dependent, unknown statically),
//   bytes.write = 4n
// default n = 33554432, idx = a random permutation of [0, n): flops.total = 0, fp32 = 0,
//   special = 0, bytes.read = 268435456, bytes.write = 134217728
__global__ void gather(const float* in, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// One __hfma2 per thread = 2 lanes x FMA = 4 flops.
// ideal: flops.total = 4*n2, fp32 = 0, fp16 = 4*n2, special = 0, bytes.read = 8*n2, bytes.write = 4*n2
// default n2 = 67108864: flops.total = 268435456, fp32 = 0, fp16 = 268435456, special = 0,
//   bytes.read = 536870912, bytes.write = 268435456
__global__ void haxpy_half2(const __half2* x, __half2* y, __half2 a, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

// ideal: flops.total = 4*n2, fp32 = 0, bf16 = 4*n2, special = 0, bytes.read = 8*n2, bytes.write = 4*n2
// default n2 = 67108864: flops.total = 268435456, fp32 = 0, bf16 = 268435456, special = 0,
//   bytes.read = 536870912, bytes.write = 268435456
__global__ void bf16axpy(const __nv_bfloat162* x, __nv_bfloat162* y, __nv_bfloat162 a, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

// ---------------------------------------------------------------- host side

static int g_reps = 2;
static bool g_ok = true;

static int blocks_for(long long n, int threads) { return (int)((n + threads - 1) / threads); }

static void run_saxpy() {
  const int n = 1 << 26;
  const float a = 1.5f;
  Rng rng(1);
  std::vector<float> hx(n), hy(n);
  for (auto& v : hx) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : hy) v = rng.uniform(-1.0f, 1.0f);
  float* dx = device_copy(hx);
  float* dy0 = device_copy(hy);
  float* dy = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { CUDA_CHECK(cudaMemcpy(dy, dy0, n * sizeof(float), cudaMemcpyDeviceToDevice)); },
      [&] { saxpy<<<blocks_for(n, 256), 256>>>(n, a, dx, dy); });
  std::vector<float> out = host_copy(dy, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) err = std::max(err, rel_err(out[i], (double)a * hx[i] + hy[i], 1.0));
  g_ok &= report("saxpy", "n=67108864", err, 1e-6, ms, g_reps);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy0));
  CUDA_CHECK(cudaFree(dy));
}

static void run_daxpy() {
  const int n = 1 << 26;
  const double a = 1.5;
  Rng rng(2);
  std::vector<double> hx(n), hy(n);
  for (auto& v : hx) v = rng.uniform_d(-1.0, 1.0);
  for (auto& v : hy) v = rng.uniform_d(-1.0, 1.0);
  double* dx = device_copy(hx);
  double* dy0 = device_copy(hy);
  double* dy = device_alloc<double>(n);
  float ms = time_launches(
      g_reps, [&] { CUDA_CHECK(cudaMemcpy(dy, dy0, n * sizeof(double), cudaMemcpyDeviceToDevice)); },
      [&] { daxpy<<<blocks_for(n, 256), 256>>>(n, a, dx, dy); });
  std::vector<double> out = host_copy(dy, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) err = std::max(err, rel_err(out[i], std::fma(a, hx[i], hy[i]), 1.0));
  g_ok &= report("daxpy", "n=67108864", err, 1e-14, ms, g_reps);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy0));
  CUDA_CHECK(cudaFree(dy));
}

static void run_scale_grid_stride() {
  const int n = 1 << 26;
  const float s = 0.75f;
  Rng rng(3);
  std::vector<float> hin(n);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { scale_grid_stride<<<1024, 256>>>(din, dout, s, n); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) err = std::max(err, rel_err(out[i], (double)s * hin[i], 1.0));
  g_ok &= report("scale_grid_stride", "n=67108864", err, 1e-6, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

static void run_copy_float4() {
  const int n4 = 1 << 24;
  Rng rng(4);
  std::vector<float> hin(4 * (size_t)n4);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(hin.size());
  float ms = time_launches(
      g_reps, [&] { poison(dout, hin.size() * sizeof(float)); },
      [&] {
        copy_float4<<<blocks_for(n4, 256), 256>>>(reinterpret_cast<const float4*>(din),
                                                  reinterpret_cast<float4*>(dout), n4);
      });
  std::vector<float> out = host_copy(dout, hin.size());
  const bool same = std::memcmp(out.data(), hin.data(), hin.size() * sizeof(float)) == 0;
  g_ok &= report("copy_float4", "n4=16777216", same ? 0.0 : INFINITY, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

static void run_strided_copy() {
  const int n = 1 << 23, stride = 8;
  Rng rng(5);
  std::vector<float> hin((size_t)n * stride);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  float* din = device_copy(hin);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { strided_copy<<<blocks_for(n, 256), 256>>>(din, dout, n, stride); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) err = std::max(err, rel_err(out[i], hin[(size_t)i * stride], 1.0));
  g_ok &= report("strided_copy", "n=8388608 stride=8", err, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
}

static void run_gather() {
  const int n = 1 << 25;
  Rng rng(6);
  std::vector<float> hin(n);
  for (auto& v : hin) v = rng.uniform(-1.0f, 1.0f);
  std::vector<int> hidx(n);
  for (int i = 0; i < n; ++i) hidx[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(hidx[i], hidx[rng.below((uint32_t)i + 1)]);
  float* din = device_copy(hin);
  int* didx = device_copy(hidx);
  float* dout = device_alloc<float>(n);
  float ms = time_launches(
      g_reps, [&] { poison(dout, n * sizeof(float)); },
      [&] { gather<<<blocks_for(n, 256), 256>>>(din, didx, dout, n); });
  std::vector<float> out = host_copy(dout, n);
  double err = 0.0;
  for (int i = 0; i < n; ++i) err = std::max(err, rel_err(out[i], hin[hidx[i]], 1.0));
  g_ok &= report("gather", "n=33554432", err, 0.0, ms, g_reps);
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(didx));
  CUDA_CHECK(cudaFree(dout));
}

static void run_haxpy_half2() {
  const int n2 = 1 << 26;
  const float a = 0.5f;
  Rng rng(7);
  std::vector<__half> hx(2 * (size_t)n2), hy(2 * (size_t)n2);
  for (auto& v : hx) v = __float2half(rng.uniform(-1.0f, 1.0f));
  for (auto& v : hy) v = __float2half(rng.uniform(-1.0f, 1.0f));
  __half* dx = device_copy(hx);
  __half* dy0 = device_copy(hy);
  __half* dy = device_alloc<__half>(hy.size());
  const __half2 a2 = __float2half2_rn(a);
  float ms = time_launches(
      g_reps,
      [&] { CUDA_CHECK(cudaMemcpy(dy, dy0, hy.size() * sizeof(__half), cudaMemcpyDeviceToDevice)); },
      [&] {
        haxpy_half2<<<blocks_for(n2, 256), 256>>>(reinterpret_cast<const __half2*>(dx),
                                                  reinterpret_cast<__half2*>(dy), a2, n2);
      });
  std::vector<__half> out = host_copy(dy, hy.size());
  double err = 0.0;
  for (size_t i = 0; i < out.size(); ++i) {
    double ref = (double)a * __half2float(hx[i]) + __half2float(hy[i]);
    err = std::max(err, rel_err(__half2float(out[i]), ref, 1.0));
  }
  g_ok &= report("haxpy_half2", "n2=67108864", err, 2e-3, ms, g_reps);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy0));
  CUDA_CHECK(cudaFree(dy));
}

static void run_bf16axpy() {
  const int n2 = 1 << 26;
  const float a = 0.5f;
  Rng rng(8);
  std::vector<__nv_bfloat16> hx(2 * (size_t)n2), hy(2 * (size_t)n2);
  for (auto& v : hx) v = __float2bfloat16(rng.uniform(-1.0f, 1.0f));
  for (auto& v : hy) v = __float2bfloat16(rng.uniform(-1.0f, 1.0f));
  __nv_bfloat16* dx = device_copy(hx);
  __nv_bfloat16* dy0 = device_copy(hy);
  __nv_bfloat16* dy = device_alloc<__nv_bfloat16>(hy.size());
  const __nv_bfloat162 a2 = __float2bfloat162_rn(a);
  float ms = time_launches(
      g_reps,
      [&] {
        CUDA_CHECK(cudaMemcpy(dy, dy0, hy.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToDevice));
      },
      [&] {
        bf16axpy<<<blocks_for(n2, 256), 256>>>(reinterpret_cast<const __nv_bfloat162*>(dx),
                                               reinterpret_cast<__nv_bfloat162*>(dy), a2, n2);
      });
  std::vector<__nv_bfloat16> out = host_copy(dy, hy.size());
  double err = 0.0;
  for (size_t i = 0; i < out.size(); ++i) {
    double ref = (double)a * __bfloat162float(hx[i]) + __bfloat162float(hy[i]);
    err = std::max(err, rel_err(__bfloat162float(out[i]), ref, 1.0));
  }
  g_ok &= report("bf16axpy", "n2=67108864", err, 1.6e-2, ms, g_reps);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy0));
  CUDA_CHECK(cudaFree(dy));
}

int main(int argc, char** argv) {
  g_reps = parse_reps(argc, argv, "corpus-streaming", 2);
  run_saxpy();
  run_daxpy();
  run_scale_grid_stride();
  run_copy_float4();
  run_strided_copy();
  run_gather();
  run_haxpy_half2();
  run_bf16axpy();
  return g_ok ? 0 : 1;
}
