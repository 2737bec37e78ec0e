// Host entry points of the probe kernels (Kernels.cu). Each enqueues one launch on the stream and checks
// it; the measured rate is counted by the caller from the sizes it passed.
#pragma once

#include "DeviceModel.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace roofcheck::probe::kernels {

/// Random 32-bit words, none of them zero.
void fillRandomBits(void *data, size_t bytes, uint64_t seed, cudaStream_t stream);

enum class ValueType { F64, F32, F16, BF16, FP8E4M3 };
/// `count` random values of magnitude in [0.5, 1) and random sign (never zero, never subnormal).
void fillRandomValues(void *data, size_t count, ValueType type, uint64_t seed, cudaStream_t stream);

// ---------------------------------------------------------------------------------------------- memory
// Buffers are counted in 16-byte vectors; the grid comes from streamGrid (DeviceModel.h).

void copy(const void *in, void *out, int64_t vectors, const StreamConfig &config, cudaStream_t stream);
/// How many 16-byte vectors differ between `a` and `b` (`counter`: 8 bytes of device scratch); synchronizes.
int64_t countDifferences(const void *a, const void *b, int64_t vectors, unsigned long long *counter,
                         cudaStream_t stream);
/// Reads every vector once; writes sink[0] only if the XOR of all it read equals `sentinel` (keeps the
/// loads alive without a store per thread).
void read(const void *in, int64_t vectors, uint32_t sentinel, uint32_t *sink, const StreamConfig &config,
          cudaStream_t stream);
/// Writes every vector once with a pattern derived from `seed` and the index.
void write(void *out, int64_t vectors, uint32_t seed, const StreamConfig &config, cudaStream_t stream);
/// Reads a working set `passes` times through L2 only (loads that skip L1), grid-stride.
void readL2(const void *in, int64_t vectors, int passes, uint32_t sentinel, uint32_t *sink, int64_t blocks,
            int threads, cudaStream_t stream);

/// Shared memory: each block loads a 32 KiB tile from `tile` (SharedTileFloats floats), then every thread
/// reads `iterations * SharedUnroll` 16-byte vectors from it, conflict-free.
constexpr int SharedTileFloats = 8192;
constexpr int SharedUnroll = 8;
void readShared(const float *tile, float *sink, int iterations, float sentinel, int64_t blocks, int threads,
                cudaStream_t stream);

// ------------------------------------------------------------------------------------------------ FMA

enum class FmaType { FP64, FP32, FP16x2, BF16x2 };
/// Independent FMA chains per thread; every chain does one FMA (of its vector width) per iteration.
constexpr int FmaChains = 8;
/// Bytes of one chain's value (the seeds buffer holds blocks * threads * FmaChains of them).
size_t fmaValueBytes(FmaType type);
void fmaChains(FmaType type, const void *seeds, void *sink, int iterations, int64_t blocks, int threads,
               cudaStream_t stream);

} // namespace roofcheck::probe::kernels
