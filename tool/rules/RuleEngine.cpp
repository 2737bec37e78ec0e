#include "RuleEngine.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace roofcheck::lint {

void sortFindings(std::vector<Finding> &findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
    return std::tie(a.where.file, a.where.line, a.where.column, a.rule) <
           std::tie(b.where.file, b.where.line, b.where.column, b.rule);
  });
}

std::vector<Finding> runRules(const std::vector<KernelEstimate> &estimates, const StaticDocument &document,
                              const Bindings &bindings, const LintConfig &config, const CeilingsDocument *ceilings) {
  RuleSettings settings(config.options);
  std::vector<Finding> findings;
  std::set<std::tuple<std::string, std::string, int, int, std::string>> seen;
  for (size_t i = 0; i < estimates.size() && i < document.kernels.size(); ++i) {
    if (document.kernels[i].library)
      continue;
    KernelContext context{estimates[i], document.kernels[i], bindings, ceilings};
    for (const auto &rule : allRules()) {
      if (!config.enabled(rule->id()))
        continue;
      std::vector<Finding> found;
      rule->check(context, settings, found);
      for (Finding &f : found)
        if (seen.emplace(f.rule, f.where.file, f.where.line, f.where.column, f.message).second)
          findings.push_back(std::move(f));
    }
  }
  sortFindings(findings);
  return findings;
}

} // namespace roofcheck::lint
