// One self-contained HTML file: inline SVG roofline, inline CSS and script, no external resource. Built for
// real programs (hundreds of kernels with long names): the plot labels the top kernels only, the kernel table
// sorts and filters, and one detail panel shows the kernel selected in the table or the plot.
#include "Format.h"
#include "Plot.h"
#include "Views.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace roofcheck::report {

namespace {

const char *const Style = R"(
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; }
h2 { font-size: 16px; margin: 18px 0 6px; }
svg.roofline { max-width: 100%; height: auto; }
.mode { font-weight: bold; }
.toolbar { margin: 12px 0 6px; font-size: 13px; }
.toolbar input { width: 28em; padding: 3px 6px; }
.table-scroll { max-height: 70vh; overflow: auto; max-width: 100%; border: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 12px; }
table.kernels { width: 100%; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
table.kernels th { position: sticky; top: 0; background: #f2f2f2; cursor: pointer; user-select: none; }
table.kernels th[aria-sort="ascending"]::after { content: " \25B2"; }
table.kernels th[aria-sort="descending"]::after { content: " \25BC"; }
table.kernels td.name { max-width: 24em; overflow: hidden; text-overflow: ellipsis; }
table.kernels tbody tr { cursor: pointer; }
tr.highlight td { background: #fff3c4; }
tr.selected td { background: #dbe9ff; }
g.kernel.highlight circle.dot, g.kernel.selected circle.dot { stroke: #000; stroke-width: 3; }
g.kernel.filtered-out { opacity: 0.12; }
text.selected-label { font-weight: bold; }
#tooltip { position: fixed; display: none; background: #fffff0; border: 1px solid #888; padding: 6px 8px;
           font-size: 12px; white-space: pre-wrap; max-width: 60em; pointer-events: none; box-shadow: 2px 2px 6px #0003; }
.kernel-detail { border-top: 2px solid #4a78c2; margin-top: 12px; }
.kernel-detail .full-name code, .kernel-detail dd code { white-space: normal; word-break: break-all; }
.kernel-detail dl { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; font-size: 13px; }
.kernel-detail dt { color: #555; }
.kernel-detail dd { margin: 0; }
.explanations li { margin: 2px 0; }
.error { color: #c00; font-weight: bold; }
.warning { color: #a60; }
code { font-size: 12px; }
)";

// Selecting a kernel (a table row or a dot) shows its detail panel, marks its row and dot, and names an
// unlabelled dot; the table sorts by any column (numbers by value) and filters by name. data-* attributes on
// <body> say what the script did, for tests in a real browser.
const char *const Script = R"(
(function () {
  var tip = document.getElementById('tooltip');
  var groups = document.querySelectorAll('g.kernel');
  var body = document.querySelector('table.kernels tbody');
  var rows = Array.prototype.slice.call(body.rows);
  var selected = null;
  function indexOf(id) { return id.substring(id.lastIndexOf('-') + 1); }
  function group(i) { return document.getElementById('kernel-' + i); }
  function row(i) { return document.getElementById('row-kernel-' + i); }
  function select(i) {
    if (selected !== null) {
      var old = document.getElementById('detail-kernel-' + selected); if (old) old.hidden = true;
      var oldRow = row(selected); if (oldRow) oldRow.classList.remove('selected');
      var oldGroup = group(selected);
      if (oldGroup) {
        oldGroup.classList.remove('selected');
        var label = oldGroup.querySelector('text.selected-label'); if (label) label.remove();
      }
    }
    selected = i;
    var detail = document.getElementById('detail-kernel-' + i); if (detail) detail.hidden = false;
    var r = row(i); if (r) r.classList.add('selected');
    var g = group(i);
    if (g) {
      g.classList.add('selected');
      var dot = g.querySelector('circle.dot.measured') || g.querySelector('circle.dot');
      if (g.classList.contains('unlabelled') && dot) {
        var t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
        t.setAttribute('class', 'label selected-label');
        t.setAttribute('x', dot.cx.baseVal.value + dot.r.baseVal.value + 3);
        t.setAttribute('y', dot.cy.baseVal.value + 4);
        t.textContent = g.getAttribute('data-label');
        g.appendChild(t);
      }
    }
    document.body.setAttribute('data-selected', String(i));
  }
  groups.forEach(function (g) {
    g.addEventListener('mousemove', function (e) {
      tip.textContent = g.getAttribute('data-details');
      tip.style.display = 'block';
      tip.style.left = (e.clientX + 14) + 'px';
      tip.style.top = (e.clientY + 14) + 'px';
      var r = row(indexOf(g.id)); if (r) r.classList.add('highlight');
    });
    g.addEventListener('mouseleave', function () {
      tip.style.display = 'none';
      var r = row(indexOf(g.id)); if (r) r.classList.remove('highlight');
    });
    g.addEventListener('click', function () { select(indexOf(g.id)); });
  });
  rows.forEach(function (r) {
    var i = indexOf(r.id);
    r.addEventListener('mouseenter', function () { var g = group(i); if (g) g.classList.add('highlight'); });
    r.addEventListener('mouseleave', function () { var g = group(i); if (g) g.classList.remove('highlight'); });
    r.addEventListener('click', function () { select(i); });
  });
  var heads = document.querySelectorAll('table.kernels thead th');
  heads.forEach(function (th, column) {
    th.addEventListener('click', function () {
      var numeric = th.getAttribute('data-type') === 'number';
      var order = th.getAttribute('aria-sort') === (numeric ? 'descending' : 'ascending')
                      ? (numeric ? 'ascending' : 'descending') : (numeric ? 'descending' : 'ascending');
      var sign = order === 'ascending' ? 1 : -1;
      function key(r) {
        var cell = r.cells[column];
        if (!numeric) return cell.textContent.toLowerCase();
        var v = cell.getAttribute('data-sort');
        return v === null ? null : parseFloat(v);
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === y) return 0;
        if (x === null) return 1; // no value: last, either way
        if (y === null) return -1;
        return (x < y ? -1 : 1) * sign;
      });
      rows.forEach(function (r) { body.appendChild(r); });
      heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', order);
      document.body.setAttribute('data-sorted', th.textContent + ' ' + order);
    });
  });
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  filter.addEventListener('input', function () {
    var text = filter.value.toLowerCase();
    var count = 0;
    rows.forEach(function (r) {
      var match = !text || r.getAttribute('data-name').toLowerCase().indexOf(text) >= 0;
      r.hidden = !match;
      if (match) ++count;
      var g = group(indexOf(r.id)); if (g) g.classList.toggle('filtered-out', !match);
    });
    shown.textContent = count + ' of ' + rows.length + ' kernels';
    document.body.setAttribute('data-shown', String(count));
  });
  if (rows.length) select(indexOf(rows[0].id));
  document.body.setAttribute('data-ready', String(groups.length));
})();
)";

void explanationList(std::string &out, const std::vector<Explanation> &list) {
  out += "<ul class=\"explanations\">\n";
  for (const Explanation &e : list) {
    out += "<li class=\"" + e.severity + "\" data-kind=\"" + escapeXml(e.kind) + "\">" + e.severity + " [" +
           escapeXml(e.kind) + "] " + escapeXml(e.message);
    if (!e.evidence.empty()) {
      out += "<ul>";
      for (const std::string &ev : e.evidence)
        out += "<li><code>" + escapeXml(ev) + "</code></li>";
      out += "</ul>";
    }
    out += "</li>\n";
  }
  out += "</ul>\n";
}

std::string exactText(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

/// The most severe explanations of a kernel, counted ("2 warnings"), and a key that sorts errors first.
std::pair<std::string, double> explained(const ReportKernel &k) {
  std::map<std::string, int> bySeverity;
  for (const Explanation &e : k.explanations)
    ++bySeverity[e.severity];
  double key = bySeverity["error"] * 1e6 + bySeverity["warning"] * 1e3 + bySeverity["note"];
  for (const char *severity : {"error", "warning", "note"})
    if (int n = bySeverity[severity])
      return {std::to_string(n) + " " + severity + (n > 1 ? "s" : ""), key};
  return {"", 0};
}

void kernelTableHtml(std::string &out, const ReportDocument &doc, const Table &t) {
  out += "<div class=\"toolbar\"><input type=\"search\" id=\"filter\" placeholder=\"filter kernels by name\" "
         "aria-label=\"filter kernels by name\"> <span id=\"shown\">" +
         std::to_string(t.rows.size()) + " of " + std::to_string(t.rows.size()) +
         " kernels</span> (click a column to sort, a row or a dot for its details)</div>\n";
  out += "<div class=\"table-scroll\"><table class=\"kernels\">\n<thead><tr>";
  for (size_t c = 0; c < t.header.size(); ++c) {
    bool numeric = std::any_of(t.keys.begin(), t.keys.end(), [&](const auto &keys) { return keys[c].has_value(); });
    out += "<th" + std::string(numeric ? " data-type=\"number\"" : "") + ">" + escapeXml(t.header[c]) + "</th>";
  }
  out += "<th data-type=\"number\">explained</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const ReportKernel &k = doc.kernels[i];
    std::string id = std::to_string(i);
    out += "<tr id=\"row-kernel-" + id + "\" data-kernel-id=\"kernel-" + id + "\" data-name=\"" +
           escapeXml(displayName(k) + " " + k.name) + "\">";
    for (size_t c = 0; c < t.rows[i].size(); ++c) {
      const std::optional<double> &key = t.keys[i][c];
      out += c == 0 ? "<td class=\"name\" title=\"" + escapeXml(k.name) + "\">"
                    : key ? "<td data-sort=\"" + exactText(*key) + "\">" : std::string("<td>");
      out += escapeXml(t.rows[i][c]) + "</td>";
    }
    auto [text, key] = explained(k);
    out += "<td data-sort=\"" + exactText(key) + "\">" + text + "</td></tr>\n";
  }
  out += "</tbody></table></div>\n";
}

void sectionHtml(std::string &out, const Section &section) {
  out += "<h3>" + escapeXml(section.title) + "</h3>\n<table class=\"section\"><tr>";
  for (const std::string &h : section.table.header)
    out += "<th>" + escapeXml(h) + "</th>";
  out += "</tr>\n";
  for (const std::vector<std::string> &r : section.table.rows) {
    out += "<tr>";
    for (const std::string &cell : r)
      out += "<td>" + escapeXml(cell) + "</td>";
    out += "</tr>\n";
  }
  out += "</table>\n";
}

std::string dotText(const std::optional<PlotDot> &dot) {
  if (!dot)
    return "-";
  return "AI " + intensity(dot->intensity) + " FLOP/B" + (dot->rate ? " at " + si(*dot->rate, "FLOP/s") : "") +
         (dot->error ? " (above its ceiling)" : "");
}

/// Everything the report knows about one kernel; hidden until selected.
void kernelDetail(std::string &out, const ReportDocument &doc, const PlotKernel &pk, const Table &t) {
  const ReportKernel &k = doc.kernels[pk.kernel];
  std::string id = std::to_string(pk.kernel);
  out += "<section class=\"kernel-detail\" id=\"detail-kernel-" + id + "\" hidden>\n<h2><code>" +
         escapeXml(displayName(k)) + "</code>" +
         (k.file.empty() ? "" : " <small>" + escapeXml(k.file + ":" + std::to_string(k.line)) + "</small>") + "</h2>\n";
  if (displayName(k) != k.name)
    out += "<p class=\"full-name\"><code>" + escapeXml(k.name) + "</code></p>\n";
  out += "<dl>";
  if (!k.mangled.empty())
    out += "<dt>mangled</dt><dd><code>" + escapeXml(k.mangled) + "</code></dd>";
  for (size_t c = 1; c < t.header.size(); ++c)
    out += "<dt>" + escapeXml(t.header[c]) + "</dt><dd>" + escapeXml(t.rows[pk.kernel][c]) + "</dd>";
  out += "<dt>predicted dot</dt><dd>" + escapeXml(dotText(pk.predicted)) + "</dd>";
  out += "<dt>measured dot</dt><dd>" + escapeXml(dotText(pk.measured)) + "</dd>";
  if (!pk.omitted.empty())
    out += "<dt>not plotted</dt><dd>" + escapeXml(pk.omitted) + "</dd>";
  if (k.signatures.size() == 1) { // several have a section of their own
    const ReportSignature &s = k.signatures.front();
    std::string launch = "grid " + dimText(s.grid) + " block " + dimText(s.block);
    for (const auto &[n, v] : s.args)
      launch += " " + n + "=" + v;
    out += "<dt>launch</dt><dd>" + escapeXml(launch) + "</dd>";
  }
  out += "</dl>\n";
  if (!k.explanations.empty())
    explanationList(out, k.explanations);
  for (const Section &section : kernelSections(k))
    sectionHtml(out, section);
  out += "</section>\n";
}

} // namespace

std::string renderHtml(const ReportDocument &doc, size_t labelled) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                    "<title>roofcheck report</title>\n<style>" +
                    std::string(Style) + "</style>\n</head>\n<body>\n<h1>roofcheck report</h1>\n";
  out += "<p class=\"mode\">" + escapeXml(modeLine(doc)) + "</p>\n";
  out += "<p>inputs:";
  for (const std::string &in : doc.inputs)
    out += " <code>" + escapeXml(in) + "</code>";
  out += "<br>" + escapeXml(doc.generator) + "</p>\n";
  if (!doc.problems.empty()) {
    out += "<h2>Problems</h2>\n";
    explanationList(out, doc.problems);
  }
  out += renderSvgElement(doc, labelled);
  out += "<div id=\"tooltip\"></div>\n";
  Table t = kernelTable(doc);
  kernelTableHtml(out, doc, t);
  Plot plot = layoutPlot(doc);
  for (const PlotKernel &pk : plot.kernels)
    kernelDetail(out, doc, pk, t);
  out += "<script>" + std::string(Script) + "</script>\n</body>\n</html>\n";
  return out;
}

} // namespace roofcheck::report
