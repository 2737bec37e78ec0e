// The probe kernels. Memory kernels move 16-byte vectors; compute kernels run independent FMA chains so
// that the pipe, not the dependency latency, limits them. Nothing here reads zeros: every input is filled
// with random non-zero data first.
#include "Kernels.h"

#include "Cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <type_traits>

namespace roofcheck::probe::kernels {

namespace {

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fillBitsKernel(uint32_t *words, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    words[i] = static_cast<uint32_t>(splitmix64(seed ^ uint64_t(i))) | 1u;
}

template <typename T> __device__ T fromFloat(float v);
template <> __device__ double fromFloat<double>(float v) { return v; }
template <> __device__ float fromFloat<float>(float v) { return v; }
template <> __device__ __half fromFloat<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <> __device__ __nv_fp8_e4m3 fromFloat<__nv_fp8_e4m3>(float v) { return __nv_fp8_e4m3(v); }

template <typename T> __global__ void fillValuesKernel(T *values, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t h = splitmix64(seed ^ uint64_t(i));
    float magnitude = 0.5f + 0.5f * float(h >> 40) * (1.0f / 16777216.0f);
    values[i] = fromFloat<T>((h & 1) ? -magnitude : magnitude);
  }
}

template <typename T> void fillValues(void *data, size_t count, uint64_t seed, cudaStream_t stream) {
  fillValuesKernel<T><<<1024, 256, 0, stream>>>(static_cast<T *>(data), static_cast<int64_t>(count), seed);
  checkLaunch("fillValuesKernel");
}

// ---------------------------------------------------------------------------------------------- memory

// Vector v (0 <= v < Unroll) of this thread's step: a tile of blockDim.x * Unroll vectors per block
// (Tiled), or vectors a grid's width apart (Strided).
template <bool Tiled> struct StreamIndex {
  int64_t first, step, advance;
  __device__ StreamIndex(int unroll) {
    if constexpr (Tiled) {
      first = blockIdx.x * int64_t(blockDim.x) * unroll + threadIdx.x;
      step = blockDim.x;
      advance = int64_t(gridDim.x) * blockDim.x * unroll; // past the last tile: one step only
    } else {
      first = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
      step = int64_t(gridDim.x) * blockDim.x;
      advance = step * unroll;
    }
  }
};

// Each step issues Unroll independent 16-byte loads before the first store, so that enough requests are in
// flight per thread; a partial step at the end of the buffer is guarded element by element.
template <int Unroll, bool Tiled>
__global__ void copyKernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, int64_t n) {
  StreamIndex<Tiled> at(Unroll);
  for (int64_t i = at.first; i < n; i += at.advance) {
    if (i + (Unroll - 1) * at.step < n) {
      uint4 v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        v[u] = in[i + u * at.step];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        out[i + u * at.step] = v[u];
    } else {
      for (int u = 0; u < Unroll; ++u)
        if (i + u * at.step < n)
          out[i + u * at.step] = in[i + u * at.step];
    }
  }
}

__global__ void countDifferencesKernel(const uint4 *__restrict__ a, const uint4 *__restrict__ b, int64_t n,
                                       unsigned long long *count) {
  unsigned long long differ = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    uint4 x = a[i], y = b[i];
    differ += (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
  }
  if (differ)
    atomicAdd(count, differ);
}

__device__ __forceinline__ uint32_t fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <int Unroll, bool Tiled>
__global__ void readKernel(const uint4 *__restrict__ in, int64_t n, uint32_t sentinel, uint32_t *sink) {
  StreamIndex<Tiled> at(Unroll);
  uint32_t acc = 0;
  for (int64_t i = at.first; i < n; i += at.advance) {
    if (i + (Unroll - 1) * at.step < n) {
      uint4 v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        v[u] = in[i + u * at.step];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        acc ^= fold(v[u]);
    } else {
      for (int u = 0; u < Unroll; ++u)
        if (i + u * at.step < n)
          acc ^= fold(in[i + u * at.step]);
    }
  }
  if (acc == sentinel)
    sink[0] = acc;
}

__device__ __forceinline__ uint4 pattern(int64_t i, uint32_t seed) {
  uint32_t w = static_cast<uint32_t>(i) ^ seed;
  return make_uint4(w, w + 1, w + 2, w + 3);
}

template <int Unroll, bool Tiled> __global__ void writeKernel(uint4 *__restrict__ out, int64_t n, uint32_t seed) {
  StreamIndex<Tiled> at(Unroll);
  for (int64_t i = at.first; i < n; i += at.advance) {
    if (i + (Unroll - 1) * at.step < n) {
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        out[i + u * at.step] = pattern(i + u * at.step, seed);
    } else {
      for (int u = 0; u < Unroll; ++u)
        if (i + u * at.step < n)
          out[i + u * at.step] = pattern(i + u * at.step, seed);
    }
  }
}

