#include "Suppressions.h"

#include "rules/Rule.h"

#include <algorithm>
#include <string_view>

namespace roofcheck::lint {
namespace {

constexpr std::string_view Marker = "roofcheck-ignore";

bool covers(const Suppression &s, const Finding &f) {
  return s.rules.empty() || s.rules.count(f.rule);
}

} // namespace

std::vector<Suppression> findSuppressions(const std::string &text, const std::string &file,
                                          std::vector<std::string> &warnings) {
  std::vector<Suppression> found;
  int line = 1;
  for (size_t start = 0; start < text.size(); ++line) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view row(text.data() + start, end - start);
    size_t comment = row.find("//");
    size_t at = comment == std::string_view::npos ? comment : row.find(Marker, comment);
    if (at != std::string_view::npos) {
      Suppression s;
      s.file = file;
      s.line = line;
      std::string_view rest = row.substr(at + Marker.size());
      if (rest.substr(0, 10) == "-next-line") {
        s.scope = Suppression::Scope::NextLine;
        rest.remove_prefix(10);
      } else if (rest.substr(0, 7) == "-kernel") {
        s.scope = Suppression::Scope::Kernel;
        rest.remove_prefix(7);
      }
      if (!rest.empty() && rest.front() == '(') {
        size_t close = rest.find(')');
        std::string_view list = rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
        for (size_t from = 0; from <= list.size();) {
          size_t comma = std::min(list.find(',', from), list.size());
          std::string_view name = list.substr(from, comma - from);
          while (!name.empty() && name.front() == ' ')
            name.remove_prefix(1);
          while (!name.empty() && name.back() == ' ')
            name.remove_suffix(1);
          if (!name.empty()) {
            if (!findRule(std::string(name)))
              warnings.push_back(file + ":" + std::to_string(line) + ":" + std::to_string(at + 1) +
                                 ": roofcheck-ignore names no rule '" + std::string(name) +
                                 "' (roofcheck lint --list-rules shows them)");
            s.rules.insert(std::string(name));
          }
          from = comma + 1;
        }
      }
      found.push_back(std::move(s));
    }
    start = end + 1;
  }
  return found;
}

int applySuppressions(std::vector<Finding> &findings, const std::vector<Suppression> &suppressions,
                      const std::vector<StaticKernel> &kernels) {
  // The line of the first kernel declared after `line` in `file`; the line of the kernel a finding is about.
  auto nextKernelLine = [&](const std::string &file, int line) {
    int next = -1;
    for (const StaticKernel &k : kernels)
      if (k.file == file && k.line > line && (next < 0 || k.line < next))
        next = k.line;
    return next;
  };
  auto kernelLine = [&](const Finding &f) {
    for (const StaticKernel &k : kernels)
      if (k.name == f.kernel && k.file == f.where.file)
        return k.line;
    return -2;
  };
  auto suppressed = [&](const Finding &f) {
    for (const Suppression &s : suppressions) {
      if (s.file != f.where.file || !covers(s, f))
        continue;
      if ((s.scope == Suppression::Scope::Line && s.line == f.where.line) ||
          (s.scope == Suppression::Scope::NextLine && s.line + 1 == f.where.line) ||
          (s.scope == Suppression::Scope::Kernel && nextKernelLine(s.file, s.line) == kernelLine(f)))
        return true;
    }
    return false;
  };
  size_t before = findings.size();
  findings.erase(std::remove_if(findings.begin(), findings.end(), suppressed), findings.end());
  return static_cast<int>(before - findings.size());
}

} // namespace roofcheck::lint
