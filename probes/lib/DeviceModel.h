// What the probes need to know about a device, as plain numbers (filled from cudaGetDeviceProperties and
// cudaDeviceGetAttribute on the GPU side), and everything derived from them without a GPU: problem sizes,
// launch configurations, theoretical peaks at a clock, and spec-sheet values for comparison.
#pragma once

#include "roofcheck/Json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::probe {

struct DeviceProperties {
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  int64_t l2Bytes = 0;
  int64_t sharedPerBlockOptin = 0;    ///< bytes a block may opt in to
  int maxThreadsPerMultiprocessor = 0;
  int64_t globalMemoryBytes = 0;
  int64_t freeMemoryBytes = 0;
  int memoryBusWidthBits = 0;
  double maxSmClockMHz = 0;           ///< the device's peak SM clock attribute
  double memoryClockMHz = 0;          ///< the device's peak memory clock attribute
};

Json toJson(const DeviceProperties &props);

/// "" when the probes can run on the device, else why not (they are built for sm_90 and their peak
/// tables know Hopper only).
std::string unsupportedReason(const DeviceProperties &props);

// ------------------------------------------------------------------------------------------- sizing

/// Bytes of each DRAM buffer: many times the L2 so that the traffic reaches DRAM, and long launches so
/// that a launch's ramp-up and tail are a small part of it (64x, at least 2 GiB; 4x and 256 MiB for --quick), rounded down to a multiple of 1 MiB, and no more than a quarter of
/// the free memory so that the copy's two buffers fit. Throws when the device cannot hold 4x L2.
int64_t dramBufferBytes(const DeviceProperties &props, bool quick);

/// Bytes the L2 probe reads over and over: a quarter of the L2 (stays resident next to whatever else the
/// L2 holds), rounded down to a multiple of 64 KiB.
int64_t l2WorkingSetBytes(const DeviceProperties &props);

/// How a streaming kernel walks its buffer of 16-byte vectors.
/// Both cover the buffer in one pass with as many blocks as it takes. Measured slower on an H200 and so
/// not tried: a resident grid that loops (3.9 against 4.2 TB/s for a copy), .cs cache hints (no change),
/// loads asking L2 for 256-byte blocks (4.0 against 4.2 TB/s).
enum class StreamLayout {
  Strided, ///< a thread's `unroll` vectors lie a grid's width apart
  Tiled,   ///< each block moves one contiguous tile of threads x unroll vectors
};

/// One launch configuration of a streaming kernel; every thread moves `unroll` 16-byte vectors, all loads
/// issued before the first use.
struct StreamConfig {
  StreamLayout layout = StreamLayout::Tiled;
  int threads = 256;
  int unroll = 4; ///< 4, 8 or 16

  std::string str() const;
  Json toJson() const;
};

/// Blocks a configuration launches over `vectors` 16-byte vectors.
int64_t streamGrid(const StreamConfig &config, int64_t vectors);

/// The configurations the DRAM probes try (fewer with --quick); the best one is kept.
std::vector<StreamConfig> dramConfigs(bool quick);

/// Blocks of `threads` that keep every multiprocessor full (threads per multiprocessor / threads each).
int64_t residentGrid(const DeviceProperties &props, int threads);

/// Square problem size of the matrix products: 8192 (4096 with --quick).
int gemmSize(bool quick);

// ------------------------------------------------------------------------------------------- peaks

/// The unit a theoretical peak is computed for. Per-multiprocessor rates per clock of sm_90 (Hopper).
enum class PeakUnit {
  FFMA,         ///< fp32 FMA pipe: 128 lanes x 2 FLOP
  DFMA,         ///< fp64 FMA pipe: 64 lanes x 2 FLOP
  HFMA2,        ///< packed fp16/bf16 FMA, on the fmaheavy pipe only: 64 lanes x 2 FMA x 2 FLOP
  TensorFP16,   ///< dense fp16/bf16 tensor MMA: 4096 FLOP
  TensorTF32,   ///< 2048 FLOP
  TensorFP8,    ///< 8192 FLOP
  TensorFP64,   ///< DMMA: 256 FLOP
  SharedMemory, ///< 32 banks x 4 bytes
  L2ToSm,       ///< 64 bytes per multiprocessor per clock from L2 (an upper bound, not a tight one)
};

/// The L2 read peak of a device: Nsight Compute's L2 peak where it has been measured (GH100 with 132 SMs
/// and 60 MiB of L2, the H100 SXM and H200), else the SM-side port (L2ToSm) at the SM clock.
Json l2Peak(const DeviceProperties &props, double smClockMHz);

/// FLOP (or bytes) per multiprocessor per SM clock cycle, for compute capability 9.x.
double perMultiprocessorPerClock(PeakUnit unit);

/// The highest rate the device can reach in `unit` at the given SM clock: multiprocessors x per-clock
/// rate x clock.
double theoreticalPeak(PeakUnit unit, int multiprocessors, double smClockMHz);

/// DRAM: 2 transfers per memory clock (the clock NVML and the device attribute report) x bus width.
double theoreticalDramBandwidth(int busWidthBits, double memoryClockMHz);

/// {"value": peak, "basis": how it was computed}: stored as provenance.parameters.theoretical_peak, read
/// back by the summary table.
Json peakJson(double value, const std::string &basis);

/// A human-readable statement of how a peak was computed, stored beside it.
std::string peakBasis(PeakUnit unit, int multiprocessors, double smClockMHz);

/// Vendor datasheet values for known devices, labelled as spec; null for devices without an entry.
/// Printed beside the ceilings for comparison, never used as one.
Json specValues(const std::string &deviceName);

} // namespace roofcheck::probe
