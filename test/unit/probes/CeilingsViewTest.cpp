#include "CeilingsView.h"
#include "DeviceModel.h"

#include "roofcheck/Contracts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

using namespace roofcheck;
using namespace roofcheck::probe;

namespace {

Provenance provenance(double median, double lo, double hi, double smBefore, double smDuring, double smAfter) {
  Provenance p;
  p.kernel = "copyKernel<unroll 4>";
  p.repetitions = 300;
  p.median = median;
  p.min = lo;
  p.max = hi;
  p.clocksBefore = {smBefore, 3201};
  p.clocksDuring = {smDuring, 3201};
  p.clocksAfter = {smAfter, 3201};
  return p;
}

} // namespace

TEST(CeilingsView, ClockWarningsOnlyWhenTheClockMoved) {
  EXPECT_FALSE(clockMovedWarning("dram copy", provenance(1, 1, 1, 1980, 1980, 1965)));
  auto moved = clockMovedWarning("tensor bf16", provenance(1, 1, 1, 1980, 1700, 1980));
  ASSERT_TRUE(moved);
  EXPECT_EQ(*moved, "tensor bf16: SM clock moved during the probe (before 1980, during 1700, after 1980 MHz); "
                    "the ceiling mixes clock states");
  Provenance memory = provenance(1, 1, 1, 1980, 1980, 1980);
  memory.clocksAfter.memoryMHz = 1593;
  ASSERT_TRUE(clockMovedWarning("dram read", memory));
  EXPECT_NE(clockMovedWarning("dram read", memory)->find("memory clock"), std::string::npos);
  Provenance unknown; // NVML unavailable: nothing to compare, no warning
  EXPECT_FALSE(clockMovedWarning("fp32", unknown));
}

TEST(CeilingsView, HighestSmClock) {
  EXPECT_EQ(highestSmClock(provenance(1, 1, 1, 1755, 1980, 1830)), 1980);
  EXPECT_FALSE(highestSmClock(Provenance{}));
}

TEST(CeilingsView, ThrottleReasonsInWords) {
  EXPECT_TRUE(throttleReasonNames(0).empty());
  EXPECT_EQ(throttleReasonNames(0x5), (std::vector<std::string>{"gpu_idle", "sw_power_cap"}));
  EXPECT_EQ(throttleReasonNames(0x40 | 0x1000), (std::vector<std::string>{"hw_thermal_slowdown", "unknown_0x1000"}));
}

TEST(CeilingsView, RatesWithSiPrefixes) {
  EXPECT_EQ(formatRate(4.41e12, "B/s"), "4.41 TB/s");
  EXPECT_EQ(formatRate(66.94e12, "FLOP/s"), "66.9 TFLOP/s");
  EXPECT_EQ(formatRate(989.4e12, "FLOP/s"), "989 TFLOP/s");
  EXPECT_EQ(formatRate(1.5e15, "FLOP/s"), "1.50 PFLOP/s");
  EXPECT_EQ(formatRate(12, "B/s"), "12 B/s");
}

TEST(CeilingsView, SummaryTableShowsFractionOfTheTheoreticalPeakAndRoundTrips) {
  CeilingsDocument doc;
  doc.roofcheckVersion = "0.1.0";
  doc.measuredAt = "2026-11-30T00:00:00Z";
  doc.device = {0, "NVIDIA H200", "GPU-0", "9.0", 132, 50 << 20, 0};
  doc.driverVersion = "580.159.04";
  doc.cudaVersion = "13.0";
  Provenance dram = provenance(4e12, 3.9e12, 4.1e12, 1980, 1980, 1980);
  dram.parameters["theoretical_peak"] = peakJson(5e12, "2 x 3201 MHz x 6144 bit bus / 8");
  doc.memory.push_back({"dram", "copy", 4e12, dram});
  Provenance fma = provenance(60e12, 59e12, 61e12, 1980, 1980, 1980);
  fma.kernel = "fmaKernel<fp32>";
  doc.compute.push_back({"fp32", "fp32", "FFMA", 60e12, fma}); // no peak recorded: shown as "-"

  std::string table = summaryTable(doc);
  EXPECT_NE(table.find("dram copy"), std::string::npos) << table;
  EXPECT_NE(table.find("4.00 TB/s"), std::string::npos) << table;
  EXPECT_NE(table.find("5.00 TB/s"), std::string::npos) << table;
  EXPECT_NE(table.find("80.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("60.0 TFLOP/s"), std::string::npos) << table;
  EXPECT_NE(table.find("FFMA"), std::string::npos) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3); // header + 2 rows

  // What the probe writes is what core's reader accepts, peak included.
  std::string path = (std::filesystem::temp_directory_path() / "roofcheck-probe-view-test.json").string();
  saveCeilingsFile(path, doc);
  CeilingsDocument back = loadCeilingsFile(path);
  std::remove(path.c_str());
  ASSERT_EQ(back.memory.size(), 1u);
  EXPECT_DOUBLE_EQ(back.memory[0].provenance.parameters["theoretical_peak"]["value"].get<double>(), 5e12);
  EXPECT_EQ(summaryTable(back), table);
}
