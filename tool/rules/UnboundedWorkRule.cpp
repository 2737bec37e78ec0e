#include "Rules.h"

#include <set>
#include <tuple>

namespace roofcheck::lint {

std::string UnboundedWorkRule::summary() const {
  return "A loop whose trip count the source makes depend on values loaded from memory: the kernel's work has no "
         "bound in its parameters and launch sizes; says where.";
}

void UnboundedWorkRule::check(const KernelContext &context, const RuleSettings &, std::vector<Finding> &out) const {
  const KernelEstimate &e = context.estimate;
  // What the analyser cannot follow is its own limit, listed in the kernel's unknowns (and as notes under
  // --verbose), never a finding about the user's code.
  // The template's name, not the instantiation's: a loop of a template instantiated twenty times is one
  // finding (the rule engine merges equal findings at one place).
  std::string kernel = e.source.name.substr(0, e.source.name.find('<'));
  std::set<std::tuple<std::string, int, int>> reported; // one finding per loop
  for (const Unknown &unknown : e.unknowns)
    if (unknown.cause == UnknownCause::DataDependentLoop &&
        reported.emplace(unknown.file, unknown.line, unknown.column).second)
      out.push_back(finding({unknown.file, unknown.line, unknown.column, unknown.column + 1},
                            "the work of kernel '" + kernel + "' depends on data: " + describeUnknown(unknown),
                            context));
}

} // namespace roofcheck::lint
