#include "Plot.h"

#include <algorithm>
#include <cmath>

namespace roofcheck::report {

namespace {

std::optional<double> dramOf(const ReportDocument &doc) {
  for (const ReportCeiling &c : doc.ceilings)
    if (c.kind == "memory" && c.name == "dram")
      return c.value;
  return std::nullopt;
}

/// The compute roof of a kernel's dtype: a bucket's fastest ceiling ("fp32", "tensor"), or the ceiling of a bucket
/// and source type ("tensor bf16").
std::optional<double> computeOf(const ReportDocument &doc, const std::string &dtype) {
  std::optional<double> best;
  for (const ReportCeiling &c : doc.ceilings)
    if (c.kind == "compute" && (c.name == dtype || ceilingName(c) == dtype) && (!best || c.value > *best))
      best = c.value;
  return best;
}

double decadeBelow(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decadeAbove(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

} // namespace

std::string ceilingName(const ReportCeiling &c) {
  return c.kind == "compute" && c.dtype != c.name ? c.name + " " + c.dtype : c.name;
}

std::optional<double> roofAt(const ReportDocument &doc, const std::optional<std::string> &dtype, double intensity) {
  auto dram = dramOf(doc);
  auto compute = dtype ? computeOf(doc, *dtype) : std::nullopt;
  if (!dram || !compute)
    return std::nullopt;
  return std::min(*compute, *dram * intensity);
}

Plot layoutPlot(const ReportDocument &doc) {
  Plot plot;
  plot.dram = dramOf(doc);
  for (const ReportCeiling &c : doc.ceilings)
    (c.kind == "memory" ? plot.memory : plot.compute).push_back(c);
  bool measured = doc.mode == "measured";
  plot.hasRates = plot.dram.has_value() || measured;

  std::vector<double> xs, ys;
  for (size_t i = 0; i < doc.kernels.size(); ++i) {
    const ReportKernel &k = doc.kernels[i];
    PlotKernel pk;
    pk.kernel = i;
    auto predictedAI = k.predictedIntensityPredicted ? k.predictedIntensityPredicted : k.predictedIntensityIdeal;
    if (predictedAI && *predictedAI > 0) {
      PlotDot d{i, *predictedAI, roofAt(doc, k.dtype, *predictedAI), false};
      if (!plot.hasRates || d.rate) // on a FLOP/s axis a predicted dot needs its roof
        pk.predicted = d;
    }
    if (k.measuredIntensity && *k.measuredIntensity > 0 && k.flopsPerSecond && *k.flopsPerSecond > 0) {
      bool error = std::any_of(k.explanations.begin(), k.explanations.end(),
                               [](const Explanation &e) { return e.kind == "above-ceiling"; });
      pk.measured = PlotDot{i, *k.measuredIntensity, *k.flopsPerSecond, error};
    }
    if (!pk.predicted && !pk.measured) {
      bool zeroFlops = (predictedAI && *predictedAI == 0) || (k.measuredIntensity && *k.measuredIntensity == 0);
      pk.omitted = zeroFlops ? "no FLOPs (intensity 0), no place on a FLOP/s axis"
                             : "intensity unknown (unbound or unmeasured)";
    }
    for (const auto &d : {pk.predicted, pk.measured})
      if (d) {
        xs.push_back(d->intensity);
        if (d->rate)
          ys.push_back(*d->rate);
      }
    plot.kernels.push_back(std::move(pk));
  }
  for (const ReportCeiling &c : plot.compute) {
    ys.push_back(c.value);
    if (c.ridge)
      xs.push_back(*c.ridge);
  }
  if (!xs.empty()) {
    auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
    plot.xmin = decadeBelow(*lo / 2);
    plot.xmax = decadeAbove(*hi * 2);
  }
  if (!ys.empty()) {
    auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
    plot.ymin = decadeBelow(*lo / 2);
    plot.ymax = decadeAbove(*hi * 1.5);
  }
  if (plot.dram) // the DRAM slope starts inside the plot
    plot.ymin = std::min(plot.ymin, decadeBelow(*plot.dram * plot.xmin));
  // Keep at least one decade on each axis so a single dot still gets a readable plot.
  if (plot.xmax / plot.xmin < 10)
    plot.xmax = plot.xmin * 10;
  if (plot.ymax / plot.ymin < 10)
    plot.ymin = plot.ymax / 10;
  return plot;
}

} // namespace roofcheck::report
