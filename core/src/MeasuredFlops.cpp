#include "roofcheck/MeasuredFlops.h"

#include "roofcheck/Metrics.h"

#include <string_view>

namespace roofcheck {

namespace {

// FLOPs per counted op, from the calibration GEMMs (docs/runtime.md, "Tensor-core FLOPs"). An int8 MMA's ops are
// counted as the static side counts every MMA, 2mnk in `tensor` (DESIGN.md), whatever its type.
const std::map<std::string, double> &flopsPerOp() {
  static const std::map<std::string, double> calibrated = {
      {"fp16", 1}, {"bf16", 1}, {"tf32", 1}, {"fp64", 1}, {"int8", 1}};
  return calibrated;
}

// Uncalibrated integer ops (int1) are left out; a floating-point type outside flopsPerOp() has FLOPs of unknown
// worth.
bool isIntegerType(const std::string &type) { return type.compare(0, 3, "int") == 0; }

// ops (tensorOps) in FLOPs, for the calibrated types.
std::map<std::string, double> flopsOf(const std::map<std::string, double> &ops) {
  std::map<std::string, double> flops;
  for (const auto &[type, count] : ops)
    if (auto factor = flopsPerOp().find(type); factor != flopsPerOp().end())
      flops[type] = count * factor->second;
  return flops;
}

std::optional<double> metric(const std::map<std::string, double> &metrics, const std::string &name) {
  auto it = metrics.find(name);
  return it == metrics.end() ? std::nullopt : std::optional(it->second);
}

} // namespace

std::optional<double> MeasuredFlops::total() const {
  if (tensorUncounted || (!fp64 && !fp32 && !fp16 && !tensor))
    return std::nullopt;
  return fp64.value_or(0) + fp32.value_or(0) + fp16.value_or(0) + tensor.value_or(0);
}

std::vector<std::string> MeasuredFlops::uncounted() const {
  if (!fp64 && !fp32 && !fp16)
    return {};
  std::vector<std::string> missing;
  for (const auto &[name, value] : {std::pair{"fp64", fp64}, std::pair{"fp32", fp32}, std::pair{"fp16", fp16}})
    if (!value)
      missing.push_back(name);
  return missing;
}

MeasuredFlops measuredFlops(const std::map<std::string, double> &metrics) {
  auto precision = [&](const char *add, const char *mul, const char *fma) -> std::optional<double> {
    auto a = metric(metrics, metrics::sassInstructions(add)), m = metric(metrics, metrics::sassInstructions(mul)),
         f = metric(metrics, metrics::sassInstructions(fma));
    if (!a || !m || !f)
      return std::nullopt;
    return *a + *m + 2 * *f;
  };
  MeasuredFlops out;
  out.fp64 = precision("dadd", "dmul", "dfma");
  out.fp32 = precision("fadd", "fmul", "ffma");
  out.fp16 = precision("hadd", "hmul", "hfma");
  if (std::map<std::string, double> ops = tensorOps(metrics); !ops.empty()) {
    std::map<std::string, double> flops = flopsOf(ops);
    for (const auto &[type, count] : ops)
      if (count > 0 && !flops.count(type) && !isIntegerType(type))
        out.tensorUncounted = true;
    if (!out.tensorUncounted) {
      out.tensor = 0;
      for (const auto &[type, value] : flops)
        *out.tensor += value;
      out.tensorByType = std::move(flops);
    }
  } else if (auto instructions = metric(metrics, metrics::TensorPipeInstructions),
             moves = metric(metrics, metrics::TensorPipeMoves);
             instructions && moves) {
    out.tensorUncounted = *instructions > *moves;
    if (!out.tensorUncounted)
      out.tensor = 0;
  }
  return out;
}

std::map<std::string, double> tensorOps(const std::map<std::string, double> &metrics) {
  constexpr std::string_view prefix = metrics::TensorOpsPrefix;
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
  return flopsOf(tensorOps(metrics));
}

} // namespace roofcheck
