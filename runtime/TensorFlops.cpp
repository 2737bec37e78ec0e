#include "TensorFlops.h"

#include "roofcheck/Metrics.h"
#include <string_view>

namespace roofcheck::runtime {

namespace {

constexpr std::string_view prefix = metrics::TensorOpsPrefix;

// FLOPs per counted op, from the calibration GEMMs (docs/runtime.md, "Counters").
const std::map<std::string, double> &flopsPerOp() {
  static const std::map<std::string, double> calibrated = {{"fp16", 1}, {"bf16", 1}, {"tf32", 1}, {"fp64", 1}};
  return calibrated;
}

} // namespace

std::map<std::string, double> tensorOps(const std::map<std::string, double> &metrics) {
  std::map<std::string, double> totals, byDestination;
  for (const auto &[name, value] : metrics) {
    if (name.compare(0, prefix.size(), prefix) != 0 || name.size() < prefix.size() + 4 ||
        name.compare(name.size() - 4, 4, ".sum") != 0 || name.find("sparsity") != std::string::npos)
      continue;
    std::string rest = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    size_t destination = rest.find("_dst_");
    if (destination == std::string::npos)
      totals[rest] += value;
    else
      byDestination[rest.substr(0, destination)] += value;
  }
  for (const auto &[type, value] : byDestination)
    totals.emplace(type, value); // a type's own total wins over the sum of its parts
  return totals;
}

std::map<std::string, double> tensorFlops(const std::map<std::string, double> &metrics) {
  std::map<std::string, double> flops;
  for (const auto &[type, ops] : tensorOps(metrics))
    if (auto factor = flopsPerOp().find(type); factor != flopsPerOp().end())
      flops[type] = ops * factor->second;
  return flops;
}

} // namespace roofcheck::runtime
