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

/// A table with numbers aligned right and the first column left.
void table(std::string &out, const Table &t) {
  out += row(t.header);
  std::vector<std::string> rule(t.header.size(), "---:");
  rule[0] = "---";
  out += row(rule);
  for (const auto &r : t.rows)
    out += row(r);
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
  table(out, kernelTable(doc));
  for (const ReportKernel &k : doc.kernels) {
    std::vector<Section> sections = kernelSections(k);
    if (k.explanations.empty() && sections.empty())
      continue;
    out += "\n## `" + displayName(k) + "`" + (k.file.empty() ? "" : " (" + k.file + ":" + std::to_string(k.line) + ")") +
           "\n\n";
    if (displayName(k) != k.name)
      out += "`" + k.name + "`\n\n";
    explanations(out, k.explanations);
    for (const Section &section : sections) {
      out += "\n### " + section.title + "\n\n";
      table(out, section.table);
    }
  }
  if (!doc.problems.empty()) {
    out += "\n## Problems\n\n";
    explanations(out, doc.problems);
  }
  return out;
}

} // namespace roofcheck::report
