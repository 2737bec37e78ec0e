// The roofline as SVG: log-log axes, each measured ceiling drawn and labelled with its value and dtype,
// ridge points marked, a hollow predicted dot joined by an arrow to the filled measured dot, dot area
// proportional to time share. Element classes and data-* attributes name what each shape is, so the
// HTML view (and tests) can find them.
#include "Format.h"
#include "Plot.h"
#include "SvgLayout.h"
#include "Views.h"

#include <algorithm>
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

// The plot spans Left..PlotRight; where there are compute roofs, a column right of it holds their labels,
// where no dot can cover them.
constexpr double Left = 100, PlotSpan = 760, Right = 40, LabelColumn = 280, Height = 560, Top = 40, Bottom = 70;
constexpr double PlotRight = Left + PlotSpan;

struct Axes {
  const Plot &plot;
  double width = PlotRight + Right + (plot.hasRates && !plot.compute.empty() ? LabelColumn : 0);
  double x(double v) const {
    return Left + (std::log10(v) - std::log10(plot.xmin)) / (std::log10(plot.xmax) - std::log10(plot.xmin)) *
                      PlotSpan;
  }
  double y(double v) const {
    return Height - Bottom - (std::log10(v) - std::log10(plot.ymin)) /
                                 (std::log10(plot.ymax) - std::log10(plot.ymin)) * (Height - Top - Bottom);
  }
  double stripY() const { return (Top + Height - Bottom) / 2; }
};

std::string ridgeText(double ridge) { return intensity(ridge) + " FLOP/B"; }

