// Exploration for issue 5 (not part of the build): which DRAM copy method moves the most bytes on an H200.
// Screens SM copy kernels (load/store cache hints, unroll, block size), bulk-copy (TMA, cp.async.bulk)
// kernels (chunk size, stages, CTAs per SM, rolling or batched, contiguous or interleaved chunks, L2 hints)
// and cudaMemcpyAsync; then sweeps the working set and the destination's offset for the best ones and
// measures the finalists against cudaMemcpyAsync alternately. Every variant's output is checked once.
// Results (H200, 2026-11-30) and what the probe took from them: docs/benchmarks.md, "Ceiling probes".
// usage: copy-explore [REPETITION_SCALE] [placement]   (placement: the second round only)
// build: nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 bench/copy-explore.cu -o copy-explore
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CK(call)                                                                                                   \
  do {                                                                                                             \
    cudaError_t e_ = (call);                                                                                       \
    if (e_ != cudaSuccess) {                                                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));                  \
      std::exit(1);                                                                                                \
    }                                                                                                              \
  } while (0)

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fillKernel(uint32_t *w, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    w[i] = uint32_t(splitmix64(seed ^ uint64_t(i))) | 1u;
}

__global__ void diffKernel(const uint4 *a, const uint4 *b, int64_t n, unsigned long long *bad) {
  unsigned long long local = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    uint4 x = a[i], y = b[i];
    local += (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
  }
  if (local)
    atomicAdd(bad, local);
}

// ------------------------------------------------------------------------------------------- SM copies

__device__ __forceinline__ uint64_t evictFirstPolicy() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ __forceinline__ uint64_t evictLastPolicy() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  return p;
}

// Load kinds: 0 __ldg (LDG.128 through the non-coherent path), 1 ld.global.nc.L1::no_allocate + L2
// evict_first, 2 coherent ld.global (ptxas cannot move a store above a later coherent load, so all loads
// stay ahead of the stores), 3 coherent with L1::no_allocate + L2 evict_first. Store kinds: 0 plain,
// 1 st.global.cs, 2 L2 evict_first, 3 L2 evict_last.
template <int Load> __device__ __forceinline__ uint4 load16(const uint4 *p, uint64_t policy) {
  uint4 v;
  if constexpr (Load == 0) {
    v = __ldg(p);
  } else if constexpr (Load == 1) {
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p), "l"(policy));
  } else if constexpr (Load == 2) {
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else {
    asm volatile("ld.global.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p), "l"(policy));
  }
  return v;
}
template <int Store> __device__ __forceinline__ void store16(uint4 *p, uint4 v, uint64_t policy) {
  if constexpr (Store == 0) {
    *p = v;
  } else if constexpr (Store == 1) {
    __stcs(p, v);
  } else {
    asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w), "l"(policy)
                 : "memory");
  }
}

// Tiled: each block copies one contiguous tile of blockDim.x * Unroll vectors, all loads before the stores.
template <int Unroll, int Load, int Store>
__global__ void copySm(const uint4 *__restrict__ in, uint4 *__restrict__ out, int64_t n) {
  uint64_t loadPolicy = (Load == 1 || Load == 3) ? evictFirstPolicy() : 0;
  uint64_t storePolicy = Store == 3 ? evictLastPolicy() : Store == 2 ? evictFirstPolicy() : 0;
  int64_t i = blockIdx.x * int64_t(blockDim.x) * Unroll + threadIdx.x;
  if (i + (Unroll - 1) * int64_t(blockDim.x) < n) {
    uint4 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      v[u] = load16<Load>(in + i + u * blockDim.x, loadPolicy);
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      store16<Store>(out + i + u * blockDim.x, v[u], storePolicy);
  } else {
    for (int u = 0; u < Unroll; ++u)
      if (i + u * blockDim.x < n)
        out[i + u * blockDim.x] = in[i + u * blockDim.x];
  }
}

// Resident grid, each block streaming through its own contiguous region tile by tile.
template <int Unroll>
__global__ void copyRegion(const uint4 *__restrict__ in, uint4 *__restrict__ out, int64_t n) {
  const int64_t tile = int64_t(blockDim.x) * Unroll, tiles = (n + tile - 1) / tile;
  const int64_t per = (tiles + gridDim.x - 1) / gridDim.x;
  for (int64_t t = blockIdx.x * per; t < (blockIdx.x + 1) * per && t < tiles; ++t) {
    int64_t i = t * tile + threadIdx.x;
    if (i + (Unroll - 1) * int64_t(blockDim.x) < n) {
      uint4 v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        v[u] = load16<2>(in + i + u * blockDim.x, 0);
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        out[i + u * blockDim.x] = v[u];
    } else {
      for (int u = 0; u < Unroll; ++u)
        if (i + u * blockDim.x < n)
          out[i + u * blockDim.x] = in[i + u * blockDim.x];
    }
  }
}