__global__ void readL2Kernel(const uint4 *__restrict__ in, int64_t n, int passes, uint32_t sentinel, uint32_t *sink) {
  constexpr int Unroll = 4;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  uint32_t acc = 0;
  for (int pass = 0; pass < passes; ++pass) {
    int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
    for (; i + (Unroll - 1) * stride < n; i += Unroll * stride) {
      uint4 v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        v[u] = __ldcg(in + i + u * stride); // cache in L2 only: L1 must not serve the repeats
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        acc ^= fold(v[u]);
    }
    for (; i < n; i += stride)
      acc ^= fold(__ldcg(in + i));
  }
  if (acc == sentinel)
    sink[0] = acc;
}

// A warp reads 32 consecutive float4 (512 bytes): four conflict-free wavefronts, the shared memory's full
// width. The index depends on the iteration so that no load can be hoisted out of the loop.
__global__ void sharedReadKernel(const float4 *__restrict__ tileSource, float *sink, int iterations, float sentinel) {
  constexpr int TileVectors = SharedTileFloats / 4;
  __shared__ float4 tile[TileVectors];
  for (int i = threadIdx.x; i < TileVectors; i += blockDim.x)
    tile[i] = tileSource[i];
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  const unsigned step = blockDim.x;
  unsigned index = threadIdx.x;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < SharedUnroll; ++u) {
      float4 v = tile[(index + u * step) & (TileVectors - 1)];
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
    index += SharedUnroll * step + 32; // shift by a warp's width each iteration: new addresses, same banks
  }
  float total = acc.x + acc.y + acc.z + acc.w;
  if (total == sentinel)
    sink[0] = total;
}

// Kernel<Unroll, Tiled>::launch(...) for the unroll and layout of a configuration.
template <template <int, bool> class Kernel, typename... Args> void withConfig(const StreamConfig &c, Args... args) {
  auto pick = [&](auto tiled) {
    constexpr bool Tiled = decltype(tiled)::value;
    switch (c.unroll) {
    case 4: return Kernel<4, Tiled>::launch(args...);
    case 8: return Kernel<8, Tiled>::launch(args...);
    case 16: return Kernel<16, Tiled>::launch(args...);
    default: throw Error("unsupported unroll " + std::to_string(c.unroll) + " (4, 8 or 16)");
    }
  };
  if (c.layout == StreamLayout::Tiled)
    pick(std::true_type{});
  else
    pick(std::false_type{});
}

template <int Unroll, bool Tiled> struct CopyLaunch {
  static void launch(unsigned grid, int threads, cudaStream_t s, const void *in, void *out, int64_t n) {
    copyKernel<Unroll, Tiled><<<grid, threads, 0, s>>>(static_cast<const uint4 *>(in), static_cast<uint4 *>(out), n);
  }
};
template <int Unroll, bool Tiled> struct ReadLaunch {
  static void launch(unsigned grid, int threads, cudaStream_t s, const void *in, int64_t n, uint32_t sentinel,
                     uint32_t *sink) {
    readKernel<Unroll, Tiled><<<grid, threads, 0, s>>>(static_cast<const uint4 *>(in), n, sentinel, sink);
  }
};
template <int Unroll, bool Tiled> struct WriteLaunch {
  static void launch(unsigned grid, int threads, cudaStream_t s, void *out, int64_t n, uint32_t seed) {
    writeKernel<Unroll, Tiled><<<grid, threads, 0, s>>>(static_cast<uint4 *>(out), n, seed);
  }
};

// ------------------------------------------------------------------------------------------------ FMA

__device__ __forceinline__ double fmaOf(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float fmaOf(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ __half2 fmaOf(__half2 a, __half2 b, __half2 c) { return __hfma2(a, b, c); }
__device__ __forceinline__ __nv_bfloat162 fmaOf(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __hfma2(a, b, c);
}

template <typename T> __device__ T splat(float v);
template <> __device__ double splat<double>(float v) { return v; }
template <> __device__ float splat<float>(float v) { return v; }
template <> __device__ __half2 splat<__half2>(float v) { return __float2half2_rn(v); }
template <> __device__ __nv_bfloat162 splat<__nv_bfloat162>(float v) { return __float2bfloat162_rn(v); }

__device__ __forceinline__ double plus(double a, double b) { return a + b; }
__device__ __forceinline__ float plus(float a, float b) { return a + b; }
__device__ __forceinline__ __half2 plus(__half2 a, __half2 b) { return __hadd2(a, b); }
__device__ __forceinline__ __nv_bfloat162 plus(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }

// acc = acc * m + a converges to a / (1 - m) from any start, so the chains stay finite for any iteration
// count; m and a are kernel arguments, so the compiler cannot fold the recurrence.
template <typename T>
__global__ void fmaKernel(const T *__restrict__ seeds, T *__restrict__ sink, int iterations, float mul, float add) {
  const int64_t thread = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t threads = int64_t(gridDim.x) * blockDim.x;
  T acc[FmaChains];
#pragma unroll
  for (int c = 0; c < FmaChains; ++c)
    acc[c] = seeds[c * threads + thread];
  const T m = splat<T>(mul), a = splat<T>(add);
  // 32 x FmaChains FMAs per loop trip: the loop's own three instructions cost under half a percent.
#pragma unroll 32
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < FmaChains; ++c)
      acc[c] = fmaOf(acc[c], m, a);
  }
  T total = acc[0];
#pragma unroll
  for (int c = 1; c < FmaChains; ++c)
    total = plus(total, acc[c]);
  sink[thread] = total;
}

