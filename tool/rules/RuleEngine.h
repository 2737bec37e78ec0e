// The engine: runs the enabled rules over every kernel estimate and returns their findings in source
// order, each once (a helper called from two kernels is reported where it is written, once).
#pragma once

#include "../LintConfig.h"
#include "Rule.h"

#include <vector>

namespace roofcheck::lint {

/// estimates[i] and document.kernels[i] describe the same kernel.
std::vector<Finding> runRules(const std::vector<KernelEstimate> &estimates, const StaticDocument &document,
                              const Bindings &bindings, const LintConfig &config, const CeilingsDocument *ceilings);

/// Source order: file, line, column, then rule.
void sortFindings(std::vector<Finding> &findings);

} // namespace roofcheck::lint
