// Inline suppressions, in comments that nvcc and clang ignore:
//   x = in[i * n];  // roofcheck-ignore(roofcheck-uncoalesced-access)     this line
//   // roofcheck-ignore-next-line(roofcheck-fp64-promotion)               the line below
//   // roofcheck-ignore-kernel(roofcheck-cache-reliant-reuse)             the kernel declared next
// Without a list in parentheses every rule is silenced. Names that are no rule are reported, not ignored.
#pragma once

#include "rules/Finding.h"

#include "roofcheck/Contracts.h"

#include <set>
#include <string>
#include <vector>

namespace roofcheck::lint {

struct Suppression {
  enum class Scope { Line, NextLine, Kernel } scope = Scope::Line;
  std::string file;
  int line = 0;                ///< of the comment
  std::set<std::string> rules; ///< empty: every rule
};

/// The suppression comments of one source text. Unknown rule names become warnings ("file:line:column: ...").
std::vector<Suppression> findSuppressions(const std::string &text, const std::string &file,
                                          std::vector<std::string> &warnings);

/// Removes the findings that a suppression covers; returns how many it removed. `kernels` places the
/// kernels for kernel-wide suppressions.
int applySuppressions(std::vector<Finding> &findings, const std::vector<Suppression> &suppressions,
                      const std::vector<StaticKernel> &kernels);

} // namespace roofcheck::lint