// --------------------------------------------------------------------------------------- bulk copies

__device__ __forceinline__ uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrierInit(uint32_t bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void barrierWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n.reg .pred done;\nWAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n}" ::"r"(bar),
               "r"(parity)
               : "memory");
}
// Hints: 0 none, 1 loads evict_first, 2 loads and stores evict_first, 3 loads evict_first, stores evict_last.
__device__ __forceinline__ void bulkLoad(uint32_t dst, const char *src, uint32_t bytes, uint32_t bar, int hint,
                                         uint64_t first) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
  if (hint == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
  else
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::
            "r"(dst),
        "l"(src), "r"(bytes), "r"(bar), "l"(first)
        : "memory");
}
__device__ __forceinline__ void bulkStore(char *dst, uint32_t src, uint32_t bytes, int hint, uint64_t first,
                                          uint64_t last) {
  if (hint <= 1)
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src), "r"(bytes)
                 : "memory");
  else
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(dst),
                 "r"(src), "r"(bytes), "l"(hint == 2 ? first : last)
                 : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

constexpr int MaxStages = 32;

__device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

struct BulkParams {
  int chunk;       // bytes per cp.async.bulk
  int stages;      // shared-memory buffers of `chunk` bytes
  int batched;     // 0: rolling pipeline; 1: load all stages, then store all, then wait
  int contiguous;  // 0: chunk k of block b is b + k * grid; 1: each block copies one contiguous range
  int hint;
};

