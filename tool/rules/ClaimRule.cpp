#include "Rules.h"

#include "roofcheck/Claims.h"

namespace roofcheck::lint {

std::string ClaimRule::summary() const {
  return "A claim written next to a kernel (// roofcheck-claim: ...) that the static estimate contradicts.";
}

void ClaimRule::check(const KernelContext &context, const RuleSettings &, std::vector<Finding> &out) const {
  for (const ClaimSource &source : context.kernel.claims)
    for (const Claim &claim : parseClaims(source.text, source)) {
      ClaimResult result = checkAgainstEstimate(claim, context.kernel, context.bindings, context.ceilings);
      if (result.verdict != Verdict::Failed)
        continue;
      int end = claim.source.column + static_cast<int>(claim.text.size());
      out.push_back(finding({claim.source.file, claim.source.line, claim.source.column, end},
                            "claim '" + claim.text + "' of kernel '" + context.kernel.name +
                                "' contradicts the estimate: " + result.detail,
                            context));
    }
}

} // namespace roofcheck::lint