template <typename T>
void launchFma(const void *seeds, void *sink, int iterations, float mul, float add, int64_t blocks, int threads,
               cudaStream_t stream) {
  fmaKernel<T><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(static_cast<const T *>(seeds),
                                                                      static_cast<T *>(sink), iterations, mul, add);
  checkLaunch("fmaKernel");
}

} // namespace

void fillRandomBits(void *data, size_t bytes, uint64_t seed, cudaStream_t stream) {
  fillBitsKernel<<<1024, 256, 0, stream>>>(static_cast<uint32_t *>(data), static_cast<int64_t>(bytes / 4), seed);
  checkLaunch("fillBitsKernel");
}

void fillRandomValues(void *data, size_t count, ValueType type, uint64_t seed, cudaStream_t stream) {
  switch (type) {
  case ValueType::F64: return fillValues<double>(data, count, seed, stream);
  case ValueType::F32: return fillValues<float>(data, count, seed, stream);
  case ValueType::F16: return fillValues<__half>(data, count, seed, stream);
  case ValueType::BF16: return fillValues<__nv_bfloat16>(data, count, seed, stream);
  case ValueType::FP8E4M3: return fillValues<__nv_fp8_e4m3>(data, count, seed, stream);
  }
}

void copy(const void *in, void *out, int64_t vectors, const StreamConfig &c, cudaStream_t stream) {
  unsigned grid = static_cast<unsigned>(streamGrid(c, vectors));
  withConfig<CopyLaunch>(c, grid, c.threads, stream, in, out, vectors);
  checkLaunch("copyKernel");
}

int64_t countDifferences(const void *a, const void *b, int64_t vectors, unsigned long long *counter,
                         cudaStream_t stream) {
  ROOFCHECK_CUDA(cudaMemsetAsync(counter, 0, sizeof *counter, stream));
  countDifferencesKernel<<<1024, 256, 0, stream>>>(static_cast<const uint4 *>(a), static_cast<const uint4 *>(b),
                                                   vectors, counter);
  checkLaunch("countDifferencesKernel");
  unsigned long long count = 0;
  ROOFCHECK_CUDA(cudaMemcpyAsync(&count, counter, sizeof count, cudaMemcpyDeviceToHost, stream));
  ROOFCHECK_CUDA(cudaStreamSynchronize(stream));
  return static_cast<int64_t>(count);
}

void read(const void *in, int64_t vectors, uint32_t sentinel, uint32_t *sink, const StreamConfig &c,
          cudaStream_t stream) {
  unsigned grid = static_cast<unsigned>(streamGrid(c, vectors));
  withConfig<ReadLaunch>(c, grid, c.threads, stream, in, vectors, sentinel, sink);
  checkLaunch("readKernel");
}

void write(void *out, int64_t vectors, uint32_t seed, const StreamConfig &c, cudaStream_t stream) {
  unsigned grid = static_cast<unsigned>(streamGrid(c, vectors));
  withConfig<WriteLaunch>(c, grid, c.threads, stream, out, vectors, seed);
  checkLaunch("writeKernel");
}

void readL2(const void *in, int64_t vectors, int passes, uint32_t sentinel, uint32_t *sink, int64_t blocks,
            int threads, cudaStream_t stream) {
  readL2Kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(static_cast<const uint4 *>(in), vectors,
                                                                      passes, sentinel, sink);
  checkLaunch("readL2Kernel");
}

void readShared(const float *tile, float *sink, int iterations, float sentinel, int64_t blocks, int threads,
                cudaStream_t stream) {
  sharedReadKernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(reinterpret_cast<const float4 *>(tile),
                                                                          sink, iterations, sentinel);
  checkLaunch("sharedReadKernel");
}

size_t fmaValueBytes(FmaType type) {
  switch (type) {
  case FmaType::FP64: return 8;
  case FmaType::FP32: return 4;
  case FmaType::FP16x2: return 4;
  case FmaType::BF16x2: return 4;
  }
  return 0;
}

void fmaChains(FmaType type, const void *seeds, void *sink, int iterations, int64_t blocks, int threads,
               cudaStream_t stream) {
  // Fixed point a / (1 - m) of order 1 in every precision: no overflow, no subnormals.
  switch (type) {
  case FmaType::FP64: return launchFma<double>(seeds, sink, iterations, 0.999f, 0.001f, blocks, threads, stream);
  case FmaType::FP32: return launchFma<float>(seeds, sink, iterations, 0.999f, 0.001f, blocks, threads, stream);
  case FmaType::FP16x2: return launchFma<__half2>(seeds, sink, iterations, 0.99f, 0.01f, blocks, threads, stream);
  case FmaType::BF16x2:
    return launchFma<__nv_bfloat162>(seeds, sink, iterations, 0.99f, 0.01f, blocks, threads, stream);
  }
}

} // namespace roofcheck::probe::kernels
