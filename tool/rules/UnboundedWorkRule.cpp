#include "Rules.h"

#include <set>
#include <tuple>

namespace roofcheck::lint {

std::string UnboundedWorkRule::summary() const {
  return "The estimator could not bound the kernel's FLOPs or bytes (a loop that depends on data, an index it "
         "cannot follow, a body it could not compile); says why and where.";
}

void UnboundedWorkRule::check(const KernelContext &context, const RuleSettings &, std::vector<Finding> &out) const {
  const KernelEstimate &e = context.estimate;
  const KernelSource &source = e.source;
  SourceSpan kernelName{source.file, source.line, source.column, source.column + 1};
  if (!source.notAnalysed.empty()) {
    out.push_back(finding(kernelName,
                          "kernel '" + source.name + "' was not analysed: its body does not compile for the device (" +
                              source.notAnalysed + ")",
                          context));
    return;
  }
  std::string missing;
  if (!e.total)
    missing = "FLOPs";
  if (!e.read || !e.write)
    missing += std::string(missing.empty() ? "" : " and ") + (!e.read && !e.write ? "bytes" : !e.read ? "bytes read" : "bytes written");
  if (missing.empty())
    return;
  if (e.unknowns.empty()) {
    out.push_back(finding(kernelName, "cannot bound the " + missing + " of kernel '" + source.name + "'", context));
    return;
  }
  std::set<std::tuple<std::string, int, int>> reported; // one finding per place, with its first reason
  for (const Unknown &unknown : e.unknowns)
    if (reported.emplace(unknown.file, unknown.line, unknown.column).second)
      out.push_back(finding({unknown.file, unknown.line, unknown.column, unknown.column + 1},
                          "cannot bound the " + missing + " of kernel '" + source.name + "': " + unknown.reason,
                          context));
}

} // namespace roofcheck::lint
