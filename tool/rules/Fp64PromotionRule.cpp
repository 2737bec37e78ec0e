#include "Rules.h"

namespace roofcheck::lint {

std::string Fp64PromotionRule::summary() const {
  return "Double-precision arithmetic in a kernel whose data is single or half precision: a double literal, a "
         "double math function or a double operand that promotes the float values around it.";
}

void Fp64PromotionRule::check(const KernelContext &context, const RuleSettings &, std::vector<Finding> &out) const {
  const KernelEstimate &e = context.estimate;
  // Kernels that take double data compute in double on purpose.
  for (const KernelParam &param : e.source.params)
    if (param.type.find("double") != std::string::npos)
      return;
  // The optimiser folds a promotion back to fp32 when the result rounds the same (x * 0.5, sqrtf(2.0 / M_PI)
  // on constants): no fp64 instruction runs, so there is nothing to warn about.
  if (!e.doubleArithmetic)
    return;
  for (const Fp64Promotion &promotion : e.source.promotions) {
    Finding f = finding(promotion.where,
                        "double-precision arithmetic in a single-precision kernel: " + promotion.what +
                            " promotes the float values it meets to double, which runs at a fraction of the fp32 rate",
                        context);
    if (!promotion.replacement.empty())
      f.fix = FixIt{promotion.where, promotion.replacement};
    out.push_back(std::move(f));
  }
}

} // namespace roofcheck::lint
