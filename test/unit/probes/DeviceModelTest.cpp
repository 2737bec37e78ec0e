#include "DeviceModel.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

using namespace roofcheck::probe;

namespace {

constexpr int64_t MiB = int64_t(1) << 20;

// An H200 as cudaGetDeviceProperties describes it (132 SMs, 2048 threads per SM, 6144-bit HBM3e bus).
DeviceProperties h200() {
  DeviceProperties p;
  p.name = "NVIDIA H200";
  p.computeMajor = 9;
  p.computeMinor = 0;
  p.multiprocessors = 132;
  p.l2Bytes = 50 * MiB;
  p.maxThreadsPerMultiprocessor = 2048;
  p.freeMemoryBytes = 140 * 1024 * MiB;
  p.memoryBusWidthBits = 6144;
  p.maxSmClockMHz = 1980;
  p.memoryClockMHz = 3201;
  return p;
}

} // namespace

TEST(DeviceModel, OnlyHopperIsSupported) {
  EXPECT_EQ(unsupportedReason(h200()), "");
  DeviceProperties a100 = h200();
  a100.name = "NVIDIA A100";
  a100.computeMajor = 8;
  std::string why = unsupportedReason(a100);
  EXPECT_NE(why.find("compute capability 8.0"), std::string::npos) << why;
  EXPECT_NE(why.find("sm_90"), std::string::npos) << why;
}

TEST(DeviceModel, DramBuffersAreSeveralTimesTheL2) {
  DeviceProperties p = h200();
  EXPECT_EQ(dramBufferBytes(p, false), 3200 * MiB); // max(64 x 50 MiB, 2 GiB)
  EXPECT_EQ(dramBufferBytes(p, true), 256 * MiB);   // max(4 x 50 MiB, 256 MiB)
  p.l2Bytes = 16 * MiB;
  EXPECT_EQ(dramBufferBytes(p, false), 2048 * MiB); // 64 x 16 MiB is less than 2 GiB
  p = h200();
  p.freeMemoryBytes = 2048 * MiB + 12345; // a quarter of the free memory, whole MiB
  EXPECT_EQ(dramBufferBytes(p, false), 512 * MiB);
  p.freeMemoryBytes = 400 * MiB; // 100 MiB < 4 x L2
  EXPECT_THROW(dramBufferBytes(p, false), roofcheck::Error);
}

TEST(DeviceModel, L2WorkingSetIsAQuarterOfTheL2) {
  DeviceProperties p = h200();
  EXPECT_EQ(l2WorkingSetBytes(p), 13107200); // 12.5 MiB = 200 x 64 KiB
  p.l2Bytes = 60000000;                      // 15 000 000 -> 228 x 64 KiB
  EXPECT_EQ(l2WorkingSetBytes(p), 228 * 65536);
}

TEST(DeviceModel, GridsFillEveryMultiprocessor) {
  EXPECT_EQ(residentGrid(h200(), 256), 132 * 8);
  EXPECT_EQ(residentGrid(h200(), 512), 132 * 4);
  std::vector<StreamConfig> configs = dramConfigs(false);
  ASSERT_GE(configs.size(), 4u);
  for (const StreamConfig &c : configs)
    EXPECT_TRUE(c.unroll == 4 || c.unroll == 8 || c.unroll == 16) << c.str();
  EXPECT_EQ(dramConfigs(true).size(), 2u);
  // One pass over the buffer, rounding up: a partial tile at the end is guarded in the kernel.
  StreamConfig tiled{StreamLayout::Tiled, 256, 8};
  EXPECT_EQ(tiled.str(), "tiled, 256 threads, unroll 8");
  EXPECT_EQ(tiled.toJson()["layout"], "tiled");
  EXPECT_EQ(streamGrid(tiled, 2048), 1);
  EXPECT_EQ(streamGrid(tiled, 2049), 2);
  EXPECT_EQ(streamGrid(tiled, (int64_t(2) << 30) / 16), 65536); // 2 GiB in 16-byte vectors / 2048
  StreamConfig strided{StreamLayout::Strided, 1024, 4};
  EXPECT_EQ(strided.str(), "strided, 1024 threads, unroll 4");
  EXPECT_EQ(streamGrid(strided, 4096), 1);
  EXPECT_EQ(gemmSize(false), 8192);
  EXPECT_EQ(gemmSize(true), 4096);
}

