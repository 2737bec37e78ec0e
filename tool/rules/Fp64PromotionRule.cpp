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
  // The optimiser may fold a promotion back to fp32 when the result is the same (x * 0.5 is exact in both);
  // the source still says double, and the next constant (0.1) will not fold.
  bool folded = e.fp64 && e.fp64->isConstant() && e.fp64->evaluate().toDouble() == 0;
  for (const Fp64Promotion &promotion : e.source.promotions) {
    Finding f = finding(promotion.where,
                        "double-precision arithmetic in a single-precision kernel: " + promotion.what +
                            " promotes the float values it meets to double, which runs at a fraction of the fp32 rate",
                        context);
    if (!promotion.replacement.empty())
      f.fix = FixIt{promotion.where, promotion.replacement};
    if (folded)
      f.notes.push_back({promotion.where, "the optimiser folded this one back to fp32 (the estimate counts no fp64 "
                                          "FLOPs), which it can only do when the double result rounds the same"});
    out.push_back(std::move(f));
  }
}

} // namespace roofcheck::lint
