// One self-contained HTML file: inline SVG roofline, inline CSS and script, no external resource.
#include "Format.h"
#include "Views.h"

namespace roofcheck::report {

namespace {

const char *const Style = R"(
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; }
svg.roofline { max-width: 100%; height: auto; }
.table-scroll { overflow-x: auto; max-width: 100%; }
.mode { font-weight: bold; }
table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
tr.highlight td { background: #fff3c4; }
g.kernel.highlight circle.dot { stroke-width: 4; }
#tooltip { position: fixed; display: none; background: #fffff0; border: 1px solid #888; padding: 6px 8px;
           font-size: 12px; white-space: pre; pointer-events: none; box-shadow: 2px 2px 6px #0003; }
.explanations li { margin: 2px 0; }
.error { color: #c00; font-weight: bold; }
.warning { color: #a60; }
code { font-size: 12px; }
)";

// Hover: a dot shows its details; a table row and its dots highlight each other.
const char *const Script = R"(
(function () {
  var tip = document.getElementById('tooltip');
  var groups = document.querySelectorAll('g.kernel');
  function rowOf(g) { return document.getElementById('row-' + g.id); }
  groups.forEach(function (g) {
    g.addEventListener('mousemove', function (e) {
      tip.textContent = g.getAttribute('data-details');
      tip.style.display = 'block';
      tip.style.left = (e.clientX + 14) + 'px';
      tip.style.top = (e.clientY + 14) + 'px';
      var r = rowOf(g); if (r) r.classList.add('highlight');
    });
    g.addEventListener('mouseleave', function () {
      tip.style.display = 'none';
      var r = rowOf(g); if (r) r.classList.remove('highlight');
    });
  });
  document.querySelectorAll('tr[data-kernel-id]').forEach(function (row) {
    var g = document.getElementById(row.getAttribute('data-kernel-id'));
    if (!g) return;
    row.addEventListener('mouseenter', function () { g.classList.add('highlight'); });
    row.addEventListener('mouseleave', function () { g.classList.remove('highlight'); });
  });
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

} // namespace

std::string renderHtml(const ReportDocument &doc) {
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
  out += renderSvgElement(doc);
  out += "<div id=\"tooltip\"></div>\n";

  Table t = kernelTable(doc);
  // A wide table scrolls within its own box, so the page and the plot above it stay the window's width.
  out += "<div class=\"table-scroll\"><table class=\"kernels\">\n<tr>";
  for (const std::string &h : t.header)
    out += "<th>" + escapeXml(h) + "</th>";
  out += "</tr>\n";
  for (size_t i = 0; i < t.rows.size(); ++i) {
    out += "<tr id=\"row-kernel-" + std::to_string(i) + "\" data-kernel-id=\"kernel-" + std::to_string(i) + "\">";
    for (const std::string &c : t.rows[i])
      out += "<td>" + escapeXml(c) + "</td>";
    out += "</tr>\n";
  }
  out += "</table></div>\n";

  for (const ReportKernel &k : doc.kernels) {
    if (k.explanations.empty() && k.signatures.size() < 2 && k.ranks.size() < 2)
      continue;
    out += "<h2><code>" + escapeXml(displayName(k)) + "</code>" +
           (k.file.empty() ? "" : " <small>" + escapeXml(k.file + ":" + std::to_string(k.line)) + "</small>") + "</h2>\n";
    if (displayName(k) != k.name)
      out += "<p class=\"full-name\"><code>" + escapeXml(k.name) + "</code></p>\n";
    explanationList(out, k.explanations);
    if (k.signatures.size() > 1) {
      out += "<table class=\"signatures\"><tr><th>grid</th><th>block</th><th>args</th><th>launches</th><th>time</th>"
             "<th>share</th><th>AI ideal</th><th>AI measured</th><th>of roof</th></tr>\n";
      for (const ReportSignature &s : k.signatures) {
        std::string args;
        for (const auto &[n, v] : s.args)
          args += (args.empty() ? "" : " ") + n + "=" + v;
        out += "<tr><td>" + dim3(s.grid) + "</td><td>" + dim3(s.block) + "</td><td>" + escapeXml(args) + "</td><td>" +
               std::to_string(s.launches) + "</td><td>" + duration(s.timeNs) + "</td><td>" + percent(s.timeShare) +
               "</td><td>" + orDash(s.predictedIntensityIdeal, intensity) + "</td><td>" +
               orDash(s.measuredIntensity, intensity) + "</td><td>" + orDash(s.fractionOfRoof, percent) + "</td></tr>\n";
      }
      out += "</table>\n";
    }
    if (k.ranks.size() > 1) {
      out += "<table class=\"ranks\"><tr><th>process</th><th>launches</th><th>time</th><th>AI measured</th>"
             "<th>FLOP/s</th></tr>\n";
      for (const ReportRank &r : k.ranks)
        out += "<tr><td>" + escapeXml(r.label) + "</td><td>" + std::to_string(r.launches) + "</td><td>" +
               duration(r.timeNs) + "</td><td>" + orDash(r.measuredIntensity, intensity) + "</td><td>" +
               orDash(r.flopsPerSecond, [](double v) { return si(v, "FLOP/s"); }) + "</td></tr>\n";
      out += "</table>\n";
    }
  }
  if (!doc.problems.empty()) {
    out += "<h2>Problems</h2>\n";
    explanationList(out, doc.problems);
  }
  out += "<script>" + std::string(Script) + "</script>\n</body>\n</html>\n";
  return out;
}

} // namespace roofcheck::report
