// Roofline geometry shared by the SVG/HTML and terminal views: which ceilings, where each dot goes,
// and the log-log range that holds them. Pure layout of the model's numbers; no new quantity.
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

struct PlotDot {
  size_t kernel = 0;        ///< index into the document's kernels
  double intensity = 0;     ///< FLOP/byte
  std::optional<double> rate; ///< FLOP/s; nullopt on an intensity-only plot (no ceilings, no measurement)
  bool error = false;       ///< above its ceiling
};

struct PlotKernel {
  size_t kernel = 0;
  std::optional<PlotDot> predicted, measured;
  std::string omitted; ///< why this kernel has no dot ("no FLOPs", ...); "" when it has one
};

struct Plot {
  bool hasRates = false; ///< a FLOP/s axis exists (ceilings or measurements)
  double xmin = 0.01, xmax = 100, ymin = 1e9, ymax = 1e15;
  std::optional<double> dram;          ///< bytes/s
  std::vector<ReportCeiling> memory;   ///< drawn as slopes
  std::vector<ReportCeiling> compute;  ///< drawn as flat roofs
  std::vector<PlotKernel> kernels;
};

Plot layoutPlot(const ReportDocument &doc);

/// "fp32", or "tensor bf16" where the dtype says more than the bucket.
std::string ceilingName(const ReportCeiling &c);

/// The roof at an intensity under a kernel's dtype: min(compute, dram * AI); nullopt without both.
std::optional<double> roofAt(const ReportDocument &doc, const std::optional<std::string> &dtype, double intensity);

} // namespace roofcheck::report
