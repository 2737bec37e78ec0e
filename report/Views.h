// The views of the collected model. Each renders the same ReportDocument; none computes a quantity
// of its own (the JSON view is core's roofcheck.report/1 writer).
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

/// The kernel table every view shows: one header row, one row a kernel, in the model's order
/// (time share, largest first, in measured mode).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// The number behind each cell, for sorting (nullopt: text, or no value).
  std::vector<std::vector<std::optional<double>>> keys;
};
Table kernelTable(const ReportDocument &doc);

/// A table of one kernel's details, under the title the views give it.
struct Section {
  std::string title; ///< "Launch signatures", "Processes"
  Table table;
};
/// The detail sections of a kernel, in the order every view shows them (views by section, as llvm-mca's: a
/// new section is one function in TableView.cpp, and each view renders any Table its own way): the launch
/// signatures, the most GPU time first, and the processes, each where the kernel has more than one.
std::vector<Section> kernelSections(const ReportKernel &k);

/// "static estimate only, no measurement" in static mode; names the device otherwise.
std::string modeLine(const ReportDocument &doc);

/// A kernel's launch signatures, the most GPU time first.
std::vector<const ReportSignature *> signaturesByTime(const ReportKernel &k);

/// The name a view shows: the short name (unique within the report), the full name in files without one.
const std::string &displayName(const ReportKernel &k);

struct TextOptions {
  size_t width = 120;     ///< terminal columns the table and the plot fit in
  size_t top = 20;        ///< kernels in the table and the plot, the rest summed up in one line; 0 for all
  bool colour = false;    ///< ANSI colours (a terminal, no NO_COLOR)
  bool fullNames = false; ///< full demangled names, never cut
};

/// Terminal: the table sorted by time share, fitted to the width, the explanations, and a compact ASCII
/// roofline with one mark per kernel.
std::string renderText(const ReportDocument &doc, const TextOptions &options);
std::string renderMarkdown(const ReportDocument &doc);
/// A standalone SVG document of the roofline. The first `labelled` kernels (time order; 0: all) get a
/// label beside their dots; the others are named on hover.
std::string renderSvg(const ReportDocument &doc, size_t labelled);
/// The <svg> element alone, for embedding.
std::string renderSvgElement(const ReportDocument &doc, size_t labelled);
/// Text made safe for XML/HTML content and attribute values.
std::string escapeXml(const std::string &text);
/// One self-contained HTML file, no network access: the plot (labels for the first `labelled` kernels, the
/// rest on hover or when selected), a sortable and filterable kernel table, and a detail panel for the
/// kernel selected in either.
std::string renderHtml(const ReportDocument &doc, size_t labelled);

} // namespace roofcheck::report
