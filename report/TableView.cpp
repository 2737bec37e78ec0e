// The kernel table shared by the views, and the terminal view (table, explanations, ASCII roofline).
#include "Format.h"
#include "Plot.h"
#include "Views.h"

#include "roofcheck/KernelNames.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

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

std::vector<const ReportSignature *> signaturesByTime(const ReportKernel &k) {
  std::vector<const ReportSignature *> byTime;
  for (const ReportSignature &s : k.signatures)
    byTime.push_back(&s);
  std::stable_sort(byTime.begin(), byTime.end(),
                   [](const ReportSignature *a, const ReportSignature *b) { return a->timeNs > b->timeNs; });
  return byTime;
}

const std::string &displayName(const ReportKernel &k) { return k.shortName.empty() ? k.name : k.shortName; }

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
  auto value = [](const std::optional<PredictedCounts> &p, const Quantity PredictedCounts::*field) {
    return p ? ((*p).*field).value : std::nullopt;
  };
  if (doc.mode == "static") {
    t.header = {"kernel", "location", "FLOPs", "special", "bytes ideal", "bytes predicted", "AI ideal", "AI predicted",
                "dtype", "bound"};
    for (const ReportKernel &k : doc.kernels) {
      t.rows.push_back({displayName(k), location(k), quantityText(k.predicted, &PredictedCounts::flops, false),
                        quantityText(k.predicted, &PredictedCounts::special, false),
                        quantityText(k.predicted, &PredictedCounts::bytesIdeal, false),
                        quantityText(k.predicted, &PredictedCounts::bytesPredicted, false),
                        quantityText(k.predicted, &PredictedCounts::intensityIdeal, true),
                        quantityText(k.predicted, &PredictedCounts::intensityPredicted, true), k.dtype.value_or("-"),
                        k.boundPredicted.value_or("-")});
      t.keys.push_back({std::nullopt, std::nullopt, value(k.predicted, &PredictedCounts::flops),
                        value(k.predicted, &PredictedCounts::special), value(k.predicted, &PredictedCounts::bytesIdeal),
                        value(k.predicted, &PredictedCounts::bytesPredicted),
                        value(k.predicted, &PredictedCounts::intensityIdeal),
                        value(k.predicted, &PredictedCounts::intensityPredicted), std::nullopt, std::nullopt});
    }
    return t;
  }
  t.header = {"kernel", "launches", "time",   "share", "AI ideal", "AI pred", "AI meas",
              "FLOP/s", "DRAM B/s", "roof",  "of roof",  "bound p/m", "traffic"};
  for (const ReportKernel &k : doc.kernels) {
    t.rows.push_back({displayName(k), std::to_string(k.launches), duration(k.timeNs), percent(k.timeShare),
                      orDash(k.predictedIntensityIdeal, intensity), orDash(k.predictedIntensityPredicted, intensity),
                      orDash(k.measuredIntensity, intensity),
                      orDash(k.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); }),
                      orDash(k.bytesPerSecond, [](double v) { return si(v, "B/s"); }),
                      orDash(k.roof, [](double v) { return si(v, "FLOP/s"); }), orDash(k.fractionOfRoof, percent),
                      bound(k), orDash(k.trafficRatio, ratio)});
    t.keys.push_back({std::nullopt, static_cast<double>(k.launches), k.timeNs, k.timeShare, k.predictedIntensityIdeal,
                      k.predictedIntensityPredicted, k.measuredIntensity, k.flopsPerSecond, k.bytesPerSecond, k.roof,
                      k.fractionOfRoof, std::nullopt, k.trafficRatio});
  }
  return t;
}

