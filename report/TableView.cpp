// The kernel table shared by the views, and the terminal view (table, explanations, ASCII roofline).
#include "Format.h"
#include "Plot.h"
#include "Views.h"

#include <algorithm>
#include <cmath>

namespace roofcheck::report {

namespace {

std::string quantityText(const std::optional<PredictedCounts> &p, const Quantity PredictedCounts::*field,
                         bool asIntensity) {
  if (!p)
    return "-";
  const Quantity &q = (*p).*field;
  if (q.value)
    return asIntensity ? intensity(*q.value) : count(*q.value);
  return q.known() ? q.expr : "?";
}

std::string bound(const ReportKernel &k) {
  std::string p = k.boundPredicted.value_or("-"), m = k.boundMeasured.value_or("-");
  std::string text = p + "/" + m;
  if (k.boundPredicted && k.boundMeasured && p != m)
    text += " MISMATCH";
  return text;
}

std::string location(const ReportKernel &k) { return k.file.empty() ? "-" : k.file + ":" + std::to_string(k.line); }

} // namespace

std::string modeLine(const ReportDocument &doc) {
  if (doc.mode == "static")
    return "static estimate only, no measurement";
  std::string line = "measured";
  if (doc.device)
    line += " on " + doc.device->name + (doc.device->uuid.empty() ? "" : " (" + doc.device->uuid + ")");
  line += ", total GPU time " + duration(doc.totalTimeNs);
  return line;
}

Table kernelTable(const ReportDocument &doc) {
  Table t;
  if (doc.mode == "static") {
    t.header = {"kernel", "location", "FLOPs", "special", "bytes ideal", "bytes predicted", "AI ideal", "AI predicted",
                "dtype", "bound"};
    for (const ReportKernel &k : doc.kernels)
      t.rows.push_back({k.name, location(k), quantityText(k.predicted, &PredictedCounts::flops, false),
                        quantityText(k.predicted, &PredictedCounts::special, false),
                        quantityText(k.predicted, &PredictedCounts::bytesIdeal, false),
                        quantityText(k.predicted, &PredictedCounts::bytesPredicted, false),
                        quantityText(k.predicted, &PredictedCounts::intensityIdeal, true),
                        quantityText(k.predicted, &PredictedCounts::intensityPredicted, true), k.dtype.value_or("-"),
                        k.boundPredicted.value_or("-")});
    return t;
  }
  t.header = {"kernel", "launches", "time",   "share", "AI ideal", "AI pred", "AI meas",
              "FLOP/s", "DRAM B/s", "roof",  "of roof",  "bound p/m", "traffic"};
  for (const ReportKernel &k : doc.kernels)
    t.rows.push_back({k.name, std::to_string(k.launches), duration(k.timeNs), percent(k.timeShare),
                      orDash(k.predictedIntensityIdeal, intensity), orDash(k.predictedIntensityPredicted, intensity),
                      orDash(k.measuredIntensity, intensity),
                      orDash(k.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); }),
                      orDash(k.bytesPerSecond, [](double v) { return si(v, "B/s"); }),
                      orDash(k.roof, [](double v) { return si(v, "FLOP/s"); }), orDash(k.fractionOfRoof, percent),
                      bound(k), orDash(k.trafficRatio, ratio)});
  return t;
}

