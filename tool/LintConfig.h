// The project configuration, `.roofcheck.yaml`, found like `.clang-tidy`: the nearest one in the source
// file's directory or above it. It turns rules on and off, sets their thresholds, the default GPU
// architecture and a ceilings file for `bound` claims. Format and keys: docs/lint.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::lint {

inline constexpr const char *ConfigFileName = ".roofcheck.yaml";

struct LintConfig {
  std::string path;                       ///< the file it was read from; empty for the defaults
  std::vector<std::string> rules = {"*"}; ///< globs applied in order; "-glob" turns rules off
  std::map<std::string, double> options;  ///< "rule-id.option" -> value
  std::string gpuArch;                    ///< "" when not set
  std::string ceilings;                   ///< absolute path, "" when not set

  bool enabled(const std::string &ruleId) const;
};

/// Reads one configuration file (and its parents when it says `inherit: true`). Throws roofcheck::Error
/// "PATH:LINE:COLUMN: ..." for a file that is not valid YAML, an unknown key, a rule pattern that matches
/// no rule, an unknown option or a value of the wrong kind.
LintConfig loadConfig(const std::string &path);

/// The nearest configuration file for a source file, walking up from its directory; empty when none.
std::optional<std::string> findConfig(const std::string &sourceFile);

/// Rule patterns given on the command line (--rules '-*,roofcheck-claim') apply after the file's.
void applyRulePatterns(LintConfig &config, const std::string &commaSeparated);

} // namespace roofcheck::lint
