// The probes: each measures one family of ceilings on the current device and appends them, with their
// provenance and the theoretical peak at the measured clock, to the document.
#pragma once

#include "Cuda.h"
#include "DeviceModel.h"
#include "Measure.h"
#include "Nvml.h"
#include "ProbeOptions.h"

#include "roofcheck/Contracts.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace roofcheck::probe {

struct ProbeContext {
  const ProbeOptions &options;
  const DeviceProperties &device;
  Nvml &nvml;
  cudaStream_t stream;
  Measurer &measurer;
  CeilingsDocument &doc;
  std::vector<std::string> &warnings;
  std::function<void(const std::string &)> progress; ///< one line per finished ceiling, on a terminal
  std::mt19937_64 random{std::random_device{}()};    ///< fresh data every run

  uint64_t seed() { return random(); }
  /// Adds a memory ceiling; warns when it moved clocks or exceeds its theoretical peak.
  void addMemory(MemoryCeiling ceiling);
  void addCompute(ComputeCeiling ceiling);
};

/// The SM clock a peak is computed at: the highest the probe saw, else the device's peak SM clock.
double peakSmClock(const Provenance &provenance, const DeviceProperties &device);

void probeDram(ProbeContext &context);
void probeL2(ProbeContext &context);
void probeShared(ProbeContext &context);
/// fp64, fp32, fp16 or bf16 FMA throughput on the CUDA cores.
void probeFma(ProbeContext &context, ProbeGroup group);
/// fp16, bf16, tf32, fp8 (where supported) and fp64 matrix products through cuBLASLt.
void probeTensor(ProbeContext &context);

} // namespace roofcheck::probe
