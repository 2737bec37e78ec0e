#include "FindingViews.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace roofcheck::lint {

std::string SourceLines::line(const std::string &file, int line) {
  auto found = files_.find(file);
  if (found == files_.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file, std::ios::binary);
    for (std::string text; std::getline(in, text);)
      lines.push_back(text);
    found = files_.emplace(file, std::move(lines)).first;
  }
  if (line < 1 || static_cast<size_t>(line) > found->second.size())
    return "";
  return found->second[line - 1];
}

namespace {

void quote(std::ostringstream &out, const SourceSpan &span, SourceLines &sources, const std::string &replacement) {
  std::string text = sources.line(span.file, span.line);
  if (text.empty() || span.column < 1 || static_cast<size_t>(span.column) > text.size() + 1)
    return;
  for (char &c : text)
    if (c == '\t' || c == '\r')
      c = ' ';
  char gutter[32];
  std::snprintf(gutter, sizeof gutter, "%5d | ", span.line);
  out << gutter << text << "\n";
  std::string marks(span.column - 1, ' ');
  marks += '^';
  int width = std::max(span.endColumn - span.column, 1);
  marks += std::string(std::min<size_t>(width - 1, text.size() + 1 - span.column), '~');
  out << "      | " << marks << "\n";
  if (!replacement.empty())
    out << "      | " << std::string(span.column - 1, ' ') << replacement << "\n";
}

std::string place(const SourceSpan &span) {
  return span.file + ":" + std::to_string(span.line) + ":" + std::to_string(span.column);
}

} // namespace

std::string renderDiagnostics(const std::vector<Finding> &findings, SourceLines &sources) {
  std::ostringstream out;
  for (const Finding &f : findings) {
    out << place(f.where) << ": " << toString(f.severity) << ": " << f.message << " [" << f.rule << "]\n";
    bool fixHere = f.fix && f.fix->where.line == f.where.line && f.fix->where.column == f.where.column;
    quote(out, fixHere ? f.fix->where : f.where, sources, fixHere ? f.fix->replacement : "");
    for (const FindingNote &note : f.notes) {
      out << place(note.where) << ": note: " << note.message << "\n";
      quote(out, note.where, sources, "");
    }
  }
  return out.str();
}

} // namespace roofcheck::lint
