#include "Format.h"
#include "Views.h"

namespace roofcheck::report {

namespace {

std::string cell(const std::string &text) {
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string row(const std::vector<std::string> &cells) {
  std::string out = "|";
  for (const std::string &c : cells)
    out += " " + cell(c) + " |";
  return out + "\n";
}

void explanations(std::string &out, const std::vector<Explanation> &list) {
  for (const Explanation &e : list) {
    out += "- **" + e.severity + "** `" + e.kind + "`: " + e.message + "\n";
    for (const std::string &ev : e.evidence)
      out += "  - `" + ev + "`\n";
  }
}

} // namespace

std::string renderMarkdown(const ReportDocument &doc) {
  std::string out = "# roofcheck report\n\n*" + modeLine(doc) + "*\n\n";
  if (!doc.ceilings.empty()) {
    out += "Ceilings (measured):";
    for (const ReportCeiling &c : doc.ceilings)
      out += " " + c.name + " " + c.dtype + " " + si(c.value, c.kind == "memory" ? "B/s" : "FLOP/s") +
             (c.ridge ? " (ridge " + intensity(*c.ridge) + " FLOP/B)" : "") + ";";
    out.back() = '\n';
    out += "\n";
  }
  Table t = kernelTable(doc);
  out += row(t.header);
  std::vector<std::string> rule(t.header.size(), "---:");
  rule[0] = "---";
  out += row(rule);
  for (const auto &r : t.rows)
    out += row(r);
  for (const ReportKernel &k : doc.kernels) {
    if (k.explanations.empty() && k.signatures.size() < 2 && k.ranks.size() < 2)
      continue;
    out += "\n## `" + displayName(k) + "`" + (k.file.empty() ? "" : " (" + k.file + ":" + std::to_string(k.line) + ")") +
           "\n\n";
    if (displayName(k) != k.name)
      out += "`" + k.name + "`\n\n";
    explanations(out, k.explanations);
    if (k.signatures.size() > 1) {
      out += "\n" + row({"grid", "block", "args", "launches", "time", "share", "AI ideal", "AI measured", "of roof"});
      out += row({"---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:"});
      for (const ReportSignature &s : k.signatures) {
        std::string args;
        for (const auto &[n, v] : s.args)
          args += (args.empty() ? "" : " ") + n + "=" + v;
        out += row({dimText(s.grid), dimText(s.block), args, std::to_string(s.launches), duration(s.timeNs),
                    percent(s.timeShare), orDash(s.predictedIntensityIdeal, intensity),
                    orDash(s.measuredIntensity, intensity), orDash(s.fractionOfRoof, percent)});
      }
    }
    if (k.ranks.size() > 1) {
      out += "\n" + row({"process", "launches", "time", "AI measured", "FLOP/s"});
      out += row({"---", "---:", "---:", "---:", "---:"});
      for (const ReportRank &r : k.ranks)
        out += row({r.label, std::to_string(r.launches), duration(r.timeNs), orDash(r.measuredIntensity, intensity),
                    orDash(r.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); })});
    }
  }
  if (!doc.problems.empty()) {
    out += "\n## Problems\n\n";
    explanations(out, doc.problems);
  }
  return out;
}

} // namespace roofcheck::report