// One thread per block drives the copy engine: loads chunks into shared memory (completing on an mbarrier
// per stage), stores each chunk back out as soon as it lands, and refills a stage once its store has read it.
__global__ void __launch_bounds__(32) copyBulk(const char *in, char *out, int64_t bytes, BulkParams p) {
  extern __shared__ __align__(128) char buffer[];
  __shared__ __align__(8) uint64_t bars[MaxStages];
  if (threadIdx.x != 0)
    return;
  const int64_t chunks = (bytes + p.chunk - 1) / p.chunk;
  const int64_t grid = gridDim.x;
  int64_t first, count, step;
  if (p.contiguous) {
    int64_t per = chunks / grid, extra = chunks % grid;
    first = blockIdx.x * per + min64(blockIdx.x, extra);
    count = per + (blockIdx.x < extra);
    step = 1;
  } else {
    first = blockIdx.x;
    count = blockIdx.x < chunks ? (chunks - 1 - blockIdx.x) / grid + 1 : 0;
    step = grid;
  }
  uint64_t evictFirst = evictFirstPolicy(), evictLast = evictLastPolicy();
  const uint32_t base = smemAddress(buffer), bar0 = smemAddress(bars);
  for (int s = 0; s < p.stages; ++s)
    barrierInit(bar0 + 8 * s);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");

  auto offsetOf = [&](int64_t k) { return (first + k * step) * int64_t(p.chunk); };
  auto sizeOf = [&](int64_t k) { return uint32_t(min64(p.chunk, bytes - offsetOf(k))); };
  auto load = [&](int64_t k) {
    int s = int(k % p.stages);
    bulkLoad(base + s * p.chunk, in + offsetOf(k), sizeOf(k), bar0 + 8 * s, p.hint, evictFirst);
  };
  auto store = [&](int64_t k) {
    int s = int(k % p.stages);
    bulkStore(out + offsetOf(k), base + s * p.chunk, sizeOf(k), p.hint, evictFirst, evictLast);
  };

  if (!p.batched) {
    for (int64_t k = 0; k < min64(p.stages, count); ++k)
      load(k);
    for (int64_t k = 0; k < count; ++k) {
      barrierWait(bar0 + 8 * int(k % p.stages), uint32_t((k / p.stages) & 1));
      store(k);
      // Chunk k-1's store was issued an iteration ago: once it has read its stage, refill that stage.
      if (k >= 1 && k - 1 + p.stages < count) {
        asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        load(k - 1 + p.stages);
      }
    }
  } else {
    for (int64_t round = 0; round * p.stages < count; ++round) {
      int64_t k0 = round * p.stages, m = min64(p.stages, count - k0);
      for (int64_t j = 0; j < m; ++j)
        load(k0 + j);
      for (int64_t j = 0; j < m; ++j) {
        barrierWait(bar0 + 8 * int(j), uint32_t(round & 1));
        store(k0 + j);
      }
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// ------------------------------------------------------------------------------------------- harness

struct Stats {
  double median = 0, min = 0, max = 0;
};

static cudaStream_t stream;
static std::vector<cudaEvent_t> events;
static int sms;
static size_t smemOptin;

using Launch = std::function<void()>;

Stats measure(const Launch &launch, double bytesMoved, int warm, int timed) {
  while (int(events.size()) < timed + 1) {
    cudaEvent_t e;
    CK(cudaEventCreate(&e));
    events.push_back(e);
  }
  for (int i = 0; i < warm; ++i)
    launch();
  CK(cudaEventRecord(events[0], stream));
  for (int i = 0; i < timed; ++i) {
    launch();
    CK(cudaEventRecord(events[i + 1], stream));
  }
  CK(cudaStreamSynchronize(stream));
  CK(cudaGetLastError());
  std::vector<double> rates;
  for (int i = 0; i < timed; ++i) {
    float ms;
    CK(cudaEventElapsedTime(&ms, events[i], events[i + 1]));
    rates.push_back(bytesMoved / (ms * 1e-3));
  }
  std::sort(rates.begin(), rates.end());
  return {rates[rates.size() / 2], rates.front(), rates.back()};
}

struct Variant {
  std::string name;
  std::function<void(const char *, char *, int64_t)> run; // in, out, bytes
};

template <int Unroll, int Load, int Store> Variant smVariant(int threads) {
  char name[96];
  std::snprintf(name, sizeof name, "sm tiled t%d u%d load%d store%d", threads, Unroll, Load, Store);
  return {name, [threads](const char *in, char *out, int64_t bytes) {
            int64_t n = bytes / 16, perBlock = int64_t(threads) * Unroll;
            copySm<Unroll, Load, Store><<<unsigned((n + perBlock - 1) / perBlock), threads, 0, stream>>>(
                reinterpret_cast<const uint4 *>(in), reinterpret_cast<uint4 *>(out), n);
          }};
}

Variant bulkVariant(int perSm, BulkParams p) {
  char name[128];
  std::snprintf(name, sizeof name, "bulk %d/SM chunk %dK x%d %s %s hint%d", perSm, p.chunk / 1024, p.stages,
                p.batched ? "batched" : "rolling", p.contiguous ? "contig" : "interleaved", p.hint);
  return {name, [perSm, p](const char *in, char *out, int64_t bytes) {
            size_t smem = size_t(p.chunk) * p.stages;
            copyBulk<<<unsigned(sms * perSm), 32, smem, stream>>>(in, out, bytes, p);
          }};
}

Variant memcpyVariant() {
  return {"cudaMemcpyAsync D2D", [](const char *in, char *out, int64_t bytes) {
            CK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
          }};
}

// As many blocks as are resident at once (from the occupancy calculator), so that no region waits for a
// second wave.
template <int Unroll> Variant regionVariant(int threads) {
  int perSm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, copyRegion<Unroll>, threads, 0));
  char name[96];
  std::snprintf(name, sizeof name, "sm region t%d u%d %d/SM", threads, Unroll, perSm);
  return {name, [threads, perSm](const char *in, char *out, int64_t bytes) {
            copyRegion<Unroll><<<unsigned(sms * perSm), threads, 0, stream>>>(
                reinterpret_cast<const uint4 *>(in), reinterpret_cast<uint4 *>(out), bytes / 16);
          }};
}

// cudaMemcpyAsync split into `parts` contiguous pieces, each on its own stream, all between the events on
// the timing stream.
Variant splitMemcpyVariant(int parts) {
  static std::vector<cudaStream_t> sides;
  static std::vector<cudaEvent_t> marks;
  while (int(sides.size()) < parts) {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    sides.push_back(s);
  }
  while (int(marks.size()) < parts + 1) { // marks[0]: fork; marks[1 + j]: stream j done
    cudaEvent_t e;
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    marks.push_back(e);
  }
  return {"cudaMemcpyAsync D2D split in " + std::to_string(parts) + " streams",
          [parts](const char *in, char *out, int64_t bytes) {
            int64_t piece = bytes / parts / 4096 * 4096;
            CK(cudaEventRecord(marks[0], stream));
            for (int j = 0; j < parts; ++j) {
              int64_t at = j * piece, size = j == parts - 1 ? bytes - at : piece;
              CK(cudaStreamWaitEvent(sides[j], marks[0]));
              CK(cudaMemcpyAsync(out + at, in + at, size, cudaMemcpyDeviceToDevice, sides[j]));
              CK(cudaEventRecord(marks[1 + j], sides[j]));
              CK(cudaStreamWaitEvent(stream, marks[1 + j]));
            }
          }};
}

bool verify(const Variant &v, const char *in, char *out, int64_t bytes, unsigned long long *bad) {
  fillKernel<<<1024, 256, 0, stream>>>(reinterpret_cast<uint32_t *>(out), bytes / 4, 12345);
  v.run(in, out, bytes);
  CK(cudaMemsetAsync(bad, 0, 8, stream));
  diffKernel<<<1024, 256, 0, stream>>>(reinterpret_cast<const uint4 *>(in), reinterpret_cast<const uint4 *>(out),
                                       bytes / 16, bad);
  unsigned long long h = 0;
  CK(cudaMemcpyAsync(&h, bad, 8, cudaMemcpyDeviceToHost, stream));
  CK(cudaStreamSynchronize(stream));
  CK(cudaGetLastError());
  return h == 0;
}

// Second round: the copies at other placements of the destination relative to the source (the first
// round's rates moved with it), separately allocated buffers as the probe has them, memcpy split over
// streams, and resident blocks that each stream through their own region.
int placementStudy(char *pool, int64_t maxBytes, int64_t bytes, double scale, unsigned long long *bad) {
  const int64_t KiB = 1024, MiB = KiB * KiB;
  std::vector<Variant> variants = {memcpyVariant(), smVariant<16, 0, 0>(128), smVariant<4, 0, 0>(1024),
                                   smVariant<16, 2, 0>(512)};
  char *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  fillKernel<<<4096, 256, 0, stream>>>(reinterpret_cast<uint32_t *>(a), bytes / 4, 0xbeefull);
  std::printf("separate buffers: source %p destination %p (destination - source = %lld)\n", (void *)a, (void *)b,
              (long long)(b - a));
  std::vector<Variant> more = {splitMemcpyVariant(2), splitMemcpyVariant(4), regionVariant<8>(256),
                               regionVariant<16>(128), regionVariant<4>(1024)};
  std::printf("\n== separate buffers\n");
  for (const Variant &v : variants) {
      Stats s = measure([&] { v.run(a, b, bytes); }, 2.0 * bytes, 10, int(60 * scale));
      std::printf("separate %-52s %.4f TB/s (min %.4f max %.4f)\n", v.name.c_str(), s.median / 1e12, s.min / 1e12,
                  s.max / 1e12);
    }
  for (const Variant &v : more) {
    if (!verify(v, a, b, bytes, bad)) {
      std::printf("WRONG OUTPUT: %s\n", v.name.c_str());
      continue;
    }
    Stats s = measure([&] { v.run(a, b, bytes); }, 2.0 * bytes, 10, int(60 * scale));
    std::printf("separate %-52s %.4f TB/s (min %.4f max %.4f)\n", v.name.c_str(), s.median / 1e12, s.min / 1e12,
                s.max / 1e12);
    std::fflush(stdout);
  }
  std::printf("\n== destination at pool + %lld + delta, source at pool\n", (long long)bytes);
  struct Best {
    double rate;
    int64_t delta;
    size_t variant;
  };
  std::vector<Best> all;
  for (int64_t delta : {int64_t(0), int64_t(256), int64_t(512), KiB, 2 * KiB, 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB,
                        64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, MiB, 2 * MiB, 3 * MiB, 4 * MiB, 6 * MiB, 8 * MiB,
                        12 * MiB, 16 * MiB, 24 * MiB, 32 * MiB, 48 * MiB})
    for (size_t i = 0; i < variants.size(); ++i) {
      if (bytes + delta + bytes > 2 * maxBytes + 16 * MiB)
        continue;
      char *d = pool + bytes + delta;
      Stats s = measure([&] { variants[i].run(pool, d, bytes); }, 2.0 * bytes, 8, int(40 * scale));
      all.push_back({s.median, delta, i});
      std::printf("delta %9lld %-52s %.4f TB/s (min %.4f max %.4f)\n", (long long)delta, variants[i].name.c_str(),
                  s.median / 1e12, s.min / 1e12, s.max / 1e12);
      std::fflush(stdout);
    }
  std::sort(all.begin(), all.end(), [](const Best &x, const Best &y) { return x.rate > y.rate; });
  std::printf("\n== best 4 placements again, 3 alternating rounds of 100 launches, with memcpy on separate buffers\n");
  for (int round = 0; round < 3; ++round) {
    for (size_t r = 0; r < std::min<size_t>(4, all.size()); ++r) {
      const Variant &v = variants[all[r].variant];
      char *d = pool + bytes + all[r].delta;
      Stats s = measure([&] { v.run(pool, d, bytes); }, 2.0 * bytes, 10, int(100 * scale));
      std::printf("round %d delta %9lld %-52s %.4f TB/s (min %.4f max %.4f)\n", round, (long long)all[r].delta,
                  v.name.c_str(), s.median / 1e12, s.min / 1e12, s.max / 1e12);
    }
    Stats s = measure([&] { variants[0].run(a, b, bytes); }, 2.0 * bytes, 10, int(100 * scale));
    std::printf("round %d separate %-52s %.4f TB/s (min %.4f max %.4f)\n", round, variants[0].name.c_str(),
                s.median / 1e12, s.min / 1e12, s.max / 1e12);
    std::fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0; // repetition scale
  CK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  sms = prop.multiProcessorCount;
  smemOptin = prop.sharedMemPerBlockOptin;
  CK(cudaFuncSetAttribute(copyBulk, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemOptin) - 1024));
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::printf("%s, %d SMs, L2 %d MiB, smem optin %zu, bus %d bit\n", prop.name, sms, prop.l2CacheSize >> 20, smemOptin,
              prop.memoryBusWidth);

  const int64_t GiB = int64_t(1) << 30, MiB = int64_t(1) << 20;
  const int64_t probeBytes = std::max<int64_t>(64 * int64_t(prop.l2CacheSize), 2 * GiB) / MiB * MiB;
  const int64_t maxBytes = std::max<int64_t>(probeBytes, 4 * GiB);
  char *pool;
  const int64_t slack = 16 * MiB;
  CK(cudaMalloc(&pool, 2 * maxBytes + slack));
  unsigned long long *bad;
  CK(cudaMalloc(&bad, 8));
  fillKernel<<<4096, 256, 0, stream>>>(reinterpret_cast<uint32_t *>(pool), (2 * maxBytes + slack) / 4, 0xfeedull);
  CK(cudaStreamSynchronize(stream));

  if (argc > 2 && std::string(argv[2]) == "placement")
    return placementStudy(pool, maxBytes, probeBytes, scale, bad);

  std::vector<Variant> variants;
  variants.push_back(memcpyVariant());
  for (int t : {128, 256, 512}) {
    variants.push_back(smVariant<8, 0, 0>(t));
    variants.push_back(smVariant<16, 0, 0>(t));
    variants.push_back(smVariant<8, 1, 1>(t));
    variants.push_back(smVariant<8, 2, 0>(t));
    variants.push_back(smVariant<16, 2, 0>(t));
    variants.push_back(smVariant<8, 2, 1>(t));
    variants.push_back(smVariant<16, 2, 1>(t));
    variants.push_back(smVariant<8, 3, 0>(t));
    variants.push_back(smVariant<16, 3, 0>(t));
    variants.push_back(smVariant<8, 3, 1>(t));
    variants.push_back(smVariant<16, 3, 2>(t));
    variants.push_back(smVariant<8, 3, 3>(t));
  }
  variants.push_back(smVariant<32, 2, 0>(64));
  variants.push_back(smVariant<32, 3, 1>(64));
  variants.push_back(smVariant<4, 0, 0>(1024));
  struct Shape {
    int perSm, chunkK, stages;
  };
  const size_t budget = smemOptin - 1024; // per SM, all blocks together (227 KB on sm_90)
  for (Shape s : {Shape{1, 16, 12}, Shape{1, 32, 6}, Shape{1, 64, 3}, Shape{1, 32, 4}, Shape{1, 16, 8},
                  Shape{1, 8, 24}, Shape{2, 16, 6}, Shape{2, 32, 3}, Shape{2, 8, 12}, Shape{2, 16, 4},
                  Shape{4, 16, 3}, Shape{4, 8, 6}, Shape{4, 4, 12}, Shape{8, 8, 3}, Shape{8, 4, 6}}) {
    if (size_t(s.perSm) * s.chunkK * 1024 * s.stages > budget)
      continue;
    for (int batched : {0, 1})
      for (int contiguous : {0, 1})
        for (int hint : {0, 1, 2})
          variants.push_back(bulkVariant(s.perSm, {s.chunkK * 1024, s.stages, batched, contiguous, hint}));
  }
  for (Shape s : {Shape{1, 16, 12}, Shape{2, 16, 6}, Shape{4, 8, 6}})
    for (int contiguous : {0, 1})
      variants.push_back(bulkVariant(s.perSm, {s.chunkK * 1024, s.stages, 0, contiguous, 3}));

  char *src = pool, *dst = pool + maxBytes + 4 * MiB;
  std::printf("\n== screening at %.2f GiB (the probe's size), %zu variants\n", double(probeBytes) / GiB,
              variants.size());
  struct Result {
    size_t index;
    Stats s;
  };
  std::vector<Result> results;
  for (size_t i = 0; i < variants.size(); ++i) {
    const Variant &v = variants[i];
    if (!verify(v, src, dst, probeBytes, bad)) {
      std::printf("WRONG OUTPUT: %s\n", v.name.c_str());
      continue;
    }
    Stats s = measure([&] { v.run(src, dst, probeBytes); }, 2.0 * probeBytes, 4, int(20 * scale));
    results.push_back({i, s});
    std::printf("%-52s %.4f TB/s (min %.4f max %.4f)\n", v.name.c_str(), s.median / 1e12, s.min / 1e12,
                s.max / 1e12);
    std::fflush(stdout);
  }
  std::sort(results.begin(), results.end(), [](const Result &a, const Result &b) { return a.s.median > b.s.median; });
  std::printf("\n== top 12\n");
  for (size_t r = 0; r < std::min<size_t>(12, results.size()); ++r)
    std::printf("%-52s %.4f TB/s\n", variants[results[r].index].name.c_str(), results[r].s.median / 1e12);

  // Finalists: the best 6, the best SM kernel and memcpy, measured alternately over three rounds.
  std::vector<size_t> finalists;
  for (size_t r = 0; r < std::min<size_t>(6, results.size()); ++r)
    finalists.push_back(results[r].index);
  for (const Result &r : results)
    if (variants[r.index].name.rfind("sm ", 0) == 0) {
      if (std::find(finalists.begin(), finalists.end(), r.index) == finalists.end())
        finalists.push_back(r.index);
      break;
    }
  if (std::find(finalists.begin(), finalists.end(), size_t(0)) == finalists.end())
    finalists.push_back(0);

  std::printf("\n== finalists, 3 alternating rounds of 100 launches at %.2f GiB\n", double(probeBytes) / GiB);
  for (int round = 0; round < 3; ++round)
    for (size_t i : finalists) {
      const Variant &v = variants[i];
      Stats s = measure([&] { v.run(src, dst, probeBytes); }, 2.0 * probeBytes, 10, int(100 * scale));
      std::printf("round %d %-52s %.4f TB/s (min %.4f max %.4f)\n", round, v.name.c_str(), s.median / 1e12,
                  s.min / 1e12, s.max / 1e12);
      std::fflush(stdout);
    }

  std::printf("\n== working set (GiB) x finalists\n");
  for (int64_t bytes : {GiB, 2 * GiB, 4 * GiB})
    for (size_t i : finalists) {
      const Variant &v = variants[i];
      Stats s = measure([&] { v.run(src, dst, bytes); }, 2.0 * bytes, 10, int(60 * scale));
      std::printf("%.0f GiB %-52s %.4f TB/s (min %.4f max %.4f)\n", double(bytes) / GiB, v.name.c_str(),
                  s.median / 1e12, s.min / 1e12, s.max / 1e12);
      std::fflush(stdout);
    }

  std::printf("\n== destination offset from the end of the source, best 2 and memcpy\n");
  std::vector<size_t> offsetSet = {results[0].index, results.size() > 1 ? results[1].index : results[0].index, 0};
  for (int64_t delta : {int64_t(0), int64_t(4096), int64_t(65536), MiB + 4096, 3 * MiB, 2 * MiB + 512 * 1024})
    for (size_t i : offsetSet) {
      const Variant &v = variants[i];
      char *d = src + probeBytes + delta;
      Stats s = measure([&] { v.run(src, d, probeBytes); }, 2.0 * probeBytes, 10, int(60 * scale));
      std::printf("delta %8lld %-52s %.4f TB/s (min %.4f max %.4f)\n", (long long)delta, v.name.c_str(),
                  s.median / 1e12, s.min / 1e12, s.max / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
