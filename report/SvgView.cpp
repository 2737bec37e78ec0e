// The roofline as SVG: log-log axes, each measured ceiling drawn and labelled with its value and dtype,
// ridge points marked, a hollow predicted dot joined by an arrow to the filled measured dot, dot area
// proportional to time share. Element classes and data-* attributes name what each shape is, so the
// HTML view (and tests) can find them.
#include "Format.h"
#include "Plot.h"
#include "Views.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace roofcheck::report {

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

namespace {

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string exact(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

constexpr double Width = 900, Height = 560, Left = 100, Right = 40, Top = 40, Bottom = 70;

struct Axes {
  const Plot &plot;
  double x(double v) const {
    return Left + (std::log10(v) - std::log10(plot.xmin)) / (std::log10(plot.xmax) - std::log10(plot.xmin)) *
                      (Width - Left - Right);
  }
  double y(double v) const {
    return Height - Bottom - (std::log10(v) - std::log10(plot.ymin)) /
                                 (std::log10(plot.ymax) - std::log10(plot.ymin)) * (Height - Top - Bottom);
  }
  double stripY() const { return (Top + Height - Bottom) / 2; }
};

std::string details(const ReportKernel &k) {
  std::string d = k.name;
  if (!k.file.empty())
    d += "\n" + k.file + ":" + std::to_string(k.line);
  if (k.launches > 0)
    d += "\n" + std::to_string(k.launches) + " launches, " + duration(k.timeNs) + " (" + percent(k.timeShare) + ")";
  d += "\nAI ideal " + orDash(k.predictedIntensityIdeal, intensity) + ", predicted " +
       orDash(k.predictedIntensityPredicted, intensity) + ", measured " + orDash(k.measuredIntensity, intensity);
  if (k.flopsPerSecond)
    d += "\n" + si(*k.flopsPerSecond, "FLOP/s") + ", " + orDash(k.bytesPerSecond, [](double v) { return si(v, "B/s"); });
  if (k.fractionOfRoof)
    d += "\n" + percent(*k.fractionOfRoof) + " of roof (" + k.dtype.value_or("-") + ")";
  for (const Explanation &e : k.explanations)
    d += "\n" + e.severity + ": " + e.message;
  return d;
}

} // namespace

std::string renderSvgElement(const ReportDocument &doc) {
  Plot plot = layoutPlot(doc);
  Axes ax{plot};
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline\" width=\"" + num(Width) +
                  "\" height=\"" + num(Height) + "\" viewBox=\"0 0 " + num(Width) + " " + num(Height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
       "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#555\"/></marker>"
       "</defs>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(Width) + "\" height=\"" + num(Height) + "\" fill=\"white\"/>\n";
  s += "<text class=\"mode\" x=\"" + num(Left) + "\" y=\"24\" font-size=\"14\" font-weight=\"bold\">" +
       escapeXml(modeLine(doc)) + "</text>\n";

  // Axes with a grid line at every decade.
  s += "<g class=\"axes\" stroke=\"#ccc\">\n";
  for (double v = plot.xmin; v <= plot.xmax * 1.0001; v *= 10)
    s += "<line x1=\"" + num(ax.x(v)) + "\" y1=\"" + num(Top) + "\" x2=\"" + num(ax.x(v)) + "\" y2=\"" +
         num(Height - Bottom) + "\"/><text x=\"" + num(ax.x(v)) + "\" y=\"" + num(Height - Bottom + 16) +
         "\" text-anchor=\"middle\" stroke=\"none\" fill=\"#333\">" + intensity(v) + "</text>\n";
  if (plot.hasRates)
    for (double v = plot.ymin; v <= plot.ymax * 1.0001; v *= 10)
      s += "<line x1=\"" + num(Left) + "\" y1=\"" + num(ax.y(v)) + "\" x2=\"" + num(Width - Right) + "\" y2=\"" +
           num(ax.y(v)) + "\"/><text x=\"" + num(Left - 6) + "\" y=\"" + num(ax.y(v) + 4) +
           "\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">" + si(v, "FLOP/s") + "</text>\n";
  s += "</g>\n";
  s += "<text x=\"" + num((Left + Width - Right) / 2) + "\" y=\"" + num(Height - 24) +
       "\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte, log)</text>\n";
  if (plot.hasRates)
    s += "<text transform=\"translate(14," + num((Top + Height - Bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">FLOP/s (log)</text>\n";
  else
    s += "<line x1=\"" + num(Left) + "\" y1=\"" + num(ax.stripY()) + "\" x2=\"" + num(Width - Right) + "\" y2=\"" +
         num(ax.stripY()) + "\" stroke=\"#999\"/><text x=\"" + num(Left) + "\" y=\"" + num(ax.stripY() + 60) +
         "\">no ceilings: predicted intensity only (give a roofcheck.ceilings/1 file for roofs)</text>\n";

  // Ceilings: memory levels as slopes up to the highest compute roof, compute roofs from their ridge on.
  double topCompute = 0;
  for (const ReportCeiling &c : plot.compute)
    topCompute = std::max(topCompute, c.value);
  if (plot.hasRates) {
    for (const ReportCeiling &c : plot.memory) {
      double x0 = plot.xmin, x1 = topCompute > 0 ? std::min(plot.xmax, topCompute / c.value) : plot.xmax;
      if (c.value * x0 > plot.ymax)
        continue;
      x0 = std::max(x0, plot.ymin / c.value);
      std::string label = c.name + " " + si(c.value, "B/s") + " (" + c.dtype + ")";
      s += "<g class=\"ceiling memory\" data-name=\"" + escapeXml(c.name) + "\" data-dtype=\"" + escapeXml(c.dtype) +
           "\" data-value=\"" + exact(c.value) + "\"><line x1=\"" + num(ax.x(x0)) + "\" y1=\"" + num(ax.y(c.value * x0)) +
           "\" x2=\"" + num(ax.x(x1)) + "\" y2=\"" + num(ax.y(c.value * x1)) + "\" stroke=\"" +
           (c.name == "dram" ? "#1f4e9c" : "#7a9cd6") + "\" stroke-width=\"2\"" +
           (c.name == "dram" ? "" : " stroke-dasharray=\"6 4\"") + "/><text x=\"" + num(ax.x(x0) + 8) + "\" y=\"" +
           num(ax.y(c.value * x0) - 8) + "\" fill=\"#1f4e9c\">" + escapeXml(label) + "</text></g>\n";
    }
    for (const ReportCeiling &c : plot.compute) {
      double start = c.ridge ? *c.ridge : plot.xmin;
      std::string label = ceilingName(c) + " " + si(c.value, "FLOP/s");
      s += "<g class=\"ceiling compute\" data-name=\"" + escapeXml(c.name) + "\" data-dtype=\"" + escapeXml(c.dtype) +
           "\" data-value=\"" + exact(c.value) + "\"><line x1=\"" + num(ax.x(start)) + "\" y1=\"" + num(ax.y(c.value)) +
           "\" x2=\"" + num(Width - Right) + "\" y2=\"" + num(ax.y(c.value)) +
           "\" stroke=\"#b03a2e\" stroke-width=\"2\"/><text x=\"" + num(Width - Right - 4) + "\" y=\"" +
           num(ax.y(c.value) - 6) + "\" text-anchor=\"end\" fill=\"#b03a2e\">" + escapeXml(label) + "</text></g>\n";
      if (c.ridge)
        s += "<g class=\"ridge\" data-name=\"" + escapeXml(ceilingName(c)) + "\" data-ridge=\"" +
             exact(*c.ridge) + "\"><path d=\"M " + num(ax.x(*c.ridge)) + " " + num(ax.y(c.value) - 6) + " l 6 6 l -6 6 "
             "l -6 -6 z\" fill=\"#b03a2e\"/><text x=\"" + num(ax.x(*c.ridge)) + "\" y=\"" + num(ax.y(c.value) + 20) +
             "\" text-anchor=\"middle\" font-size=\"11\">ridge " + intensity(*c.ridge) + " FLOP/B</text></g>\n";
    }
  }

  // Kernels: area proportional to time share (equal areas without measurements).
  const double maxRadius = 28, minRadius = 4;
  const char *const palette[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"};
  std::map<std::string, std::string> notPlotted; // reason -> kernel names
  for (const PlotKernel &pk : plot.kernels) {
    const ReportKernel &k = doc.kernels[pk.kernel];
    if (!pk.omitted.empty()) {
      std::string &names = notPlotted[pk.omitted];
      names += (names.empty() ? "" : ", ") + k.name;
      continue;
    }
    double radius = doc.mode == "static" ? 7 : std::max(minRadius, maxRadius * std::sqrt(k.timeShare));
    std::string color = palette[pk.kernel % 8];
    auto at = [&](const PlotDot &d) {
      double y = d.rate ? ax.y(*d.rate) : ax.stripY();
      return std::make_pair(ax.x(d.intensity), y);
    };
    s += "<g class=\"kernel\" id=\"kernel-" + std::to_string(pk.kernel) + "\" data-kernel=\"" + escapeXml(k.name) +
         "\" data-details=\"" + escapeXml(details(k)) + "\">\n<title>" + escapeXml(details(k)) + "</title>\n";
    if (pk.predicted) {
      auto [px, py] = at(*pk.predicted);
      s += "<circle class=\"dot predicted\" data-intensity=\"" + exact(pk.predicted->intensity) + "\"" +
           (pk.predicted->rate ? " data-flops=\"" + exact(*pk.predicted->rate) + "\"" : "") + " cx=\"" + num(px) +
           "\" cy=\"" + num(py) + "\" r=\"" + num(radius) + "\" fill=\"none\" stroke=\"" + color +
           "\" stroke-width=\"2\"/>\n";
      if (pk.measured) {
        auto [mx, my] = at(*pk.measured);
        double dx = mx - px, dy = my - py, length = std::hypot(dx, dy);
        if (length > radius * 2) // stop short of the measured dot so the head stays visible
          s += "<line class=\"arrow\" x1=\"" + num(px + dx / length * radius) + "\" y1=\"" + num(py + dy / length * radius) +
               "\" x2=\"" + num(mx - dx / length * (radius + 2)) + "\" y2=\"" + num(my - dy / length * (radius + 2)) +
               "\" stroke=\"#555\" stroke-width=\"1.5\" marker-end=\"url(#arrowhead)\"/>\n";
      }
    }
    if (pk.measured) {
      auto [mx, my] = at(*pk.measured);
      s += "<circle class=\"dot measured" + std::string(pk.measured->error ? " error" : "") + "\" data-intensity=\"" +
           exact(pk.measured->intensity) + "\" data-flops=\"" + exact(*pk.measured->rate) + "\" cx=\"" + num(mx) +
           "\" cy=\"" + num(my) + "\" r=\"" + num(radius) + "\" fill=\"" + (pk.measured->error ? "#ff0000" : color) +
           "\" fill-opacity=\"0.75\" stroke=\"" + (pk.measured->error ? "#000" : color) + "\"" +
           (pk.measured->error ? " stroke-width=\"3\" stroke-dasharray=\"3 2\"" : "") + "/>\n";
      if (pk.measured->error)
        s += "<text class=\"error-label\" x=\"" + num(mx + radius + 4) + "\" y=\"" + num(my - radius) +
             "\" fill=\"#ff0000\" font-weight=\"bold\">ERROR: above its ceiling</text>\n";
    }
    const PlotDot &anchor = pk.measured ? *pk.measured : *pk.predicted;
    auto [lx, ly] = at(anchor);
    // On the intensity-only strip, neighbouring dots are common: slanted labels keep apart.
    std::string slant = anchor.rate ? "" : " transform=\"rotate(-40 " + num(lx) + " " + num(ly) + ")\"";
    s += "<text class=\"label\" x=\"" + num(lx + radius + 3) + "\" y=\"" + num(ly + 4) + "\" fill=\"" + color + "\"" +
         slant + ">" + escapeXml(k.name) + "</text>\n</g>\n";
  }
  double legendY = Height - 8;
  s += "<g class=\"legend\" font-size=\"11\"><circle cx=\"" + num(Left) + "\" cy=\"" + num(legendY - 4) +
       "\" r=\"5\" fill=\"none\" stroke=\"#333\"/><text x=\"" + num(Left + 8) + "\" y=\"" + num(legendY) +
       "\">predicted (static" + std::string(plot.dram ? ", at its roof" : "") + ")</text>";
  if (doc.mode == "measured")
    s += "<circle cx=\"" + num(Left + 200) + "\" cy=\"" + num(legendY - 4) + "\" r=\"5\" fill=\"#333\"/><text x=\"" +
         num(Left + 208) + "\" y=\"" + num(legendY) + "\">measured (area = time share)</text>";
  s += "</g>\n";
  double noteY = Top - 2;
  for (const auto &[reason, names] : notPlotted) {
    s += "<text class=\"not-plotted\" x=\"" + num(Left) + "\" y=\"" + num(noteY) + "\" font-size=\"11\">" +
         escapeXml("not plotted, " + reason + ": " + names) + "</text>\n";
    noteY += 13;
  }
  s += "</svg>\n";
  return s;
}

std::string renderSvg(const ReportDocument &doc) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + renderSvgElement(doc);
}

} // namespace roofcheck::report