std::vector<Section> kernelSections(const ReportKernel &k) {
  std::vector<Section> sections;
  if (k.signatures.size() > 1) {
    Section s{"Launch signatures", {}};
    s.table.header = {"grid", "block", "args", "launches", "time", "share", "AI ideal", "AI measured", "of roof"};
    for (const ReportSignature *sig : signaturesByTime(k)) {
      std::string args;
      for (const auto &[n, v] : sig->args)
        args += (args.empty() ? "" : " ") + n + "=" + v;
      s.table.rows.push_back({dimText(sig->grid), dimText(sig->block), args, std::to_string(sig->launches),
                              duration(sig->timeNs), percent(sig->timeShare),
                              orDash(sig->predictedIntensityIdeal, intensity),
                              orDash(sig->measuredIntensity, intensity), orDash(sig->fractionOfRoof, percent)});
      s.table.keys.push_back({std::nullopt, std::nullopt, std::nullopt, static_cast<double>(sig->launches),
                              sig->timeNs, sig->timeShare, sig->predictedIntensityIdeal, sig->measuredIntensity,
                              sig->fractionOfRoof});
    }
    // A kernel without scalar arguments (or a file without their names) has nothing to show in that column.
    if (std::all_of(s.table.rows.begin(), s.table.rows.end(), [](const auto &row) { return row[2].empty(); })) {
      s.table.header.erase(s.table.header.begin() + 2);
      for (auto &row : s.table.rows)
        row.erase(row.begin() + 2);
      for (auto &keys : s.table.keys)
        keys.erase(keys.begin() + 2);
    }
    sections.push_back(std::move(s));
  }
  if (k.ranks.size() > 1) {
    Section s{"Processes", {}};
    s.table.header = {"process", "launches", "time", "AI measured", "FLOP/s"};
    // Each under its own device's roof (ranks on several GPUs): the fraction says how far each is from it.
    bool roofs = std::any_of(k.ranks.begin(), k.ranks.end(), [](const ReportRank &r) { return r.fractionOfRoof; });
    if (roofs)
      s.table.header.push_back("% of roof");
    for (const ReportRank &r : k.ranks) {
      s.table.rows.push_back({r.label, std::to_string(r.launches), duration(r.timeNs),
                              orDash(r.measuredIntensity, intensity),
                              orDash(r.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); })});
      s.table.keys.push_back(
          {std::nullopt, static_cast<double>(r.launches), r.timeNs, r.measuredIntensity, r.flopsPerSecond});
      if (roofs) {
        s.table.rows.back().push_back(orDash(r.fractionOfRoof, percent));
        s.table.keys.back().push_back(r.fractionOfRoof);
      }
    }
    sections.push_back(std::move(s));
  }
  return sections;
}

namespace {

/// ANSI styles, or nothing when colour is off.
struct Paint {
  bool on = false;
  std::string operator()(const std::string &text, const char *style) const {
    return on && !text.empty() ? std::string("\033[") + style + "m" + text + "\033[0m" : text;
  }
  std::string severity(const std::string &text) const {
    return (*this)(text, text == "error" ? "1;31" : text == "warning" ? "33" : "36");
  }
};
const char *const Bold = "1", *const Red = "31";

// The columns a narrow terminal loses first; the kernel name, time, share and the dots stay.
const char *const DropOrder[] = {"AI pred", "traffic",  "roof",    "launches",   "DRAM B/s", "AI ideal",
                                 "FLOP/s",  "bytes predicted", "AI predicted", "special", "location", "dtype"};
constexpr size_t NameColumnWanted = 32; ///< narrower than this, columns go before the name is cut further
constexpr size_t NameColumnLeast = 12;

/// The first `rows` rows of a table fitted to the terminal, each line after `indent`.
std::string renderColumns(const Table &t, size_t rows, const TextOptions &options, const Paint &paint,
                          const std::string &indent = "") {
  TextOptions o = options;
  o.width = o.width > indent.size() ? o.width - indent.size() : 0;
  std::vector<size_t> width(t.header.size());
  for (size_t c = 0; c < t.header.size(); ++c) {
    width[c] = displayWidth(t.header[c]);
    for (size_t r = 0; r < rows; ++r)
      width[c] = std::max(width[c], displayWidth(t.rows[r][c]));
  }
  std::vector<bool> kept(t.header.size(), true);
  auto others = [&] {
    size_t sum = 0;
    for (size_t c = 1; c < width.size(); ++c)
      sum += kept[c] ? width[c] + 2 : 0;
    return sum;
  };
  std::vector<std::string> dropped;
  for (const char *name : DropOrder) {
    if (o.fullNames || o.width >= others() + std::min(width[0], NameColumnWanted))
      break;
    auto at = std::find(t.header.begin(), t.header.end(), name);
    if (at != t.header.end()) {
      kept[static_cast<size_t>(at - t.header.begin())] = false;
      dropped.push_back(name);
    }
  }
  size_t room = o.width > others() ? o.width - others() : 0;
  size_t nameWidth = o.fullNames ? width[0] : std::min(width[0], std::max(room, NameColumnLeast));
  auto line = [&](const std::vector<std::string> &cells, bool header) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (!kept[c])
        continue;
      std::string cell = c == 0 ? fitShortName(cells[c], nameWidth) : cells[c];
      size_t w = c == 0 ? nameWidth : width[c];
      std::string pad(w - displayWidth(cell), ' ');
      std::string shown = header ? paint(cell, Bold) : cell.find("MISMATCH") != std::string::npos ? paint(cell, Red) : cell;
      out += c == 0 ? shown + pad : "  " + pad + shown; // names left, numbers right
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return indent + out + "\n";
  };
  std::string out = line(t.header, true);
  for (size_t r = 0; r < rows; ++r)
    out += line(t.rows[r], false);
  if (!dropped.empty()) {
    std::string names;
    for (const std::string &d : dropped)
      names += (names.empty() ? "" : ", ") + d;
    out += indent + "(not shown at " + std::to_string(options.width) + " columns: " + names + ")\n";
  }
  return out;
}