namespace {

std::string renderColumns(const Table &t) {
  std::vector<size_t> width(t.header.size());
  for (size_t c = 0; c < t.header.size(); ++c) {
    width[c] = t.header[c].size();
    for (const auto &row : t.rows)
      width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string> &cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string cell = cells[c];
      std::string pad(width[c] - cell.size(), ' ');
      out += c == 0 ? cell + pad : "  " + pad + cell; // names left, numbers right
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out + "\n";
  };
  std::string out = line(t.header);
  for (const auto &row : t.rows)
    out += line(row);
  return out;
}

/// A compact roofline: '/' the DRAM slope, '-' the compute roofs, '+' ridge points; a kernel's
/// measured dot is its capital letter and its predicted dot the small one.
std::string asciiRoofline(const ReportDocument &doc) {
  Plot plot = layoutPlot(doc);
  if (!plot.hasRates || !plot.dram)
    return "";
  const int width = 64, height = 16;
  std::vector<std::string> grid(height, std::string(width, ' '));
  auto col = [&](double x) {
    return static_cast<int>(std::lround((std::log10(x) - std::log10(plot.xmin)) /
                                        (std::log10(plot.xmax) - std::log10(plot.xmin)) * (width - 1)));
  };
  auto row = [&](double y) {
    return height - 1 - static_cast<int>(std::lround((std::log10(y) - std::log10(plot.ymin)) /
                                                     (std::log10(plot.ymax) - std::log10(plot.ymin)) * (height - 1)));
  };
  auto put = [&](int c, int r, char ch) {
    if (c >= 0 && c < width && r >= 0 && r < height)
      grid[r][c] = ch;
  };
  double topCompute = 0;
  for (const ReportCeiling &c : plot.compute)
    topCompute = std::max(topCompute, c.value);
  for (int c = 0; c < width; ++c) {
    double x = std::pow(10.0, std::log10(plot.xmin) + (std::log10(plot.xmax) - std::log10(plot.xmin)) * c / (width - 1));
    double slope = *plot.dram * x;
    if (topCompute == 0 || slope < topCompute)
      put(c, row(slope), '/');
    for (const ReportCeiling &cc : plot.compute)
      if (slope >= cc.value)
        put(c, row(cc.value), '-');
  }
  for (const ReportCeiling &cc : plot.compute)
    if (cc.ridge)
      put(col(*cc.ridge), row(cc.value), '+');
  std::string legend;
  for (const PlotKernel &pk : plot.kernels) {
    char letter = static_cast<char>('A' + pk.kernel % 26);
    if (pk.predicted && pk.predicted->rate)
      put(col(pk.predicted->intensity), row(*pk.predicted->rate), static_cast<char>(letter - 'A' + 'a'));
    if (pk.measured)
      put(col(pk.measured->intensity), row(*pk.measured->rate), pk.measured->error ? '!' : letter);
    legend += "  " + std::string(1, letter) + " " + doc.kernels[pk.kernel].name +
              (pk.omitted.empty() ? "" : " (not plotted: " + pk.omitted + ")") + "\n";
  }
  std::string out = "roofline (FLOP/s over FLOP/byte, log-log; capital = measured, small = predicted, ! = above "
                    "its ceiling)\n";
  for (int r = 0; r < height; ++r) {
    std::string label = r == 0 ? si(plot.ymax, "FLOP/s") : r == height - 1 ? si(plot.ymin, "FLOP/s") : "";
    out += std::string(12 - std::min<size_t>(12, label.size()), ' ') + label + " |" + grid[r] + "\n";
  }
  std::string axis = intensity(plot.xmin);
  std::string right = intensity(plot.xmax) + " FLOP/B";
  out += std::string(14, ' ') + "+" + std::string(width, '-') + "\n";
  out += std::string(15, ' ') + axis + std::string(width - axis.size() - right.size(), ' ') + right + "\n";
  for (const ReportCeiling &c : plot.memory)
    out += "  " + c.name + " " + si(c.value, "B/s") + " (" + c.dtype + ")\n";
  for (const ReportCeiling &c : plot.compute)
    out += "  " + ceilingName(c) + " " + si(c.value, "FLOP/s") +
           (c.ridge ? ", ridge " + intensity(*c.ridge) + " FLOP/B" : "") + "\n";
  return out + legend;
}

void appendExplanations(std::string &out, const std::vector<Explanation> &list, const std::string &indent) {
  for (const Explanation &e : list) {
    out += indent + e.severity + " [" + e.kind + "] " + e.message + "\n";
    for (const std::string &ev : e.evidence)
      out += indent + "    " + ev + "\n";
  }
}

} // namespace

std::string renderText(const ReportDocument &doc) {
  std::string out = "roofcheck report: " + modeLine(doc) + "\n\n";
  out += renderColumns(kernelTable(doc));
  for (const ReportKernel &k : doc.kernels) {
    bool manySignatures = k.signatures.size() > 1, manyRanks = k.ranks.size() > 1;
    if (k.explanations.empty() && !manySignatures && !manyRanks)
      continue;
    out += "\n" + k.name + (k.file.empty() ? "" : " (" + k.file + ":" + std::to_string(k.line) + ")") + ":\n";
    appendExplanations(out, k.explanations, "  ");
    if (manySignatures)
      for (const ReportSignature &s : k.signatures) {
        std::string args;
        for (const auto &[n, v] : s.args)
          args += " " + n + "=" + v;
        out += "  signature grid " + dim3(s.grid) + " block " + dim3(s.block) + args + ": " +
               std::to_string(s.launches) + " launches, " + duration(s.timeNs) + " (" + percent(s.timeShare) +
               "), AI ideal " + orDash(s.predictedIntensityIdeal, intensity) + ", measured " +
               orDash(s.measuredIntensity, intensity) + ", of roof " + orDash(s.fractionOfRoof, percent) + "\n";
      }
    if (manyRanks)
      for (const ReportRank &r : k.ranks)
        out += "  " + r.label + ": " + std::to_string(r.launches) + " launches, " + duration(r.timeNs) +
               ", AI measured " + orDash(r.measuredIntensity, intensity) + ", " +
               orDash(r.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); }) + "\n";
  }
  if (!doc.problems.empty()) {
    out += "\nproblems:\n";
    appendExplanations(out, doc.problems, "  ");
  }
  std::string plot = asciiRoofline(doc);
  if (!plot.empty())
    out += "\n" + plot;
  return out;
}

} // namespace roofcheck::report