std::string details(const ReportKernel &k) {
  std::string d = displayName(k);
  if (d != k.name)
    d += "\n" + k.name;
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

/// Memory levels as slopes up to the highest compute roof, compute roofs from their ridge on, each ridge
/// marked (its value in its roof's label). Labels are placed highest value first, each at the first free
/// spot near its own (SvgLayout.h): a compute roof's in the column right of the plot, joined to its roof.
std::string ceilingsSvg(const Plot &plot, const Axes &ax, LabelLayout &labels) {
  double topCompute = 0;
  for (const ReportCeiling &c : plot.compute)
    topCompute = std::max(topCompute, c.value);
  auto byValue = [](const std::vector<ReportCeiling> &cs) {
    std::vector<size_t> order(cs.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cs[a].value > cs[b].value; });
    return order;
  };
  struct Placed {
    std::string text;
    double x = 0, y = 0;
  };
  std::vector<Placed> computeLabels(plot.compute.size()), memoryLabels(plot.memory.size());
  std::vector<std::pair<double, double>> memorySpans(plot.memory.size()); // x0, x1; x0 > x1: not drawn
  std::string s;
  for (size_t i : byValue(plot.compute)) {
    const ReportCeiling &c = plot.compute[i];
    Placed &p = computeLabels[i];
    p.text = ceilingName(c) + " " + si(c.value, "FLOP/s") + (c.ridge ? ", ridge " + ridgeText(*c.ridge) : "");
    // In the column right of the plot, level with the roof, else on the nearest free line.
    LabelSpot spot =
        labels.place(p.text, 12, LabelLayout::around({PlotRight + 10, ax.y(c.value) + 4, Anchor::Start}, 12));
    p.x = spot.x;
    p.y = spot.y;
  }
  for (size_t i : byValue(plot.memory)) {
    const ReportCeiling &c = plot.memory[i];
    double x0 = plot.xmin, x1 = topCompute > 0 ? std::min(plot.xmax, topCompute / c.value) : plot.xmax;
    if (c.value * x0 > plot.ymax) {
      memorySpans[i] = {1, 0};
      continue;
    }
    x0 = std::max(x0, plot.ymin / c.value);
    memorySpans[i] = {x0, x1};
    Placed &p = memoryLabels[i];
    p.text = c.name + " " + si(c.value, "B/s") + " (" + c.dtype + ")";
    LabelSpot spot = labels.place(p.text, 12, LabelLayout::around({ax.x(x0) + 8, ax.y(c.value * x0) - 8}, 12));
    p.x = spot.x;
    p.y = spot.y;
  }
  for (size_t i = 0; i < plot.memory.size(); ++i) {
    const ReportCeiling &c = plot.memory[i];
    auto [x0, x1] = memorySpans[i];
    if (x0 > x1)
      continue;
    s += "<g class=\"ceiling memory\" data-name=\"" + escapeXml(c.name) + "\" data-dtype=\"" + escapeXml(c.dtype) +
         "\" data-value=\"" + exact(c.value) + "\"><line x1=\"" + num(ax.x(x0)) + "\" y1=\"" + num(ax.y(c.value * x0)) +
         "\" x2=\"" + num(ax.x(x1)) + "\" y2=\"" + num(ax.y(c.value * x1)) + "\" stroke=\"" +
         (c.name == "dram" ? "#1f4e9c" : "#7a9cd6") + "\" stroke-width=\"2\"" +
         (c.name == "dram" ? "" : " stroke-dasharray=\"6 4\"") + "/><text x=\"" + num(memoryLabels[i].x) +
         "\" y=\"" + num(memoryLabels[i].y) + "\" fill=\"#1f4e9c\">" + escapeXml(memoryLabels[i].text) +
         "</text></g>\n";
  }
  for (size_t i = 0; i < plot.compute.size(); ++i) {
    const ReportCeiling &c = plot.compute[i];
    double start = c.ridge ? *c.ridge : plot.xmin;
    s += "<g class=\"ceiling compute\" data-name=\"" + escapeXml(c.name) + "\" data-dtype=\"" + escapeXml(c.dtype) +
         "\" data-value=\"" + exact(c.value) + "\"><line x1=\"" + num(ax.x(start)) + "\" y1=\"" + num(ax.y(c.value)) +
         "\" x2=\"" + num(PlotRight) + "\" y2=\"" + num(ax.y(c.value)) +
         "\" stroke=\"#b03a2e\" stroke-width=\"2\"/><line class=\"roof-leader\" x1=\"" + num(PlotRight) + "\" y1=\"" +
         num(ax.y(c.value)) + "\" x2=\"" + num(computeLabels[i].x - 2) + "\" y2=\"" + num(computeLabels[i].y - 4) +
         "\" stroke=\"#b03a2e\" stroke-width=\"1\"/><text x=\"" + num(computeLabels[i].x) + "\" y=\"" +
         num(computeLabels[i].y) + "\" fill=\"#b03a2e\">" + escapeXml(computeLabels[i].text) + "</text></g>\n";
    if (c.ridge)
      s += "<g class=\"ridge\" data-name=\"" + escapeXml(ceilingName(c)) + "\" data-ridge=\"" +
           exact(*c.ridge) + "\"><title>" + escapeXml(ceilingName(c) + " ridge " + ridgeText(*c.ridge)) +
           "</title><path d=\"M " + num(ax.x(*c.ridge)) + " " + num(ax.y(c.value) - 6) + " l 6 6 l -6 6 "
           "l -6 -6 z\" fill=\"#b03a2e\"/></g>\n";
  }
  return s;
}

} // namespace

