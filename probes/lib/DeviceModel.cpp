#include "DeviceModel.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cstdio>

namespace roofcheck::probe {

Json toJson(const DeviceProperties &p) {
  return Json{{"name", p.name},
              {"compute_capability", std::to_string(p.computeMajor) + "." + std::to_string(p.computeMinor)},
              {"multiprocessors", p.multiprocessors},
              {"l2_bytes", p.l2Bytes},
              {"shared_per_block_optin_bytes", p.sharedPerBlockOptin},
              {"max_threads_per_multiprocessor", p.maxThreadsPerMultiprocessor},
              {"global_memory_bytes", p.globalMemoryBytes},
              {"free_memory_bytes", p.freeMemoryBytes},
              {"memory_bus_width_bits", p.memoryBusWidthBits},
              {"max_sm_clock_mhz", p.maxSmClockMHz},
              {"memory_clock_mhz", p.memoryClockMHz}};
}

std::string unsupportedReason(const DeviceProperties &p) {
  if (p.computeMajor != 9)
    return "device \"" + p.name + "\" has compute capability " + std::to_string(p.computeMajor) + "." +
           std::to_string(p.computeMinor) +
           "; roofcheck-probe is built for sm_90 and supports compute capability 9.x (Hopper) only";
  if (p.multiprocessors <= 0 || p.l2Bytes <= 0 || p.maxThreadsPerMultiprocessor <= 0)
    return "device \"" + p.name + "\" reports no multiprocessors, L2 or thread limit";
  return "";
}

int64_t dramBufferBytes(const DeviceProperties &p, bool quick) {
  constexpr int64_t MiB = int64_t(1) << 20;
  int64_t wanted = quick ? std::max<int64_t>(4 * p.l2Bytes, 256 * MiB) : std::max<int64_t>(64 * p.l2Bytes, 2048 * MiB);
  int64_t bytes = std::min(wanted, p.freeMemoryBytes / 4) / MiB * MiB;
  if (bytes < 4 * p.l2Bytes)
    throw Error("only " + std::to_string(p.freeMemoryBytes / MiB) + " MiB of device memory are free; the DRAM "
                "probes need two buffers of at least 4x the L2 (" + std::to_string(4 * p.l2Bytes / MiB) +
                " MiB each): free memory on the device and run again");
  return bytes;
}

int64_t l2WorkingSetBytes(const DeviceProperties &p) {
  constexpr int64_t granule = 64 * 1024;
  return std::max<int64_t>(p.l2Bytes / 4 / granule * granule, granule);
}

namespace {

const char *layoutName(StreamLayout layout) { return layout == StreamLayout::Tiled ? "tiled" : "strided"; }

} // namespace

std::string StreamConfig::str() const {
  char text[128];
  std::snprintf(text, sizeof text, "%s, %d threads, unroll %d", layoutName(layout), threads, unroll);
  return text;
}

Json StreamConfig::toJson() const {
  return Json{{"layout", layoutName(layout)}, {"threads", threads}, {"unroll", unroll}};
}

int64_t streamGrid(const StreamConfig &c, int64_t vectors) {
  int64_t perBlock = int64_t(c.threads) * c.unroll;
  return (vectors + perBlock - 1) / perBlock;
}

std::vector<StreamConfig> dramConfigs(bool quick) {
  using L = StreamLayout;
  if (quick)
    return {{L::Strided, 256, 4}, {L::Tiled, 256, 8}};
  // Enough 16-byte requests in flight per SM to cover DRAM latency: resident threads x unroll.
  return {{L::Strided, 256, 4}, {L::Tiled, 256, 4}, {L::Tiled, 256, 8},
          {L::Tiled, 128, 16},  {L::Tiled, 512, 8}, {L::Tiled, 1024, 4}};
}

int64_t residentGrid(const DeviceProperties &p, int threads) {
  return static_cast<int64_t>(p.multiprocessors) * std::max(1, p.maxThreadsPerMultiprocessor / threads);
}

int gemmSize(bool quick) { return quick ? 4096 : 8192; }

double perMultiprocessorPerClock(PeakUnit unit) {
  switch (unit) {
  case PeakUnit::FFMA: return 128 * 2;
  case PeakUnit::DFMA: return 64 * 2;
  // HFMA2 issues on the fmaheavy pipe only, 2 warp instructions per SM per clock (Nsight Compute's
  // sm__inst_executed_pipe_fmaheavy peak on GH100; the probe's kernel runs it at 99.4%), where FFMA uses
  // both FMA pipes: the packed rate equals the fp32 one, not the datasheet's twice that.
  case PeakUnit::HFMA2: return 64 * 2 * 2;
  case PeakUnit::TensorFP16: return 4096;
  case PeakUnit::TensorTF32: return 2048;
  case PeakUnit::TensorFP8: return 8192;
  case PeakUnit::TensorFP64: return 256;
  case PeakUnit::SharedMemory: return 32 * 4;
  case PeakUnit::L2ToSm: return 64;
  }
  return 0;
}

double theoreticalPeak(PeakUnit unit, int multiprocessors, double smClockMHz) {
  return multiprocessors * perMultiprocessorPerClock(unit) * smClockMHz * 1e6;
}

double theoreticalDramBandwidth(int busWidthBits, double memoryClockMHz) {
  return 2.0 * memoryClockMHz * 1e6 * busWidthBits / 8.0;
}

Json peakJson(double value, const std::string &basis) { return Json{{"value", value}, {"basis", basis}}; }

Json l2Peak(const DeviceProperties &p, double smClockMHz) {
  // Nsight Compute 2025.3.1 on an H200: lts__t_bytes.sum.peak_sustained = 9024 bytes per L2 cycle, and the
  // L2 at 1707 MHz under load whatever the SM clock (lts__cycles_elapsed.avg.per_second, SM at 1953-1978).
  constexpr double gh100BytesPerL2Cycle = 9024, gh100L2ClockMHz = 1707;
  if (p.computeMajor == 9 && p.multiprocessors == 132 && p.l2Bytes == 60ll << 20)
    return peakJson(gh100BytesPerL2Cycle * gh100L2ClockMHz * 1e6,
                    "Nsight Compute's L2 peak on GH100: 9024 B per L2 clock x 1707 MHz (measured by ncu)");
  return peakJson(theoreticalPeak(PeakUnit::L2ToSm, p.multiprocessors, smClockMHz),
                  peakBasis(PeakUnit::L2ToSm, p.multiprocessors, smClockMHz) + " (SM-side port, a loose bound)");
}

std::string peakBasis(PeakUnit unit, int multiprocessors, double smClockMHz) {
  bool bytes = unit == PeakUnit::SharedMemory || unit == PeakUnit::L2ToSm;
  char text[160];
  std::snprintf(text, sizeof text, "%d SMs x %g %s/clock x %.0f MHz", multiprocessors,
                perMultiprocessorPerClock(unit), bytes ? "B" : "FLOP", smClockMHz);
  return text;
}

Json specValues(const std::string &name) {
  // NVIDIA H100/H200 SXM datasheets, dense (no sparsity) rates. H200 SXM has the H100 SXM's compute rates.
  Json compute = {{"fp64", 34e12},        {"fp64_tensor", 67e12}, {"fp32", 67e12},
                  {"tf32_tensor", 494.7e12}, {"bf16_tensor", 989.4e12}, {"fp16_tensor", 989.4e12},
                  {"fp8_tensor", 1978.9e12}};
  auto entry = [&](const char *source, double dram) {
    Json spec = {{"label", "spec: vendor datasheet values, for comparison only; no ceiling is taken from them"},
                 {"source", source},
                 {"dram_bytes_per_second", dram}};
    for (auto &[key, value] : compute.items())
      spec[key + "_flops_per_second"] = value;
    return spec;
  };
  if (name.find("H200") != std::string::npos)
    return entry("NVIDIA H200 SXM datasheet", 4.8e12);
  if (name.find("H100 80GB HBM3") != std::string::npos || name.find("H100 SXM") != std::string::npos)
    return entry("NVIDIA H100 SXM datasheet", 3.35e12);
  return nullptr;
}

} // namespace roofcheck::probe
