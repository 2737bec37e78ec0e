// roofcheck-measured-dump FILE: prints a measured file as core's loadMeasuredFile reads it, one line a
// launch in index order, so lit tests can check what the shim wrote. Exit 2 when the file does not parse.
#include "roofcheck/Contracts.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/MeasuredFlops.h"
#include "roofcheck/Metrics.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

std::string dim(const roofcheck::Dim3 &d) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// "fp16:123,tf32:456" (values rounded to integers), or "-" when there are none.
std::string perType(const std::map<std::string, double> &values) {
  std::string text;
  for (const auto &[type, value] : values) {
    char number[64];
    std::snprintf(number, sizeof number, "%.0f", value);
    text += (text.empty() ? "" : ",") + type + ":" + number;
  }
  return text.empty() ? "-" : text;
}

std::string value(const std::map<std::string, double> &values, const std::string &name) {
  auto it = values.find(name);
  if (it == values.end())
    return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.0f", it->second);
  return text;
}

// An argument as the formulas see it: its integer value; "ptr" for a pointer (8 bytes the shim gave no
// value); "<N>B" for a by-value struct of N bytes. (One the run recorded no bytes for is "-", by the caller.)
std::string argument(const roofcheck::KernelArgument &a) {
  if (a.value)
    return std::to_string(*a.value);
  size_t bytes = a.hex.size() / 2;
  return bytes == sizeof(void *) ? "ptr" : std::to_string(bytes) + "B";
}

} // namespace

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck-measured-dump", [&]() -> int {
    if (argc != 2)
      throw roofcheck::Error("usage: roofcheck-measured-dump FILE");
    roofcheck::MeasuredFile file = roofcheck::loadMeasuredFile(argv[1]);
    const roofcheck::MeasuredHeader &h = file.header;
    std::printf("header pid=%lld rank=%s devices=%zu replay_passes=%s metrics=%s\n", static_cast<long long>(h.pid),
                h.rank ? std::to_string(*h.rank).c_str() : "none", h.devices.size(),
                h.replayPasses ? std::to_string(*h.replayPasses).c_str() : "none",
                h.options.value("metrics", std::string("?")).c_str());
    std::vector<roofcheck::Launch> launches = file.launches;
    std::sort(launches.begin(), launches.end(), [](auto &a, auto &b) { return a.index < b.index; });
    for (const roofcheck::Launch &l : launches) {
      std::string args;
      int next = 0;
      for (const roofcheck::KernelArgument &a : l.args) {
        for (; next < a.index; ++next)
          args += std::string(args.empty() ? "" : ",") + "-";
        args += (args.empty() ? "" : ",") + argument(a);
        next = a.index + 1;
      }
      std::string nvtx;
      for (const std::string &r : l.nvtx)
        nvtx += (nvtx.empty() ? "" : "/") + r;
      roofcheck::MeasuredFlops flops = roofcheck::measuredFlops(l.metrics);
      std::printf("launch %lld %s grid=%s block=%s cluster=%s device=%d stream=%llu timed=%s profiled=%s args=%s nvtx=%s "
                  "dram_read=%s dram_write=%s fp32=%s tensor_ops=%s tensor_flops=%s tensor_inst=%s tensor_moves=%s "
                  "passes=%s registers=%d "
                  "sampled_read=%s sampled_write=%s sampled_shared=%s\n",
                  static_cast<long long>(l.index), l.name.c_str(), dim(l.grid).c_str(), dim(l.block).c_str(), dim(l.cluster).c_str(), l.device,
                  static_cast<unsigned long long>(l.stream), l.durationNs && *l.durationNs > 0 ? "yes" : "no",
                  l.profiled ? "yes" : "no", args.c_str(), nvtx.c_str(), value(l.metrics, roofcheck::metrics::DramRead).c_str(),
                  value(l.metrics, roofcheck::metrics::DramWrite).c_str(),
                  flops.fp32 ? std::to_string(static_cast<long long>(*flops.fp32)).c_str() : "-",
                  perType(roofcheck::tensorOps(l.metrics)).c_str(),
                  perType(roofcheck::tensorFlops(l.metrics)).c_str(),
                  value(l.metrics, roofcheck::metrics::TensorPipeInstructions).c_str(),
                  value(l.metrics, roofcheck::metrics::TensorPipeMoves).c_str(),
                  l.replayPasses ? std::to_string(*l.replayPasses).c_str() : "-", l.registers,
                  value(l.sampled, roofcheck::metrics::DramRead).c_str(),
                  value(l.sampled, roofcheck::metrics::DramWrite).c_str(), l.sampledShared ? "yes" : "no");
    }
    std::printf("launches=%zu\n", launches.size());
    for (const std::string &w : file.warnings)
      std::printf("warning: %s\n", w.c_str());
    return roofcheck::ExitSuccess;
  });
}
