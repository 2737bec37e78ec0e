// Views of the findings (the engine is in rules/): compiler-style diagnostics for the terminal and a SARIF
// 2.1.0 log for code-scanning tools. Both quote the source lines the findings point at.
#pragma once

#include "rules/Rule.h"

#include "roofcheck/Json.h"

#include <map>
#include <string>
#include <vector>

namespace roofcheck::lint {

/// The lines of the source files, read once each.
class SourceLines {
public:
  /// The text of a 1-based line, without its newline; empty when the file or line does not exist.
  std::string line(const std::string &file, int line);

private:
  std::map<std::string, std::vector<std::string>> files_;
};

/// "file:line:column: warning: message [rule-id]", the source line with a caret under the span, the fix-it
/// text under it, then each note the same way.
std::string renderDiagnostics(const std::vector<Finding> &findings, SourceLines &sources);

/// A SARIF 2.1.0 log of one run: the rules that ran (id, summary, options), every finding with its notes as
/// related locations, its fix and a fingerprint that survives lines moving. Paths under baseDir are relative
/// to the uriBaseId SRCROOT.
Json sarifLog(const std::vector<Finding> &findings, const std::vector<const Rule *> &rules,
              const std::string &baseDir, SourceLines &sources);

} // namespace roofcheck::lint