TEST(DeviceModel, TheoreticalPeaksAtAClock) {
  // 132 SMs x 128 lanes x 2 FLOP x 1.98 GHz = 66.9 TFLOP/s, the datasheet's fp32 figure.
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::FFMA, 132, 1980), 132.0 * 256 * 1980e6);
  EXPECT_NEAR(theoreticalPeak(PeakUnit::FFMA, 132, 1980), 66.9e12, 0.01e12);
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::DFMA, 132, 1980), 132.0 * 128 * 1980e6);
  // Packed fp16: the fmaheavy pipe alone, the fp32 rate (66.9 TFLOP/s), not the datasheet's 2x.
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::HFMA2, 132, 1980), theoreticalPeak(PeakUnit::FFMA, 132, 1980));
  // Dense fp16 tensor at the datasheet's 1830 MHz: 989.4 TFLOP/s.
  EXPECT_NEAR(theoreticalPeak(PeakUnit::TensorFP16, 132, 1830), 989.4e12, 0.1e12);
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::TensorTF32, 132, 1000), 132.0 * 2048 * 1e9);
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::TensorFP8, 132, 1000), 132.0 * 8192 * 1e9);
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::TensorFP64, 132, 1000), 132.0 * 256 * 1e9);
  EXPECT_DOUBLE_EQ(theoreticalPeak(PeakUnit::SharedMemory, 132, 1000), 132.0 * 128 * 1e9);
  // HBM3e: 2 x 3201 MHz x 6144 bit / 8 = 4.917 TB/s.
  EXPECT_DOUBLE_EQ(theoreticalDramBandwidth(6144, 3201), 2 * 3201e6 * 768);
  EXPECT_EQ(peakBasis(PeakUnit::FFMA, 132, 1980), "132 SMs x 256 FLOP/clock x 1980 MHz");
  EXPECT_EQ(peakBasis(PeakUnit::SharedMemory, 132, 1755.4), "132 SMs x 128 B/clock x 1755 MHz");
  roofcheck::Json peak = peakJson(1e12, "basis");
  EXPECT_DOUBLE_EQ(peak["value"].get<double>(), 1e12);
  EXPECT_EQ(peak["basis"], "basis");
}

TEST(DeviceModel, L2PeakIsNsightsWhereMeasuredAndThePortElsewhere) {
  // GH100 with 132 SMs and 60 MiB of L2 (62914560 bytes on the H200): 9024 B per L2 clock at 1707 MHz,
  // whatever the SM clock.
  DeviceProperties h200Device = h200();
  h200Device.l2Bytes = 60 * MiB;
  roofcheck::Json gh100 = l2Peak(h200Device, 1980);
  EXPECT_DOUBLE_EQ(gh100["value"].get<double>(), 9024 * 1707e6);
  EXPECT_NE(gh100["basis"].get<std::string>().find("Nsight Compute"), std::string::npos);
  EXPECT_DOUBLE_EQ(l2Peak(h200Device, 1500)["value"].get<double>(), 9024 * 1707e6);
  // An H100 PCIe (114 SMs, 50 MiB): the SM-side port, labelled as a loose bound.
  DeviceProperties pcie = h200();
  pcie.multiprocessors = 114;
  pcie.l2Bytes = 50ll << 20;
  roofcheck::Json port = l2Peak(pcie, 1755);
  EXPECT_DOUBLE_EQ(port["value"].get<double>(), theoreticalPeak(PeakUnit::L2ToSm, 114, 1755));
  EXPECT_NE(port["basis"].get<std::string>().find("loose bound"), std::string::npos);
}

TEST(DeviceModel, SpecValuesAreLabelledAndOnlyForKnownDevices) {
  roofcheck::Json spec = specValues("NVIDIA H200");
  ASSERT_TRUE(spec.is_object());
  EXPECT_DOUBLE_EQ(spec["dram_bytes_per_second"].get<double>(), 4.8e12);
  EXPECT_DOUBLE_EQ(spec["bf16_tensor_flops_per_second"].get<double>(), 989.4e12);
  EXPECT_EQ(spec["label"].get<std::string>().rfind("spec:", 0), 0u);
  EXPECT_DOUBLE_EQ(specValues("NVIDIA H100 80GB HBM3")["dram_bytes_per_second"].get<double>(), 3.35e12);
  EXPECT_TRUE(specValues("NVIDIA A100-SXM4-40GB").is_null());
}

TEST(DeviceModel, PropertiesAsJson) {
  roofcheck::Json j = toJson(h200());
  EXPECT_EQ(j["compute_capability"], "9.0");
  EXPECT_EQ(j["multiprocessors"], 132);
  EXPECT_EQ(j["memory_bus_width_bits"], 6144);
}
