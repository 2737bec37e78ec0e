// The rule classes. Each is documented in docs/rules/<id>.md and tested in test/tool/rules/<id>.cu.
#pragma once

#include "Rule.h"

namespace roofcheck::lint {

/// A global access whose stride along threadIdx.x makes a warp request touch more sectors than its data.
class UncoalescedAccessRule : public Rule {
public:
  std::string id() const override { return "roofcheck-uncoalesced-access"; }
  std::string summary() const override;
  std::vector<RuleOption> options() const override;
  void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const override;
};

/// A kernel that requests many times its ideal bytes because the threads of a block load the same data
/// again and again: it relies on L1/L2 for reuse that shared memory would make explicit.
class CacheReliantReuseRule : public Rule {
public:
  std::string id() const override { return "roofcheck-cache-reliant-reuse"; }
  std::string summary() const override;
  std::vector<RuleOption> options() const override;
  void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const override;
};

/// Double-precision arithmetic in a kernel whose data is single or half precision.
class Fp64PromotionRule : public Rule {
public:
  std::string id() const override { return "roofcheck-fp64-promotion"; }
  std::string summary() const override;
  void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const override;
};

/// The estimator could not bound the kernel's FLOPs or bytes.
class UnboundedWorkRule : public Rule {
public:
  std::string id() const override { return "roofcheck-unbounded-work"; }
  std::string summary() const override;
  void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const override;
};

/// A claim written next to the kernel that the estimate contradicts.
class ClaimRule : public Rule {
public:
  std::string id() const override { return "roofcheck-claim"; }
  std::string summary() const override;
  Severity severity() const override { return Severity::Error; }
  void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const override;
};

} // namespace roofcheck::lint