/// Where a mark goes when its own cell holds another kernel's: the nearest free cell, rows costing more
/// than columns (a row spans more of the axis).
std::vector<std::pair<int, int>> nearbyCells() {
  std::vector<std::pair<int, int>> cells;
  for (int dr = -2; dr <= 2; ++dr)
    for (int dc = -4; dc <= 4; ++dc)
      if (dr || dc)
        cells.push_back({dr, dc});
  std::stable_sort(cells.begin(), cells.end(), [](const auto &a, const auto &b) {
    return 3 * std::abs(a.first) + std::abs(a.second) < 3 * std::abs(b.first) + std::abs(b.second);
  });
  return cells;
}

/// Powers of ten within [lo, hi].
std::vector<double> decades(double lo, double hi) {
  std::vector<double> out;
  for (int e = static_cast<int>(std::ceil(std::log10(lo) - 1e-9)); e <= static_cast<int>(std::floor(std::log10(hi) + 1e-9));
       ++e)
    out.push_back(std::pow(10.0, e));
  return out;
}

/// A compact roofline: '/' the DRAM slope, '-' the compute roofs, '+' ridge points; each kernel of the
/// top gets a letter, capital for its measured dot and small for its predicted one, and no mark ever
/// hides another (a crowded mark moves to the nearest free cell and the legend says so).
std::string asciiRoofline(const ReportDocument &doc, size_t shown, const TextOptions &o, const Paint &paint) {
  Plot plot = layoutPlot(doc);
  if (!plot.hasRates || !plot.dram)
    return "";
  constexpr int LabelWidth = 12, Height = 16;
  const int width = static_cast<int>(std::clamp<size_t>(o.width > LabelWidth + 3 ? o.width - LabelWidth - 3 : 0, 24, 64));
  std::vector<std::string> grid(Height, std::string(width, ' '));
  std::vector<std::vector<bool>> marked(Height, std::vector<bool>(width, false));
  auto col = [&](double x) {
    return static_cast<int>(std::lround((std::log10(x) - std::log10(plot.xmin)) /
                                        (std::log10(plot.xmax) - std::log10(plot.xmin)) * (width - 1)));
  };
  auto row = [&](double y) {
    return Height - 1 - static_cast<int>(std::lround((std::log10(y) - std::log10(plot.ymin)) /
                                                     (std::log10(plot.ymax) - std::log10(plot.ymin)) * (Height - 1)));
  };
  auto inside = [&](int c, int r) { return c >= 0 && c < width && r >= 0 && r < Height; };
  auto put = [&](int c, int r, char ch) {
    if (inside(c, r))
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

  static const std::vector<std::pair<int, int>> nearby = nearbyCells();
  // Returns how far the mark moved (0: its own cell), or -1 when no cell near it was free.
  auto mark = [&](int c, int r, char ch) {
    if (!inside(c, r))
      return -1;
    if (!marked[r][c]) {
      grid[r][c] = ch;
      marked[r][c] = true;
      return 0;
    }
    for (const auto &[dr, dc] : nearby)
      if (inside(c + dc, r + dr) && !marked[r + dr][c + dc]) {
        grid[r + dr][c + dc] = ch;
        marked[r + dr][c + dc] = true;
        return std::max(std::abs(dr), std::abs(dc));
      }
    return -1;
  };
  std::string legend;
  bool measured = doc.mode == "measured";
  for (const PlotKernel &pk : plot.kernels) {
    if (pk.kernel >= shown)
      continue;
    const ReportKernel &k = doc.kernels[pk.kernel];
    std::vector<std::string> notes;
    char letter = pk.kernel < 26 ? static_cast<char>('A' + pk.kernel) : 0;
    auto place = [&](const std::optional<PlotDot> &dot, char ch, const char *which) {
      if (!dot || !letter)
        return;
      int moved = mark(col(dot->intensity), row(*dot->rate), ch);
      if (moved > 0)
        notes.push_back(std::string(which) + " mark " + std::to_string(moved) + " cell" + (moved > 1 ? "s" : "") +
                        " off its place (crowded)");
      else if (moved < 0)
        notes.push_back(std::string(which) + " mark not drawn (crowded)");
      if (dot->error)
        notes.push_back(std::string(which) + " dot above its ceiling");
    };
    place(pk.measured, letter, "measured");
    place(pk.predicted, static_cast<char>(std::tolower(letter)), "predicted");
    if (!letter && (pk.measured || pk.predicted))
      notes.push_back("not drawn: 26 letters, for the first 26 kernels");
    if (!pk.omitted.empty())
      notes.push_back("not plotted: " + pk.omitted);
    std::string marks = {pk.measured && letter ? letter : ' ',
                         pk.predicted && letter ? static_cast<char>(std::tolower(letter)) : ' '};
    std::string share = measured ? percent(k.timeShare) : "";
    std::string head = "  " + marks + (measured ? std::string(7 - std::min<size_t>(7, share.size()), ' ') + share : "") +
                       "  ";
    std::string name = o.fullNames ? k.name : fitShortName(displayName(k), o.width > head.size() + 12 ? o.width - head.size() : 12);
    std::string note;
    for (const std::string &n : notes)
      note += (note.empty() ? "(" : "; ") + n;
    if (!note.empty())
      note += ")";
    bool sameLine = displayWidth(head) + displayWidth(name) + 1 + displayWidth(note) <= o.width;
    legend += head + name + (note.empty() ? "" : sameLine ? " " + note : "\n" + std::string(head.size() + 2, ' ') + note) +
              "\n";
  }

  std::string out = paint("roofline", Bold) +
                    " (FLOP/s over FLOP/byte, log-log; capital = measured, small = predicted, " +
                    (measured ? "with the kernel's share of GPU time" : "static estimate") + ")\n";
  std::vector<std::string> yLabels(Height);
  int lastLabelled = -2;
  for (double y : decades(plot.ymin, plot.ymax)) {
    int r = row(y);
    if (r >= 0 && r < Height && std::abs(r - lastLabelled) > 1) {
      yLabels[r] = si(y, "FLOP/s");
      lastLabelled = r;
    }
  }
  for (int r = 0; r < Height; ++r) {
    const std::string &label = yLabels[r];
    out += std::string(LabelWidth - std::min<size_t>(LabelWidth, label.size()), ' ') + label +
           (label.empty() ? " |" : " +") + grid[r] + "\n";
  }
  std::string axis(width, '-'), labels(std::max<size_t>(o.width, LabelWidth + 2 + width) - LabelWidth - 2, ' ');
  int freeFrom = 0;
  for (double x : decades(plot.xmin, plot.xmax)) {
    int c = col(x);
    if (c < 0 || c >= width)
      continue;
    axis[c] = '+';
    std::string text = x >= 1 ? count(x) : intensity(x);
    int start = std::max(0, c - static_cast<int>(text.size()) / 2);
    if (start >= freeFrom && start + text.size() <= labels.size()) {
      labels.replace(start, text.size(), text);
      freeFrom = start + static_cast<int>(text.size()) + 1;
    }
  }
  while (!labels.empty() && labels.back() == ' ')
    labels.pop_back();
  out += std::string(LabelWidth + 1, ' ') + "+" + axis + "\n";
  std::string xLine = std::string(LabelWidth + 2, ' ') + labels;
  out += xLine + (xLine.size() + 8 <= o.width ? "  FLOP/B" : "") + "\n";
  for (const ReportCeiling &c : plot.memory)
    out += "  " + c.name + " " + si(c.value, "B/s") + " (" + c.dtype + ")\n";
  for (const ReportCeiling &c : plot.compute)
    out += "  " + ceilingName(c) + " " + si(c.value, "FLOP/s") +
           (c.ridge ? ", ridge " + intensity(*c.ridge) + " FLOP/B" : "") + "\n";
  return out + legend;
}

void appendExplanations(std::string &out, const std::vector<Explanation> &list, const std::string &indent,
                        const Paint &paint) {
  for (const Explanation &e : list) {
    out += indent + paint.severity(e.severity) + " [" + e.kind + "] " + e.message + "\n";
    for (const std::string &ev : e.evidence)
      out += indent + "    " + ev + "\n";
  }
}

constexpr size_t SectionRowsShown = 5;

void appendDetails(std::string &out, const ReportKernel &k, const TextOptions &o, const Paint &paint) {
  std::vector<Section> sections = kernelSections(k);
  if (k.explanations.empty() && sections.empty())
    return;
  out += "\n" + paint(o.fullNames ? k.name : displayName(k), Bold) +
         (k.file.empty() ? "" : " (" + k.file + ":" + std::to_string(k.line) + ")") + ":\n";
  appendExplanations(out, k.explanations, "  ", paint);
  for (const Section &s : sections) {
    size_t rows = s.table.rows.size(), shown = o.top == 0 ? rows : std::min(rows, SectionRowsShown);
    out += "  " + s.title + ":\n" + renderColumns(s.table, shown, o, paint, "    ");
    if (shown < rows)
      out += "    ... " + std::to_string(rows - shown) + " more (--top 0 lists all)\n";
  }
}

/// One line for the kernels past the top: how many, their time and launches, and their explanations.
std::string restLine(const ReportDocument &doc, size_t shown) {
  size_t rest = doc.kernels.size() - shown;
  int64_t launches = 0;
  double share = 0;
  std::map<std::string, size_t> severities;
  for (size_t i = shown; i < doc.kernels.size(); ++i) {
    launches += doc.kernels[i].launches;
    share += doc.kernels[i].timeShare;
    for (const Explanation &e : doc.kernels[i].explanations)
      ++severities[e.severity];
  }
  std::string line = "... " + std::to_string(rest) + " more kernel" + (rest > 1 ? "s" : "");
  if (doc.mode == "measured")
    line += ": " + percent(share) + " of GPU time, " + count(static_cast<double>(launches)) + " launches";
  std::string explained;
  for (const char *s : {"error", "warning", "note"})
    if (severities.count(s))
      explained += (explained.empty() ? "" : ", ") + std::to_string(severities[s]) + " " + s +
                   (severities[s] > 1 ? "s" : "");
  if (!explained.empty())
    line += "; their explanations: " + explained;
  return line + " (--top 0 lists all)\n";
}

} // namespace

std::string renderText(const ReportDocument &doc, const TextOptions &options) {
  Paint paint{options.colour};
  size_t shown = options.top == 0 ? doc.kernels.size() : std::min(options.top, doc.kernels.size());
  std::string out = "roofcheck report: " + modeLine(doc) + "\n\n";
  Table table = kernelTable(doc);
  if (options.fullNames)
    for (size_t i = 0; i < doc.kernels.size(); ++i)
      table.rows[i][0] = doc.kernels[i].name;
  out += renderColumns(table, shown, options, paint);
  if (shown < doc.kernels.size())
    out += restLine(doc, shown);
  for (size_t i = 0; i < shown; ++i)
    appendDetails(out, doc.kernels[i], options, paint);
  if (!doc.problems.empty()) {
    out += "\nproblems:\n";
    appendExplanations(out, doc.problems, "  ", paint);
  }
  std::string plot = asciiRoofline(doc, shown, options, paint);
  if (!plot.empty())
    out += "\n" + plot;
  return out;
}

} // namespace roofcheck::report