std::string renderSvgElement(const ReportDocument &doc, size_t labelled) {
  Plot plot = layoutPlot(doc);
  Axes ax{plot};
  LabelLayout labels;
  // No label may leave the picture.
  constexpr double Far = 1e5;
  for (const Box &outside : {Box{-Far, -Far, 0, Far}, Box{ax.width, -Far, Far, Far}, Box{-Far, -Far, Far, 0},
                             Box{-Far, Height, Far, Far}})
    labels.reserve(outside);
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline\" width=\"" + num(ax.width) +
                  "\" height=\"" + num(Height) + "\" viewBox=\"0 0 " + num(ax.width) + " " + num(Height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
       "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#555\"/></marker>"
       "</defs>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(ax.width) + "\" height=\"" + num(Height) + "\" fill=\"white\"/>\n";
  s += "<text class=\"mode\" x=\"" + num(Left) + "\" y=\"24\" font-size=\"14\" font-weight=\"bold\">" +
       escapeXml(modeLine(doc)) + "</text>\n";
  labels.reserve({0, 0, ax.width, 28}); // the title line

  // Axes with a grid line at every decade.
  s += "<g class=\"axes\" stroke=\"#ccc\">\n";
  for (double v = plot.xmin; v <= plot.xmax * 1.0001; v *= 10)
    s += "<line x1=\"" + num(ax.x(v)) + "\" y1=\"" + num(Top) + "\" x2=\"" + num(ax.x(v)) + "\" y2=\"" +
         num(Height - Bottom) + "\"/><text x=\"" + num(ax.x(v)) + "\" y=\"" + num(Height - Bottom + 16) +
         "\" text-anchor=\"middle\" stroke=\"none\" fill=\"#333\">" + intensity(v) + "</text>\n";
  if (plot.hasRates)
    for (double v = plot.ymin; v <= plot.ymax * 1.0001; v *= 10)
      s += "<line x1=\"" + num(Left) + "\" y1=\"" + num(ax.y(v)) + "\" x2=\"" + num(PlotRight) + "\" y2=\"" +
           num(ax.y(v)) + "\"/><text x=\"" + num(Left - 6) + "\" y=\"" + num(ax.y(v) + 4) +
           "\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">" + si(v, "FLOP/s") + "</text>\n";
  s += "</g>\n";
  s += "<text x=\"" + num((Left + PlotRight) / 2) + "\" y=\"" + num(Height - 24) +
       "\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte, log)</text>\n";
  if (plot.hasRates)
    s += "<text transform=\"translate(14," + num((Top + Height - Bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">FLOP/s (log)</text>\n";
  else
    s += "<line x1=\"" + num(Left) + "\" y1=\"" + num(ax.stripY()) + "\" x2=\"" + num(PlotRight) + "\" y2=\"" +
         num(ax.stripY()) + "\" stroke=\"#999\"/><text x=\"" + num(Left) + "\" y=\"" + num(ax.stripY() + 60) +
         "\">no ceilings: predicted intensity only (give a roofcheck.ceilings/1 file for roofs)</text>\n";

  // Kernels without a dot are named at the top of the plot; labels keep clear of those lines.
  std::map<std::string, std::string> notPlotted; // reason -> kernel names
  // Names while the line stays within the picture (about 6 px a character at 11 px), the rest counted.
  std::map<std::string, size_t> notPlottedCount, notPlottedNamed;
  const size_t lineCharacters = static_cast<size_t>((ax.width - Left) / 6.2);
  for (const PlotKernel &pk : plot.kernels)
    if (!pk.omitted.empty()) {
      ++notPlottedCount[pk.omitted];
      std::string &names = notPlotted[pk.omitted];
      std::string name = displayName(doc.kernels[pk.kernel]);
      size_t length = std::string("not plotted, ").size() + pk.omitted.size() + names.size() + name.size() + 20;
      if (notPlottedNamed[pk.omitted] == 0 || length <= lineCharacters) {
        names += (names.empty() ? "" : ", ") + name;
        ++notPlottedNamed[pk.omitted];
      }
    }
  std::string notes;
  double noteY = Top - 2;
  for (const auto &[reason, names] : notPlotted) {
    size_t rest = notPlottedCount[reason] - notPlottedNamed[reason];
    std::string text = "not plotted, " + reason + ": " + names + (rest ? " and " + std::to_string(rest) + " more" : "");
    notes += "<text class=\"not-plotted\" x=\"" + num(Left) + "\" y=\"" + num(noteY) + "\" font-size=\"11\">" +
             escapeXml(text) + "</text>\n";
    labels.reserve(textBox(text, 11, Left, noteY, Anchor::Start));
    noteY += 13;
  }

  // Kernels: area proportional to time share (equal areas without measurements), drawn largest first so
  // that smaller dots lie on top; a dot that would hide another kernel's dot moves off it.
  const double maxRadius = 28, minRadius = 4;
  const char *const palette[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"};
  auto radiusOf = [&](const PlotKernel &pk) {
    return doc.mode == "static" ? 7.0 : std::max(minRadius, maxRadius * std::sqrt(doc.kernels[pk.kernel].timeShare));
  };
  std::vector<const PlotKernel *> drawn;
  for (const PlotKernel &pk : plot.kernels)
    if (pk.omitted.empty())
      drawn.push_back(&pk);
  std::stable_sort(drawn.begin(), drawn.end(),
                   [&](const PlotKernel *a, const PlotKernel *b) { return radiusOf(*a) > radiusOf(*b); });
  auto at = [&](const PlotDot &d) {
    double y = d.rate ? ax.y(*d.rate) : ax.stripY();
    return std::make_pair(ax.x(d.intensity), y);
  };
  std::vector<DotPlace> dots;
  std::vector<bool> filled; // measured, not predicted
  for (const PlotKernel *pk : drawn)
    for (bool measured : {false, true})
      if (const std::optional<PlotDot> &d = measured ? pk->measured : pk->predicted) {
        auto [x, y] = at(*d);
        dots.push_back({pk->kernel, x, y, radiusOf(*pk)});
        filled.push_back(measured);
      }
  separateDots(dots);
  auto reserveDots = [&](bool measured) {
    for (size_t i = 0; i < dots.size(); ++i)
      if (filled[i] == measured)
        labels.reserve({dots[i].drawnX - dots[i].radius, dots[i].drawnY - dots[i].radius,
                        dots[i].drawnX + dots[i].radius, dots[i].drawnY + dots[i].radius});
  };
  // Memory labels keep clear of the filled measured dots (a hollow predicted dot hides nothing); kernel
  // labels of every dot.
  reserveDots(true);

  if (plot.hasRates)
    s += ceilingsSvg(plot, ax, labels);
  reserveDots(false);

  size_t nextDot = 0;
  for (const PlotKernel *pk : drawn) {
    const ReportKernel &k = doc.kernels[pk->kernel];
    double radius = radiusOf(*pk);
    std::string color = palette[pk->kernel % 8];
    const DotPlace *predicted = pk->predicted ? &dots[nextDot++] : nullptr;
    const DotPlace *measured = pk->measured ? &dots[nextDot++] : nullptr;
    bool labelledKernel = labelled == 0 || pk->kernel < labelled;
    s += "<g class=\"kernel" + std::string(labelledKernel ? "" : " unlabelled") + "\" id=\"kernel-" +
         std::to_string(pk->kernel) + "\" data-kernel=\"" + escapeXml(k.name) + "\" data-label=\"" +
         escapeXml(displayName(k)) + "\" data-details=\"" + escapeXml(details(k)) + "\">\n<title>" +
         escapeXml(details(k)) + "</title>\n";
    if (predicted) {
      double px = predicted->drawnX, py = predicted->drawnY;
      s += "<circle class=\"dot predicted\" data-intensity=\"" + exact(pk->predicted->intensity) + "\"" +
           (pk->predicted->rate ? " data-flops=\"" + exact(*pk->predicted->rate) + "\"" : "") + " cx=\"" + num(px) +
           "\" cy=\"" + num(py) + "\" r=\"" + num(radius) + "\" fill=\"none\" stroke=\"" + color +
           "\" stroke-width=\"2\"/>\n";
      if (measured) {
        double mx = measured->drawnX, my = measured->drawnY;
        double dx = mx - px, dy = my - py, length = std::hypot(dx, dy);
        if (length > radius * 2) // stop short of the measured dot so the head stays visible
          s += "<line class=\"arrow\" x1=\"" + num(px + dx / length * radius) + "\" y1=\"" +
               num(py + dy / length * radius) + "\" x2=\"" + num(mx - dx / length * (radius + 2)) + "\" y2=\"" +
               num(my - dy / length * (radius + 2)) +
               "\" stroke=\"#555\" stroke-width=\"1.5\" marker-end=\"url(#arrowhead)\"/>\n";
      }
    }
    if (measured) {
      double mx = measured->drawnX, my = measured->drawnY;
      s += "<circle class=\"dot measured" + std::string(pk->measured->error ? " error" : "") + "\" data-intensity=\"" +
           exact(pk->measured->intensity) + "\" data-flops=\"" + exact(*pk->measured->rate) + "\" cx=\"" + num(mx) +
           "\" cy=\"" + num(my) + "\" r=\"" + num(radius) + "\" fill=\"" + (pk->measured->error ? "#ff0000" : color) +
           "\" fill-opacity=\"0.75\" stroke=\"" + (pk->measured->error ? "#000" : color) + "\"" +
           (pk->measured->error ? " stroke-width=\"3\" stroke-dasharray=\"3 2\"" : "") + "/>\n";
      if (pk->measured->error && labelledKernel) // an unlabelled one says so on hover and in its details
        s += "<text class=\"error-label\" x=\"" + num(mx + radius + 4) + "\" y=\"" + num(my - radius) +
             "\" fill=\"#ff0000\" font-weight=\"bold\">ERROR: above its ceiling</text>\n";
    }
    // A dot drawn off its place keeps a mark where it belongs, joined to it.
    for (const DotPlace *d : {predicted, measured})
      if (d && d->moved())
        s += "<line class=\"leader\" x1=\"" + num(d->x) + "\" y1=\"" + num(d->y) + "\" x2=\"" + num(d->drawnX) +
             "\" y2=\"" + num(d->drawnY) + "\" stroke=\"#333\" stroke-width=\"1\"/>" +
             "<circle class=\"true-position\" cx=\"" + num(d->x) + "\" cy=\"" + num(d->y) + "\" r=\"2.5\" fill=\"" +
             color + "\" stroke=\"#333\"/>\n";
    if (!labelledKernel) { // named on hover, and by the HTML view when selected
      s += "</g>\n";
      continue;
    }
    // The label takes the first free line right or left of its dot, joined to the dot when it had to move
    // off its own line (on the intensity-only strip too, where coinciding dots are common).
    const DotPlace &anchor = measured ? *measured : *predicted;
    double ly = anchor.drawnY + 4;
    LabelSpot right{anchor.drawnX + radius + 3, ly, Anchor::Start}, left{anchor.drawnX - radius - 3, ly, Anchor::End};
    LabelSpot placed = labels.place(displayName(k), 12, LabelLayout::around(right, 12, 0, 0, left));
    bool onLeft = placed.anchor == Anchor::End;
    if (placed.y != ly)
      s += "<line class=\"leader\" x1=\"" + num(anchor.drawnX + (onLeft ? -radius : radius)) + "\" y1=\"" +
           num(anchor.drawnY) + "\" x2=\"" + num(placed.x + (onLeft ? 1 : -1)) + "\" y2=\"" + num(placed.y - 4) +
           "\" stroke=\"" + color + "\" stroke-width=\"1\"/>\n";
    s += "<text class=\"label\" x=\"" + num(placed.x) + "\" y=\"" + num(placed.y) + "\"" +
         (onLeft ? " text-anchor=\"end\"" : "") + " fill=\"" + color + "\">" + escapeXml(displayName(k)) + "</text>\n</g>\n";
  }
  double legendY = Height - 8;
  s += "<g class=\"legend\" font-size=\"11\"><circle cx=\"" + num(Left) + "\" cy=\"" + num(legendY - 4) +
       "\" r=\"5\" fill=\"none\" stroke=\"#333\"/><text x=\"" + num(Left + 8) + "\" y=\"" + num(legendY) +
       "\">predicted (static" + std::string(plot.dram ? ", at its roof" : "") + ")</text>";
  if (doc.mode == "measured")
    s += "<circle cx=\"" + num(Left + 200) + "\" cy=\"" + num(legendY - 4) + "\" r=\"5\" fill=\"#333\"/><text x=\"" +
         num(Left + 208) + "\" y=\"" + num(legendY) + "\">measured (area = time share)</text>";
  s += "</g>\n";
  s += notes;
  s += "</svg>\n";
  return s;
}

std::string renderSvg(const ReportDocument &doc, size_t labelled) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + renderSvgElement(doc, labelled);
}

} // namespace roofcheck::report
