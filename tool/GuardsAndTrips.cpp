// Which threads run a block and how often: branch conditions as guards on thread axes, lane and digit tests,
// loop models (trip counts), and the count of a block over the launch.
#include "KernelAnalysis.h"

#include "roofcheck/Bindings.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

namespace roofcheck::lint::counting {

std::optional<Constraint> KernelAnalysis::quotientBound(const Linear &lhs, const Linear &rhs,
                                                        llvm::CmpInst::Predicate pred) const {
  std::optional<int64_t> c = rhs.invariant.asConstant();
  if (!lhs.axes.empty() || lhs.iters.size() != 1 || !lhs.invariant.isZero() || !rhs.axes.empty() ||
      !rhs.iters.empty() || !c || !(lhs.iters.begin()->second == Poly::constant(1)))
    return std::nullopt;
  const Atom &q = atoms_[lhs.iters.begin()->first];
  std::optional<int64_t> d = q.kind == AtomKind::Quotient && q.divisor ? q.divisor->asConstant() : std::nullopt;
  if (!d || *d <= 0 || *c < 0 || q.quotientAxis.tid < 0 || q.quotientAxis.cta >= 0 || q.quotientAxis.outer >= 0)
    return std::nullopt;
  // q = threadIdx / d, so q < c holds for threadIdx < c·d, q == c for c·d <= threadIdx < (c + 1)·d.
  Constraint bound;
  bound.axis = q.quotientAxis;
  switch (pred) {
  case llvm::CmpInst::ICMP_ULT:
  case llvm::CmpInst::ICMP_SLT:
    bound.upper = Poly::constant(*c * *d);
    break;
  case llvm::CmpInst::ICMP_ULE:
  case llvm::CmpInst::ICMP_SLE:
    bound.upper = Poly::constant((*c + 1) * *d);
    break;
  case llvm::CmpInst::ICMP_UGT:
  case llvm::CmpInst::ICMP_SGT:
    bound.lower = Poly::constant((*c + 1) * *d);
    break;
  case llvm::CmpInst::ICMP_UGE:
  case llvm::CmpInst::ICMP_SGE:
    bound.lower = Poly::constant(*c * *d);
    break;
  case llvm::CmpInst::ICMP_EQ:
    bound.lower = Poly::constant(*c * *d);
    bound.upper = Poly::constant((*c + 1) * *d);
    break;
  case llvm::CmpInst::ICMP_NE:
    if (*c != 0)
      return std::nullopt;
    bound.lower = Poly::constant(*d);
    break;
  default:
    return std::nullopt;
  }
  return bound;
}

bool KernelAnalysis::remainderBelowModulus(const llvm::ICmpInst *cmp, bool truth) {
  llvm::CmpInst::Predicate pred = truth ? cmp->getPredicate() : cmp->getInversePredicate();
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()) ||
      (pred != llvm::CmpInst::ICMP_ULT && pred != llvm::CmpInst::ICMP_SLT))
    return false;
  Linear lhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(0))));
  Poly bound = toPoly(se_.getSCEV(cmp->getOperand(1)));
  std::optional<FlatDigit> digit = lhs.known && lhs.invariant.isZero() ? flatDigit(lhs) : std::nullopt;
  return digit && !digit->whole && digit->below == Poly::constant(1) && digit->coeff == Poly::constant(1) &&
         digit->above && *digit->above == bound;
}

void KernelAnalysis::compareConstraint(const llvm::ICmpInst *cmp, bool truth, std::vector<Constraint> &out) {
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()) || remainderBelowModulus(cmp, truth))
    return;
  llvm::CmpInst::Predicate pred = truth ? cmp->getPredicate() : cmp->getInversePredicate();
  if (std::optional<Constraint> doubling = doublingGuard(cmp, pred)) {
    out.push_back(*doubling);
    return;
  }
  Linear lhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(0))));
  Linear rhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(1))));
  if (!lhs.known || !rhs.known)
    return;
  if (lhs.axes.empty() && (!rhs.axes.empty() || (lhs.iters.empty() && !rhs.iters.empty()))) {
    std::swap(lhs, rhs);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  if (std::optional<Constraint> warp = quotientBound(lhs, rhs, pred)) {
    out.push_back(*warp);
    return;
  }
  std::optional<FlatDigit> digit = rhs.axes.empty() && rhs.iters.empty() ? flatDigit(lhs) : std::nullopt;
  if (lhs.axes.size() != 1 && !digit)
    return;
  auto [axis, coeff] = digit ? std::pair<AxisKey, Poly>(digit->axis, digit->coeff)
                             : std::pair<AxisKey, Poly>(*lhs.axes.begin());
  // threadIdx.d < s, where s is the variable of a halving loop (tree reductions).
  if (lhs.iters.empty() && lhs.invariant.isZero() && coeff == Poly::constant(1) && axis.cta < 0 && rhs.axes.empty() &&
      rhs.iters.size() == 1 && rhs.invariant.isZero() && rhs.iters.begin()->second == Poly::constant(1) &&
      atoms_[rhs.iters.begin()->first].kind == AtomKind::HalvingIV &&
      (pred == llvm::CmpInst::ICMP_SLT || pred == llvm::CmpInst::ICMP_ULT)) {
    Constraint c;
    c.axis = axis;
    c.loopAtom = rhs.iters.begin()->first;
    out.push_back(c);
    return;
  }
  if ((!lhs.iters.empty() && !digit) || !rhs.iters.empty() || !rhs.axes.empty())
    return;
  Poly width = digit ? digit->width : lhs.widths.count(axis) ? lhs.widths[axis] : Poly();
  Poly bound = rhs.invariant - lhs.invariant; // axis·k PRED bound
  Poly offset = lhs.invariant;
  // A scaled index (i = (blockIdx.x * blockDim.x + threadIdx.x) * 8; if (i < n)) bounds the axis by n / 8.
  std::optional<int64_t> k = coeff.asConstant();
  if (!k || *k == 0)
    return;
  if (*k < 0) {
    if (!llvm::CmpInst::isSigned(pred) && !llvm::CmpInst::isEquality(pred))
      return;
    bound = bound.scaled(-1);
    offset = offset.scaled(-1);
    k = -*k;
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  auto floorDiv = [&](const Poly &p) { return *k == 1 ? p : opaque(toExpr(p) / Expr::integer(*k)); };
  auto ceilDiv = [&](const Poly &p) { return *k == 1 ? p : opaque(Expr::ceilDiv(toExpr(p), Expr::integer(*k))); };
  Constraint c;
  c.axis = axis;
  c.width = width;
  if (digit) {
    c.digitBelow = digit->below;
    c.digitAtoms = digit->atoms;
  }
  switch (pred) {
  case llvm::CmpInst::ICMP_ULT:
  case llvm::CmpInst::ICMP_ULE:
    // (axis·k + c) <u bound also says axis·k + c >= 0 (range checks folded by instcombine)
    if (!offset.isZero())
      c.lower = ceilDiv(offset.scaled(-1));
    [[fallthrough]];
  case llvm::CmpInst::ICMP_SLT:
  case llvm::CmpInst::ICMP_SLE:
    c.upper = pred == llvm::CmpInst::ICMP_SLE || pred == llvm::CmpInst::ICMP_ULE ? floorDiv(bound) + Poly::constant(1)
                                                                                 : ceilDiv(bound);
    break;
  case llvm::CmpInst::ICMP_SGT:
  case llvm::CmpInst::ICMP_UGT:
    c.lower = floorDiv(bound) + Poly::constant(1);
    break;
  case llvm::CmpInst::ICMP_SGE:
  case llvm::CmpInst::ICMP_UGE:
    c.lower = ceilDiv(bound);
    break;
  case llvm::CmpInst::ICMP_EQ:
    c.lower = ceilDiv(bound);
    c.upper = floorDiv(bound) + Poly::constant(1);
    break;
  case llvm::CmpInst::ICMP_NE:
    // index != 0 on an index that starts at 0 (instcombine's form of index > 0)
    if (!bound.isZero())
      return;
    c.lower = Poly::constant(1);
    break;
  default:
    return;
  }
  // q = idx / g < u is idx < g * u: a bound on the index itself, which counts its threads. g may be a size
  // (ggml's i2 = z / ne3.z < ne2).
  std::optional<int64_t> group = digit && digit->whole ? digit->below.asConstant() : std::nullopt;
  if (digit && digit->whole && ((group && *group > 0) || (!group && invariant(digit->below)))) {
    Constraint index;
    index.axis = c.axis;
    index.width = c.width;
    if (c.lower)
      index.lower = *c.lower * digit->below;
    if (c.upper)
      index.upper = *c.upper * digit->below;
    index.wholeGroups = group.value_or(0);
    // By a size, the bound counts the threads and leaves the footprint to the digit, which the footprint
    // follows through the address's own digits (a stencil's neighbours).
    index.countOnly = !group;
    out.push_back(index);
    c.boundsIndexToo = true;
  }
  out.push_back(c);
}

namespace {

/// The pointer that `if (p)` or `if (p != nullptr)` tests, on the side where it holds (given); null elsewhere.
const llvm::Value *pointerTestedGiven(const llvm::Value *cond, bool truth) {
  const auto *cmp = dyn_cast<llvm::ICmpInst>(cond);
  if (!cmp || !cmp->isEquality() || (cmp->getPredicate() == llvm::CmpInst::ICMP_NE) != truth)
    return nullptr;
  return isa<llvm::ConstantPointerNull>(cmp->getOperand(1))   ? cmp->getOperand(0)
         : isa<llvm::ConstantPointerNull>(cmp->getOperand(0)) ? cmp->getOperand(1)
                                                              : nullptr;
}

} // namespace

std::optional<Expr> KernelAnalysis::optionalPointerGiven(const llvm::Value *cond, bool truth) {
  const llvm::Value *pointer = pointerTestedGiven(cond, truth);
  const llvm::Value *object = pointer ? pointedObject(pointer) : nullptr;
  if (!object || (!isa<llvm::Argument>(object) && !isa<llvm::LoadInst>(object)))
    return std::nullopt;
  return parameterValue(object);
}

const llvm::Value *KernelAnalysis::withoutPointerGiven(const llvm::Value *cond, bool truth) {
  const llvm::Value *first = nullptr, *second = nullptr;
  if (const auto *both = dyn_cast<llvm::BinaryOperator>(cond); both && both->getOpcode() == llvm::Instruction::And) {
    first = both->getOperand(0);
    second = both->getOperand(1);
  } else if (const auto *select = dyn_cast<llvm::SelectInst>(cond)) { // c1 ? c2 : false
    const auto *otherwise = dyn_cast<llvm::ConstantInt>(select->getFalseValue());
    if (otherwise && otherwise->isZero()) {
      first = select->getCondition();
      second = select->getTrueValue();
    }
  }
  if (!truth || !first)
    return cond;
  return optionalPointerGiven(second, truth) ? first : optionalPointerGiven(first, truth) ? second : cond;
}

void KernelAnalysis::conditionConstraints(const llvm::Value *cond, bool truth, std::vector<Constraint> &out,
                                          ParameterTest &parameterTest, std::optional<Unmodelled> &unmodelled,
                                          int depth) {
  if (depth > 8)
    return;
  auto take = [&](const std::optional<Expr> &holds) {
    parameterTest.any = true;
    if (holds && parameterTest.holds)
      parameterTest.holds = *parameterTest.holds * *holds;
    else
      parameterTest.holds.reset();
  };
  if (std::optional<Expr> given = optionalPointerGiven(cond, truth)) {
    take(given);
    return;
  }
  if (parameterOnly(cond, 0)) {
    std::optional<Expr> holds = parameterTruth(cond);
    take(holds ? std::optional<Expr>(truth ? *holds : Expr::integer(1) - *holds) : std::nullopt);
    return;
  }
  auto note = [&](const llvm::Value *leaf) {
    if (!unmodelled)
      unmodelled = unmodelledTest(leaf);
  };
  if (auto *cmp = dyn_cast<llvm::ICmpInst>(cond)) {
    size_t before = out.size();
    compareConstraint(cmp, truth, out);
    if (out.size() == before && !movesWithLoop(cmp) && !remainderBelowModulus(cmp, truth))
      note(cmp);
    return;
  }
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(cond)) {
    if ((bin->getOpcode() == llvm::Instruction::And && truth) || (bin->getOpcode() == llvm::Instruction::Or && !truth)) {
      conditionConstraints(bin->getOperand(0), truth, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(bin->getOperand(1), truth, out, parameterTest, unmodelled, depth + 1);
    } else if (auto *one = dyn_cast<llvm::ConstantInt>(bin->getOperand(1));
               bin->getOpcode() == llvm::Instruction::Xor && one && one->isOne()) {
      conditionConstraints(bin->getOperand(0), !truth, out, parameterTest, unmodelled, depth + 1);
    } else {
      note(bin); // one side of an || (or the negation of an &&): either may hold
    }
    return;
  }
  if (auto *select = dyn_cast<llvm::SelectInst>(cond)) {
    bool split = false;
    auto *constant = dyn_cast<llvm::ConstantInt>(select->getFalseValue());
    if (constant && constant->isZero() && truth) { // c1 && c2
      conditionConstraints(select->getCondition(), true, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(select->getTrueValue(), true, out, parameterTest, unmodelled, depth + 1);
      split = true;
    }
    constant = dyn_cast<llvm::ConstantInt>(select->getTrueValue());
    if (constant && constant->isOne() && !truth) { // !(c1 || c2)
      conditionConstraints(select->getCondition(), false, out, parameterTest, unmodelled, depth + 1);
      conditionConstraints(select->getFalseValue(), false, out, parameterTest, unmodelled, depth + 1);
      split = true;
    }
    if (!split)
      note(select);
    return;
  }
  note(cond);
}


void KernelAnalysis::takeParameterTest(const llvm::BasicBlock *block, const Expr &holds) {
  auto [entry, fresh] = parameterTests_.try_emplace(block, holds);
  if (!fresh)
    entry->second = entry->second * holds;
}

void KernelAnalysis::unmodelledParameterTest(const llvm::BasicBlock *block, const llvm::Instruction *branch) {
  if (!unmodelledBranches_.count(block))
    unmodelledBranches_[block] = {branch, {"branch on a parameter value (the count depends on which side runs)"}};
  threadTests_[block] = std::nullopt;
  uncountable_.insert(block);
}

std::optional<Expr> KernelAnalysis::parameterValue(const llvm::Value *value) {
  if (auto *constant = dyn_cast<llvm::ConstantInt>(value); constant && constant->getBitWidth() <= 64)
    return Expr::integer(constant->getSExtValue());
  if (auto *constant = dyn_cast<llvm::ConstantFP>(value)) {
    double real = constant->getValueAPF().convertToDouble();
    return std::isfinite(real) ? std::optional<Expr>(Expr::real(real)) : std::nullopt;
  }
  if (isa<llvm::ConstantPointerNull>(value))
    return Expr::integer(0);
  // A member of a by-value struct argument of the kind `value` is (a float member read as a float).
  auto member = [&](const llvm::Value *v, bool (*kind)(const std::string &)) -> std::optional<Expr> {
    auto *load = dyn_cast<llvm::LoadInst>(v);
    const ParamField *field = load && readsParameter(load) && !load->isVolatile() ? loadedField(load) : nullptr;
    if (field && kind(field->type))
      return Expr::symbol(field->name);
    return std::nullopt;
  };
  if (value->getType()->isPointerTy()) {
    // A row of a given pointer (p + offset) is given; null only where p is.
    const llvm::Value *base = value->stripInBoundsOffsets();
    if (auto *arg = dyn_cast<llvm::Argument>(base))
      return Expr::symbol(paramName(arg->getArgNo()));
    return member(base, isPointerType);
  }
  if (value->getType()->isFloatingPointTy()) {
    if (auto *widened = dyn_cast<llvm::FPExtInst>(value))
      return parameterValue(widened->getOperand(0));
    if (auto *arg = dyn_cast<llvm::Argument>(value))
      return Expr::symbol(paramName(arg->getArgNo()));
    return member(value, [](const std::string &type) {
      return scalarKind(type) == ScalarKind::Float || scalarKind(type) == ScalarKind::Double;
    });
  }
  if (!se_.isSCEVable(value->getType()))
    return std::nullopt;
  Poly poly = toPoly(se_.getSCEV(const_cast<llvm::Value *>(value)));
  if (!invariant(poly))
    return std::nullopt;
  return toExpr(poly);
}

std::optional<Expr> KernelAnalysis::parameterTruth(const llvm::Value *cond, int depth) {
  if (depth > 8)
    return std::nullopt;
  Expr one = Expr::integer(1);
  if (auto *constant = dyn_cast<llvm::ConstantInt>(cond))
    return Expr::integer(constant->isOne() ? 1 : 0);
  if (auto *cmp = dyn_cast<llvm::CmpInst>(cond)) {
    std::optional<Expr> a = parameterValue(cmp->getOperand(0)), b = parameterValue(cmp->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    // A pointer against null reads as the pointer, whose value is whether it is given; two addresses have no
    // expression.
    if (cmp->getOperand(0)->getType()->isPointerTy()) {
      bool againstNull =
          isa<llvm::ConstantPointerNull>(cmp->getOperand(0)) || isa<llvm::ConstantPointerNull>(cmp->getOperand(1));
      if (!cmp->isEquality() || !againstNull)
        return std::nullopt;
      Expr given = isa<llvm::ConstantPointerNull>(cmp->getOperand(1)) ? *a : *b;
      return cmp->getPredicate() == llvm::CmpInst::ICMP_EQ ? one - given : given;
    }
    using P = llvm::CmpInst::Predicate;
    switch (cmp->getPredicate()) {
    case P::ICMP_EQ:
    case P::FCMP_OEQ:
      return Expr::equal(*a, *b);
    case P::ICMP_NE:
    case P::FCMP_UNE:
      return Expr::notEqual(*a, *b);
    case P::ICMP_SLT:
    case P::ICMP_ULT:
    case P::FCMP_OLT:
      return Expr::less(*a, *b);
    case P::ICMP_SLE:
    case P::ICMP_ULE:
    case P::FCMP_OLE:
      return Expr::lessEqual(*a, *b);
    case P::ICMP_SGT:
    case P::ICMP_UGT:
    case P::FCMP_OGT:
      return Expr::less(*b, *a);
    case P::ICMP_SGE:
    case P::ICMP_UGE:
    case P::FCMP_OGE:
      return Expr::lessEqual(*b, *a);
    // The unordered ones hold for a NaN too: the negation of the ordered opposite.
    case P::FCMP_ONE:
      return Expr::less(*a, *b) + Expr::less(*b, *a);
    case P::FCMP_UEQ:
      return one - (Expr::less(*a, *b) + Expr::less(*b, *a));
    case P::FCMP_ULT:
      return one - Expr::lessEqual(*b, *a);
    case P::FCMP_ULE:
      return one - Expr::less(*b, *a);
    case P::FCMP_UGT:
      return one - Expr::lessEqual(*a, *b);
    case P::FCMP_UGE:
      return one - Expr::less(*a, *b);
    default:
      return std::nullopt;
    }
  }
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(cond)) {
    std::optional<Expr> a = parameterTruth(bin->getOperand(0), depth + 1);
    std::optional<Expr> b = a ? parameterTruth(bin->getOperand(1), depth + 1) : std::nullopt;
    if (!b)
      return std::nullopt;
    switch (bin->getOpcode()) {
    case llvm::Instruction::And:
      return *a * *b;
    case llvm::Instruction::Or:
      return *a + *b - *a * *b;
    case llvm::Instruction::Xor:
      return *a + *b - Expr::integer(2) * *a * *b;
    default:
      return std::nullopt;
    }
  }
  if (auto *select = dyn_cast<llvm::SelectInst>(cond)) {
    std::optional<Expr> c = parameterTruth(select->getCondition(), depth + 1);
    std::optional<Expr> a = c ? parameterTruth(select->getTrueValue(), depth + 1) : std::nullopt;
    std::optional<Expr> b = a ? parameterTruth(select->getFalseValue(), depth + 1) : std::nullopt;
    if (!b)
      return std::nullopt;
    return *c * *a + (one - *c) * *b;
  }
  // A bool read as a byte and narrowed to its one bit (the narrowing says the byte is 0 or 1), or a bool
  // parameter itself.
  if (auto *narrowed = dyn_cast<llvm::TruncInst>(cond); narrowed && narrowed->hasNoUnsignedWrap())
    return parameterValue(narrowed->getOperand(0));
  if (isa<llvm::Argument>(cond))
    return parameterValue(cond);
  return std::nullopt;
}

std::optional<Expr> KernelAnalysis::switchTruth(const llvm::SwitchInst *select, const llvm::BasicBlock *target) {
  std::optional<Expr> value = parameterValue(select->getCondition());
  if (!value)
    return std::nullopt;
  Expr holds = Expr::integer(0), anyCase = Expr::integer(0);
  for (const auto &c : select->cases()) {
    if (c.getCaseValue()->getBitWidth() > 64)
      return std::nullopt;
    Expr is = Expr::equal(*value, Expr::integer(c.getCaseValue()->getSExtValue()));
    anyCase = anyCase + is;
    if (c.getCaseSuccessor() == target)
      holds = holds + is;
  }
  if (select->getDefaultDest() == target)
    holds = holds + (Expr::integer(1) - anyCase);
  return holds;
}

bool KernelAnalysis::movesWithLoop(const llvm::ICmpInst *cmp) {
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()))
    return false;
  Linear lhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(0))));
  Linear rhs = decompose(toPoly(se_.getSCEV(cmp->getOperand(1))));
  // A quotient of a thread index (row = i / cols, lane = tid % 32) is no loop's variable.
  auto loopVariable = [&](const Linear &side) {
    return std::any_of(side.iters.begin(), side.iters.end(),
                       [&](const auto &entry) { return atoms_[entry.first].kind != AtomKind::Quotient; });
  };
  if (lhs.known && rhs.known)
    return loopVariable(lhs) || loopVariable(rhs);
  // A test the expressions cannot write that still changes from trip to trip ((k + i) % 2 in a loop over k).
  const llvm::Loop *loop = li_.getLoopFor(cmp->getParent());
  return loop && (!se_.isLoopInvariant(se_.getSCEV(cmp->getOperand(0)), loop) ||
                  !se_.isLoopInvariant(se_.getSCEV(cmp->getOperand(1)), loop));
}

std::optional<KernelAnalysis::Unmodelled> KernelAnalysis::unmodelledTest(const llvm::Value *cond) const {
  std::set<const llvm::Value *> seen;
  if (dependsOnMemory(cond, seen, 0))
    return Unmodelled{"branch on values loaded from memory (the count depends on the data)",
                      UnknownCause::DataDependentBranch};
  seen.clear();
  if (dependsOnThread(cond, seen, 0))
    return Unmodelled{"guard on the thread coordinates it cannot express (a lane test, a rank over several "
                      "dimensions)",
                      UnknownCause::Analysis, true};
  // Else the test would be dropped, as if every thread passed it.
  seen.clear();
  if (dependsOnLocalMemory(cond, seen, 0))
    return Unmodelled{"branch on a value kept in a local array it cannot follow", UnknownCause::Analysis};
  return std::nullopt;
}

const std::vector<Constraint> &KernelAnalysis::guards(const llvm::BasicBlock *block) {
  auto cached = guards_.find(block);
  if (cached != guards_.end())
    return cached->second;
  std::vector<Constraint> out;
  llvm::DomTreeNode *node = dt_.getNode(block);
  for (llvm::DomTreeNode *up = node ? node->getIDom() : nullptr; up; up = up->getIDom()) {
    llvm::BasicBlock *from = up->getBlock();
    if (auto *select = dyn_cast<llvm::SwitchInst>(from->getTerminator())) {
      for (const llvm::BasicBlock *target : llvm::successors(from))
        if (llvm::BasicBlockEdge(from, target).isSingleEdge() && dt_.dominates(llvm::BasicBlockEdge(from, target), block) &&
            parameterOnly(select->getCondition(), 0)) {
          if (std::optional<Expr> holds = switchTruth(select, target))
            takeParameterTest(block, *holds);
          else
            unmodelledParameterTest(block, select);
        }
      continue;
    }
    auto *branch = dyn_cast<llvm::BranchInst>(from->getTerminator());
    if (!branch || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1))
      continue;
    // A loop's own exit test is the loop model's business, not a guard.
    const llvm::Loop *loop = li_.getLoopFor(from);
    bool loopExit = loop && loop->contains(block) && loop->isLoopExiting(from);
    for (unsigned s = 0; s < 2; ++s) {
      llvm::BasicBlockEdge edge(from, branch->getSuccessor(s));
      if (dt_.dominates(edge, block)) {
        ParameterTest parameterTest;
        std::optional<Unmodelled> unmodelled;
        size_t before = out.size();
        conditionConstraints(branch->getCondition(), s == 0, out, parameterTest, unmodelled);
        auto added = llvm::make_range(out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
        if (llvm::any_of(added, [](const Constraint &c) { return c.digitBelow.has_value(); }))
          digitGuardBranches_.try_emplace(block, branch);
        if (llvm::any_of(added, [](const Constraint &c) { return c.digitBelow && !c.boundsIndexToo; }))
          uncountedDigitGuards_.insert(block);
        // An early return on a test of parameters without an expression is taken as passed.
        if (parameterTest.any && !guardsLoop(branch)) {
          if (parameterTest.holds)
            takeParameterTest(block, *parameterTest.holds);
          else if (!returnsAtOnce(branch->getSuccessor(1 - s)))
            unmodelledParameterTest(block, branch);
        }
        // The test that skips a loop it guards belongs to that loop (a data-dependent while loop is an unknown
        // of its own).
        if (unmodelled && !loopExit && !guardsLoop(branch)) {
          if (!unmodelledBranches_.count(block))
            unmodelledBranches_[block] = {branch, *unmodelled};
          recordThreadTest(block, branch->getCondition(), unmodelled->threadTest);
          if (std::optional<DigitTest> lane = digitTest(withoutPointerGiven(branch->getCondition(), s == 0), s == 0))
            digitTests_[block].push_back(*lane);
          else
            uncountable_.insert(block);
        }
        break;
      }
    }
  }
  // Bounds on digits of a flat index narrow the footprint's digits (countMemory); the counts under them are
  // not modelled.
  auto digits = std::stable_partition(out.begin(), out.end(), [](const Constraint &c) { return !c.digitBelow; });
  if (digits != out.end()) {
    digitGuards_[block].assign(digits, out.end());
    out.erase(digits, out.end());
  }
  auto counting = std::stable_partition(out.begin(), out.end(), [](const Constraint &c) { return !c.countOnly; });
  if (counting != out.end()) {
    countOnlyGuards_[block].assign(counting, out.end());
    out.erase(counting, out.end());
  }
  return guards_[block] = std::move(out);
}

void KernelAnalysis::recordThreadTest(const llvm::BasicBlock *block, const llvm::Value *cond, bool threadTest) {
  auto [entry, fresh] = threadTests_.try_emplace(block, std::array<bool, 3>{false, false, false});
  if (!entry->second)
    return;
  CoordinateUse use;
  std::set<const llvm::Value *> seen;
  collectCoordinates(cond, use, seen, 0);
  if (!threadTest || use.block) {
    entry->second = std::nullopt;
    return;
  }
  for (int d = 0; d < 3; ++d)
    (*entry->second)[d] = (*entry->second)[d] || use.thread[d];
}

bool KernelAnalysis::footprintIgnoresThreadTests(const llvm::BasicBlock *block,
                                                 const std::array<bool, 3> &addressMovesWith) const {
  auto tested = threadTests_.find(block);
  if (tested == threadTests_.end() || !tested->second)
    return false;
  for (int d = 0; d < 3; ++d)
    if ((*tested->second)[d] && addressMovesWith[d])
      return false;
  return true;
}

bool KernelAnalysis::lanesKeepFootprint(const llvm::BasicBlock *block, const Linear &address) const {
  auto tests = digitTests_.find(block);
  if (tests == digitTests_.end() || uncountable_.count(block))
    return false;
  for (const DigitTest &test : tests->second) {
    if (std::none_of(test.passes.begin(), test.passes.end(), [](bool passes) { return passes; }))
      return false;
    for (const auto &[axis, coeff] : address.axes)
      if (axis.tid == test.dim)
        return false;
    for (const auto &[id, coeff] : address.iters) {
      const Atom &atom = atoms_[id];
      if (atom.kind != AtomKind::Quotient || atom.quotientAxis.tid != test.dim)
        continue;
      std::optional<int64_t> divisor = atom.divisor->asConstant();
      if (!divisor || *divisor % test.period != 0)
        return false;
    }
  }
  return true;
}

bool KernelAnalysis::movesWith(const Linear &address, const AxisKey &axis) const {
  auto shares = [&](const AxisKey &other) {
    return (axis.tid >= 0 && other.tid == axis.tid) || (axis.cta >= 0 && (other.cta == axis.cta || other.outer == axis.cta)) ||
           (axis.outer >= 0 && (other.cta == axis.outer || other.outer == axis.outer));
  };
  for (const auto &[other, coeff] : address.axes)
    if (shares(other))
      return true;
  for (const auto &[id, coeff] : address.iters)
    if (atoms_[id].kind == AtomKind::Quotient && shares(atoms_[id].quotientAxis))
      return true;
  return false;
}

bool KernelAnalysis::wholeGroupsKeepFootprint(const Constraint &guard, const Linear &address) const {
  // The guard, a bound on the index's whole quotient by the group size, passes whole groups along its
  // dimension; an address that moves with no block or global index of that dimension, and with its thread
  // index only as the lane in a group (a * (t - q * (t / q)), q dividing the group), is the same for every
  // group that passes.
  int dim = guard.axis.tid;
  std::optional<int64_t> group = guard.boundsIndexToo && guard.digitBelow ? guard.digitBelow->asConstant() : std::nullopt;
  if (!group || *group <= 0 || dim < 0)
    return false;
  Poly lane;
  for (const auto &[axis, coeff] : address.axes) {
    if (axis.tid == dim && axis.cta >= 0)
      return false;
    if (axis.cta == guard.axis.cta || axis.outer == guard.axis.cta)
      return false;
    if (axis.tid == dim)
      lane = coeff;
  }
  for (const auto &[id, coeff] : address.iters) {
    const Atom &atom = atoms_[id];
    if (atom.kind != AtomKind::Quotient || atom.quotientAxis.tid != dim)
      continue;
    std::optional<int64_t> divisor = atom.divisor->asConstant();
    if (atom.quotientAxis.cta >= 0 || !divisor || *divisor <= 0 || *group % *divisor != 0 ||
        !(coeff == lane.scaled(-*divisor)))
      return false;
  }
  return true;
}

bool KernelAnalysis::parameterOnly(const llvm::Value *value, int depth) const {
  if (depth > 12)
    return false;
  if (isa<llvm::Argument>(value) || isa<llvm::Constant>(value))
    return true;
  if (auto *call = dyn_cast<llvm::CallInst>(value)) {
    const llvm::Function *callee = call->getCalledFunction();
    return callee && (callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.ntid.") ||
                      callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.nctaid."));
  }
  // A field of a by-value struct argument is a parameter too (`params.beta`, which a CUTLASS epilogue tests).
  if (auto *load = dyn_cast<llvm::LoadInst>(value); load && readsParameter(load))
    return !load->isVolatile() && parameterOnly(load->getPointerOperand(), depth + 1);
  auto *inst = dyn_cast<llvm::Instruction>(value);
  if (!inst || isa<llvm::PHINode>(inst) || inst->mayReadFromMemory())
    return false;
  for (const llvm::Value *op : inst->operands())
    if (!parameterOnly(op, depth + 1))
      return false;
  return true;
}

bool KernelAnalysis::guardsLoop(const llvm::BranchInst *branch) {
  // Either side may lead to a loop (the loop it skips, and the next loop after it, as a warp reduction's
  // shuffle loop follows a lane loop): the guard is the one whose bound it tests, and whose other side goes
  // where the loop ends. A test with a loop on each side (`if (beta != 0) for (...) ...; else for (...) ...`)
  // chooses between them: no loop's guard.
  auto endsAt = [](const llvm::Loop *loop, const llvm::BasicBlock *other) {
    llvm::SmallVector<llvm::BasicBlock *, 4> exits;
    loop->getExitBlocks(exits);
    return llvm::any_of(exits, [&](const llvm::BasicBlock *exit) {
      for (int step = 0; exit && step < 4; ++step, exit = exit->getUniqueSuccessor())
        if (exit == other)
          return true;
      return false;
    });
  };
  for (unsigned s = 0; s < branch->getNumSuccessors(); ++s) {
    const llvm::BasicBlock *successor = branch->getSuccessor(s);
    for (const llvm::Loop *loop : li_.getLoopsInPreorder())
      if ((loop->getLoopPreheader() == successor || loop->getHeader() == successor) &&
          !loop->contains(branch->getParent()) && endsAt(loop, branch->getSuccessor(1 - s)) &&
          testsLoopBound(branch, loop))
        return true;
  }
  return false;
}

bool KernelAnalysis::testsLoopBound(const llvm::BranchInst *branch, const llvm::Loop *loop) {
  auto *guard = branch->isConditional() ? dyn_cast<llvm::ICmpInst>(branch->getCondition()) : nullptr;
  const llvm::BasicBlock *exiting = loop->getExitingBlock();
  auto *exit = exiting ? dyn_cast<llvm::BranchInst>(exiting->getTerminator()) : nullptr;
  auto *test = exit && exit->isConditional() ? dyn_cast<llvm::ICmpInst>(exit->getCondition()) : nullptr;
  // A pointer's test bounds nothing, and a loop of constant trips (a warp reduction's shuffles) runs them
  // wherever it runs: a test in front of it (`if (gate)` before the gate's reduction) is a test of its own.
  const LoopModel &model = loopModel(loop);
  std::optional<int64_t> constantTrips = model.trips.asConstant();
  if (guard && (guard->getOperand(0)->getType()->isPointerTy() ||
                ((model.kind == LoopModel::Counted || model.kind == LoopModel::Halving) && !model.tripsVarying &&
                 constantTrips && *constantTrips > 0)))
    return false;
  // A test of parameters alone (`n / 16 > 0` folded to `n > 15`), of data (`nnz[row] > 0` in front of a loop
  // to nnz[row], whose trip count is the unknown to report), or nothing to compare it with: taken to be the
  // loop's own, as a rotated loop's guard is.
  std::set<const llvm::Value *> seen;
  if (!guard || !test || !se_.isSCEVable(guard->getOperand(0)->getType()) || parameterOnly(guard, 0) ||
      dependsOnMemory(guard, seen, 0))
    return true;
  // `if (iterations > 0)` folded to a test of the slice it was computed from (`k_end - k_begin > 0`), whose
  // loop's trip count, never below zero, says when it skips.
  if (const std::optional<Expr> &varying = model.tripsVarying) {
    bool threads = namesCoordinate(*varying, "threadIdx");
    if (launchExpr(se_.getSCEV(guard->getOperand(0)), threads) && launchExpr(se_.getSCEV(guard->getOperand(1)), threads))
      return true;
  }
  auto stripped = [&](const llvm::Value *v) {
    const llvm::SCEV *s = se_.getSCEV(const_cast<llvm::Value *>(v));
    while (auto *cast = dyn_cast<llvm::SCEVIntegralCastExpr>(s))
      s = cast->getOperand();
    return s;
  };
  // The same value at the bound's width: ScalarEvolution moves an extension into a min (sext(min(k, e)) is
  // min(sext k, sext e)), where stripping the outer cast does not find it.
  auto widened = [&](const llvm::Value *operand, const llvm::Value *bound) {
    const llvm::SCEV *narrow = se_.getSCEV(const_cast<llvm::Value *>(operand)),
                     *wide = se_.getSCEV(const_cast<llvm::Value *>(bound));
    if (narrow->getType()->getIntegerBitWidth() >= wide->getType()->getIntegerBitWidth())
      return false;
    return se_.getSignExtendExpr(narrow, wide->getType()) == wide || se_.getZeroExtendExpr(narrow, wide->getType()) == wide;
  };
  // The guard of `for (i = a; i < n; ...)` compares a with n (or n with 0): it shares the loop's bound. A
  // constant is no shared bound: `if (warp == 0)` in front of `for (o = 16; o > 0; o /= 2)` is a guard.
  for (const llvm::Value *bound : test->operands())
    if (se_.isSCEVable(bound->getType()) && !isa<llvm::Constant>(bound) &&
        se_.isLoopInvariant(se_.getSCEV(const_cast<llvm::Value *>(bound)), loop))
      for (const llvm::Value *operand : guard->operands())
        if (stripped(operand) == stripped(bound) ||
            (operand->getType()->isIntegerTy() && bound->getType()->isIntegerTy() && widened(operand, bound)))
          return true;
  return false;
}

bool KernelAnalysis::returnsAtOnce(const llvm::BasicBlock *block) {
  return isa<llvm::ReturnInst>(block->getTerminator()) && &*block->getFirstNonPHIOrDbg() == block->getTerminator();
}


bool KernelAnalysis::skipsLastTrip(const llvm::BasicBlock *block, const llvm::Loop *loop) const {
  const llvm::BasicBlock *latch = loop->getLoopLatch();
  auto *back = latch ? dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  if (!back || !back->isConditional() || block == latch)
    return false;
  unsigned stay = back->getSuccessor(0) == loop->getHeader() ? 0 : 1;
  llvm::DomTreeNode *node = dt_.getNode(block);
  for (llvm::DomTreeNode *up = node ? node->getIDom() : nullptr; up && loop->contains(up->getBlock());
       up = up->getIDom()) {
    auto *branch = dyn_cast<llvm::BranchInst>(up->getBlock()->getTerminator());
    if (branch && branch->isConditional() && branch != back && branch->getCondition() == back->getCondition() &&
        branch->getSuccessor(0) != branch->getSuccessor(1) &&
        dt_.dominates(llvm::BasicBlockEdge(up->getBlock(), branch->getSuccessor(stay)), block))
      return true;
  }
  return false;
}

std::vector<const llvm::ICmpInst *> KernelAnalysis::exitComparisons(const llvm::BranchInst *branch,
                                                                   const llvm::Loop *loop) {
  if (auto *cmp = dyn_cast<llvm::ICmpInst>(branch->getCondition()))
    return {cmp};
  const llvm::Value *a = nullptr, *b = nullptr;
  namespace match = llvm::PatternMatch;
  if (!loop->contains(branch->getSuccessor(0)) ||
      !match::match(branch->getCondition(), match::m_LogicalAnd(match::m_Value(a), match::m_Value(b))))
    return {};
  // How far a comparison is from failing: positive exactly where it holds (rhs - lhs for <, lhs - rhs for >).
  auto slack = [&](const llvm::Value *v) -> const llvm::SCEV * {
    auto *cmp = dyn_cast<llvm::ICmpInst>(v);
    if (!cmp || !se_.isSCEVable(cmp->getOperand(0)->getType()))
      return nullptr;
    const llvm::SCEV *lhs = se_.getSCEV(cmp->getOperand(0)), *rhs = se_.getSCEV(cmp->getOperand(1));
    switch (cmp->getPredicate()) {
    case llvm::CmpInst::ICMP_ULT:
    case llvm::CmpInst::ICMP_SLT:
      return se_.getMinusSCEV(rhs, lhs);
    case llvm::CmpInst::ICMP_UGT:
    case llvm::CmpInst::ICMP_SGT:
      return se_.getMinusSCEV(lhs, rhs);
    default:
      return nullptr;
    }
  };
  const llvm::SCEV *first = slack(a), *second = slack(b);
  // Compared as polynomials: ScalarEvolution does not multiply out (x + s) * b against x * b + s * b.
  if (!first || !second || first->getType() != second->getType() || !(toPoly(first) == toPoly(second)))
    return {};
  return {cast<llvm::ICmpInst>(a), cast<llvm::ICmpInst>(b)};
}

const LoopModel &KernelAnalysis::loopModel(const llvm::Loop *loop) {
  auto cached = loops_.find(loop);
  if (cached != loops_.end())
    return cached->second;
  LoopModel model;
  for (const llvm::Instruction &inst : *loop->getHeader())
    if (inst.getDebugLoc()) {
      model.where = &inst;
      break;
    }
  model.iterAtom = iterAtom(loop).terms.begin()->first.front();
  model.start = loop->getStartLoc().get();

  // Tree reductions: for (s = start; s > 0; s >>= 1), first: ScalarEvolution counts the trips of a constant
  // start, but a `threadIdx < s` guard inside makes the work per trip shrink with s.
  if (llvm::BasicBlock *latch = loop->getLoopLatch()) {
    for (const llvm::PHINode &phi : loop->getHeader()->phis()) {
      auto *next = dyn_cast<llvm::BinaryOperator>(phi.getIncomingValueForBlock(latch));
      if (!next || next->getOperand(0) != &phi)
        continue;
      auto *amount = dyn_cast<llvm::ConstantInt>(next->getOperand(1));
      bool doubles = amount && ((next->getOpcode() == llvm::Instruction::Shl && amount->isOne()) ||
                                (next->getOpcode() == llvm::Instruction::Mul && amount->equalsInt(2)));
      if (doubles && doublingModel(loop, phi, *next, model))
        return loops_[loop] = model;
      bool halves = amount && (((next->getOpcode() == llvm::Instruction::LShr || next->getOpcode() == llvm::Instruction::AShr) &&
                                amount->isOne()) ||
                               ((next->getOpcode() == llvm::Instruction::UDiv || next->getOpcode() == llvm::Instruction::SDiv) &&
                                amount->equalsInt(2)));
      if (!halves || phi.getNumIncomingValues() != 2)
        continue;
      unsigned entry = phi.getIncomingBlock(0) == latch ? 1 : 0;
      if (loop->contains(phi.getIncomingBlock(entry)))
        continue;
      Poly start = toPoly(se_.getSCEV(phi.getIncomingValue(entry)));
      if (!invariant(start))
        continue;
      // The body works with next rather than the phi (the phi is used by next and the latch's test alone):
      // the variable is next, which starts at start / 2, and the phi is twice it.
      int64_t scale = 1;
      if (std::all_of(phi.user_begin(), phi.user_end(),
                      [&](const llvm::User *user) {
                        return user == next || (isa<llvm::ICmpInst>(user) &&
                                                cast<llvm::Instruction>(user)->getParent() == latch);
                      }) &&
          std::any_of(next->user_begin(), next->user_end(), [&](const llvm::User *user) { return user != &phi; })) {
        std::optional<Poly> half = divided(start, Poly::constant(2));
        if (!half)
          continue;
        start = *half;
        scale = 2;
      }
      halvingPhis_[&phi] = loop;
      if (scale != 1)
        halvingScale_[&phi] = scale;
      polys_.clear(); // SCEVs that saw this phi as an unknown value must now see the halving variable
      model.kind = LoopModel::Halving;
      model.halvingStart = start;
      model.halvingLast = halvingLast(loop, &phi, scale);
      // Without a `threadIdx < s` guard every thread runs every trip: the trip count, where it has one.
      if (const llvm::SCEV *taken = se_.getBackedgeTakenCount(loop); !isa<llvm::SCEVCouldNotCompute>(taken))
        if (Poly trips = toPoly(taken) + Poly::constant(1); invariant(trips))
          model.trips = trips;
      char key[64];
      std::snprintf(key, sizeof key, "halving:%p", static_cast<const void *>(loop));
      Atom atom = makeAtom(AtomKind::HalvingIV, -1, loop, Expr());
      model.iterAtom = intern(key, atom);
      return loops_[loop] = model;
    }
  }

  const llvm::SCEV *taken = se_.getBackedgeTakenCount(loop);
  if (!isa<llvm::SCEVCouldNotCompute>(taken)) {
    Poly trips = toPoly(taken) + Poly::constant(1);
    // A rotated loop `for (k = 0; k < n; k += 16)` runs (n - 1) / 16 + 1 times once entered: ceil_div(n, 16).
    if (auto *div = dyn_cast<llvm::SCEVUDivExpr>(taken)) {
      auto *step = dyn_cast<llvm::SCEVConstant>(div->getRHS());
      Poly numerator = toPoly(div->getLHS()) + Poly::constant(1);
      if (step && !step->isZero() && invariant(numerator))
        trips = opaque(Expr::ceilDiv(toExpr(numerator), Expr::integer(step->getAPInt().getSExtValue())));
    }
    Linear lin = decompose(trips);
    if (lin.known && lin.axes.empty() && lin.iters.empty()) {
      model.kind = LoopModel::Counted;
      model.trips = trips;
      return loops_[loop] = model;
    }
  }

  // Block- and grid-stride loops: for (i = base + axis; i < bound; i += extent(axis)). Over all threads of
  // the axis they visit every value of [base, bound) exactly once.
  llvm::BasicBlock *exiting = loop->getExitingBlock();
  auto *branch = exiting ? dyn_cast<llvm::BranchInst>(exiting->getTerminator()) : nullptr;
  for (const llvm::ICmpInst *cmp : branch && branch->isConditional() ? exitComparisons(branch, loop)
                                                                      : std::vector<const llvm::ICmpInst *>{}) {
    if (!se_.isSCEVable(cmp->getOperand(0)->getType()))
      continue;
    for (int side = 0; side < 2 && model.kind == LoopModel::Unknown; ++side) {
      // `col < ncols` with an int column and an int64_t bound compares sext(col): look through the extension
      // (indices do not overflow in a valid launch, as everywhere else).
      const llvm::SCEV *tested = se_.getSCEV(cmp->getOperand(side));
      while (auto *cast = dyn_cast<llvm::SCEVIntegralCastExpr>(tested))
        tested = cast->getOperand();
      auto *rec = dyn_cast<llvm::SCEVAddRecExpr>(tested);
      const llvm::SCEV *other = se_.getSCEV(cmp->getOperand(1 - side));
      if (!rec || rec->getLoop() != loop || !rec->isAffine() || !se_.isLoopInvariant(other, loop))
        continue;
      // The exit test may compare the induction variable or its next value: start from the header phi.
      const llvm::SCEV *stepScev = rec->getStepRecurrence(se_);
      const llvm::SCEVAddRecExpr *phiRec = nullptr;
      for (llvm::PHINode &phi : loop->getHeader()->phis()) {
        if (!se_.isSCEVable(phi.getType()))
          continue;
        // A variable widened to 64 bits whose int value is tested (`col2 < ncols2` on `trunc(col2 + 32)`): the
        // test's width.
        const llvm::SCEV *value = se_.getSCEV(&phi);
        if (se_.getTypeSizeInBits(value->getType()) > se_.getTypeSizeInBits(rec->getType()))
          value = se_.getTruncateExpr(value, rec->getType());
        auto *candidate = dyn_cast<llvm::SCEVAddRecExpr>(value);
        if (candidate && candidate->getLoop() == loop &&
            (candidate == rec || se_.getAddExpr(candidate, stepScev) == rec)) {
          phiRec = candidate;
          break;
        }
      }
      if (!phiRec)
        continue;
      Poly start = toPoly(phiRec->getStart()), step = toPoly(stepScev), bound = toPoly(other);
      if (!invariant(bound) || !invariant(step))
        continue;
      const Linear startLin = decompose(start);
      if (std::optional<int64_t> group = laneOfGroup(startLin); group && step == Poly::constant(*group)) {
        model.kind = LoopModel::GroupStrided;
        model.step = *group;
        model.axis = startLin.axes.begin()->first;
        model.base = startLin.invariant;
        model.bound = bound;
        return loops_[loop] = model;
      }
      do { // a block that `continue` leaves: the start is not one thread axis of a block- or grid-stride loop
        Linear lin = startLin;
        if (!lin.known || lin.axes.size() != 1 || !lin.iters.empty() || !invariant(lin.invariant))
          continue;
        auto [axis, coeff] = *lin.axes.begin();
        Poly width = lin.widths.count(axis) ? lin.widths[axis] : Poly();
        std::optional<int64_t> scale = coeff.asConstant();
        if (!scale || *scale <= 0)
          continue;
        // for (i = threadIdx.x; i < n; i += 256), launched with 256 threads or not: which values the threads
        // visit is known (the footprint), how many trips each makes depends on blockDim (the count is not).
        if (std::optional<int64_t> constantStep = step.asConstant(); *scale == 1 && constantStep &&
                                                                    *constantStep > 0 && axis.cta < 0 &&
                                                                    !(step == extent(axis, width))) {
          model.kind = LoopModel::Strided;
          model.step = *constantStep;
          model.reason = "block-stride loop with a constant step that need not be blockDim (the trip count depends "
                         "on both)";
        } else if (step == extent(axis, width).scaled(*scale)) {
          // Also scaled: for (y = 2 * threadIdx.x; y < n; y += 2 * blockDim.x), two values a thread a trip.
          model.kind = LoopModel::Cover;
          model.scale = *scale;
        } else {
          continue;
        }
        model.axis = axis;
        model.width = width;
        model.base = lin.invariant;
        model.bound = bound;
        return loops_[loop] = model;
      } while (false);
      // for (i = start; i < bound; i += step) with everything invariant, where ScalarEvolution gave up
      // proving that i cannot wrap: ceil_div(bound - start, step) trips (the loop is entered).
      llvm::CmpInst::Predicate pred = side == 0 ? cmp->getPredicate() : cmp->getSwappedPredicate();
      if (branch->getSuccessor(0) != loop->getHeader() && !loop->contains(branch->getSuccessor(0)))
        pred = llvm::CmpInst::getInversePredicate(pred); // the true edge leaves the loop
      if (startLin.known && startLin.axes.empty() && startLin.iters.empty() && invariant(start)) {
        std::optional<Expr> trips;
        switch (pred) {
        case llvm::CmpInst::ICMP_SLT:
        case llvm::CmpInst::ICMP_ULT:
        case llvm::CmpInst::ICMP_NE:
          trips = Expr::ceilDiv(toExpr(bound - start), toExpr(step));
          break;
        case llvm::CmpInst::ICMP_SLE:
        case llvm::CmpInst::ICMP_ULE:
          trips = Expr::ceilDiv(toExpr(bound - start + Poly::constant(1)), toExpr(step));
          break;
        case llvm::CmpInst::ICMP_SGT:
        case llvm::CmpInst::ICMP_UGT:
          trips = Expr::ceilDiv(toExpr(start - bound), toExpr(step.scaled(-1)));
          break;
        case llvm::CmpInst::ICMP_SGE:
        case llvm::CmpInst::ICMP_UGE:
          trips = Expr::ceilDiv(toExpr(start - bound + Poly::constant(1)), toExpr(step.scaled(-1)));
          break;
        default:
          break;
        }
        if (trips) {
          model.kind = LoopModel::Counted;
          model.trips = opaque(*trips);
          return loops_[loop] = model;
        }
      }
    }
  }

  // A trip count that every thread of a block shares, in terms the polynomials cannot hold (min, max, a
  // division) or differing from block to block (a slice of K chosen by blockIdx.z, the key tiles up to a query
  // tile's own), or from thread to thread of a block (`for (k = tid / 2; k < n; k += 64)`, each pair of
  // threads starting one further on): none where the formula goes below zero (a block or thread past the end
  // skips the loop at its guard).
  if (!isa<llvm::SCEVCouldNotCompute>(taken)) {
    bool byThread = false;
    std::optional<Expr> lastTrip = blockUniform(taken);
    if (!lastTrip && (lastTrip = threadwise(taken)))
      byThread = true;
    // A sum over every thread of every block would have too many terms to evaluate: such a loop stays unknown.
    if (lastTrip && !(byThread && namesCoordinate(*lastTrip, "blockIdx"))) {
      model.kind = LoopModel::Counted;
      Expr trips = (*lastTrip + Expr::integer(1)).simplified();
      if (!namesCoordinate(trips, "blockIdx") && !namesCoordinate(trips, "threadIdx")) {
        model.trips = opaque(trips); // the same for every block too (a division polynomials cannot hold)
        return loops_[loop] = model;
      }
      std::optional<Expr> entered = entryMargin(loop, byThread);
      if (entered && *entered == trips) // `for (k = begin; k < end; ++k)`: end - begin trips where positive
        model.tripsVarying = Expr::max(trips, Expr::integer(0));
      else if (entered) // the trip count assumes the loop is entered: none where the guard fails
        model.tripsVarying = (Expr::min(Expr::max(*entered, Expr::integer(0)), Expr::integer(1)) * trips).simplified();
      else
        model.tripsVarying = se_.isKnownNonNegative(taken) ? trips : Expr::max(trips, Expr::integer(0)).simplified();
      return loops_[loop] = model;
    }
  }

  // Any exit taken on loaded values makes the trips depend on data: a search that breaks out early, too.
  llvm::SmallVector<llvm::BasicBlock *, 4> exitingBlocks;
  loop->getExitingBlocks(exitingBlocks);
  bool dataDependent = llvm::any_of(exitingBlocks, [&](const llvm::BasicBlock *exit) {
    std::set<const llvm::Value *> seen;
    const llvm::Instruction *terminator = exit->getTerminator();
    if (const auto *test = dyn_cast<llvm::BranchInst>(terminator); test && test->isConditional())
      return dependsOnMemory(test->getCondition(), seen, 0);
    if (const auto *choice = dyn_cast<llvm::SwitchInst>(terminator))
      return dependsOnMemory(choice->getCondition(), seen, 0);
    return false;
  });
  model.kind = LoopModel::Unknown;
  model.cause = dataDependent ? UnknownCause::DataDependentLoop : UnknownCause::Analysis;
  model.reason = dataDependent ? "data-dependent loop (trip count depends on values loaded from memory)"
                               : "loop trip count it cannot determine";
  return loops_[loop] = model;
}

std::optional<Expr> KernelAnalysis::entryMargin(const llvm::Loop *loop, bool threads) {
  const llvm::BasicBlock *entry = loop->getLoopPredecessor(); // a preheader, or the block that tests
  if (!entry)
    return std::nullopt;
  const llvm::BasicBlock *from = entry->getSingleSuccessor() ? entry->getSinglePredecessor() : entry;
  auto *branch = from ? dyn_cast<llvm::BranchInst>(from->getTerminator()) : nullptr;
  auto *cmp = branch && branch->isConditional() ? dyn_cast<llvm::ICmpInst>(branch->getCondition()) : nullptr;
  if (!cmp || !se_.isSCEVable(cmp->getOperand(0)->getType()))
    return std::nullopt;
  auto enters = [&](const llvm::BasicBlock *target) { return target == entry || target == loop->getHeader(); };
  bool truth = enters(branch->getSuccessor(0));
  if (truth == enters(branch->getSuccessor(1)) || loop->contains(branch->getSuccessor(truth ? 1 : 0)))
    return std::nullopt;
  std::optional<Expr> a = launchExpr(se_.getSCEV(cmp->getOperand(0)), threads),
                      b = launchExpr(se_.getSCEV(cmp->getOperand(1)), threads);
  if (!a || !b)
    return std::nullopt;
  switch (truth ? cmp->getPredicate() : cmp->getInversePredicate()) {
  case llvm::CmpInst::ICMP_SLT:
  case llvm::CmpInst::ICMP_ULT:
    return (*b - *a).simplified();
  case llvm::CmpInst::ICMP_SLE:
  case llvm::CmpInst::ICMP_ULE:
    return (*b - *a + Expr::integer(1)).simplified();
  case llvm::CmpInst::ICMP_SGT:
  case llvm::CmpInst::ICMP_UGT:
    return (*a - *b).simplified();
  case llvm::CmpInst::ICMP_SGE:
  case llvm::CmpInst::ICMP_UGE:
    return (*a - *b + Expr::integer(1)).simplified();
  default:
    return std::nullopt;
  }
}

Expr KernelAnalysis::rangeCount(const AxisKey &axis, const Poly &width, const std::vector<const Constraint *> &constraints) {
  Poly full = extent(axis, width);
  std::optional<Expr> hi, lo;
  bool constantUpper = false;
  for (const Constraint *c : constraints) {
    if (c->upper) {
      Expr upper = toExpr(*c->upper);
      constantUpper = constantUpper || c->upper->asConstant().has_value();
      hi = hi ? Expr::min(*hi, upper) : upper;
    }
    if (c->lower) {
      Expr lower = toExpr(*c->lower);
      lo = lo ? Expr::max(*lo, lower) : lower;
    }
  }
  // A constant bound (tid == 0, tid < 32) is taken to lie inside the launch: no min with the extent.
  Expr upper = !hi ? toExpr(full) : constantUpper ? *hi : Expr::min(*hi, toExpr(full));
  return (lo ? upper - *lo : upper).simplified();
}

/// Lane tests repeat within a warp or a few: longer periods are not listed.
constexpr int64_t longestDigitPeriod = 4096;

std::optional<llvm::APInt> evaluateAt(const llvm::Value *value, const llvm::PHINode *phi, uint64_t phiValue,
                                      int depth) {
  auto *type = dyn_cast<llvm::IntegerType>(value->getType());
  if (!type || depth > 8)
    return std::nullopt;
  if (value == phi)
    return llvm::APInt(type->getBitWidth(), phiValue);
  if (auto *constant = dyn_cast<llvm::ConstantInt>(value))
    return constant->getValue();
  if (auto *cast = dyn_cast<llvm::CastInst>(value)) {
    std::optional<llvm::APInt> v = evaluateAt(cast->getOperand(0), phi, phiValue, depth + 1);
    if (!v)
      return std::nullopt;
    switch (cast->getOpcode()) {
    case llvm::Instruction::ZExt:
      return v->zext(type->getBitWidth());
    case llvm::Instruction::SExt:
      return v->sext(type->getBitWidth());
    case llvm::Instruction::Trunc:
      return v->trunc(type->getBitWidth());
    default:
      return std::nullopt;
    }
  }
  if (auto *cmp = dyn_cast<llvm::ICmpInst>(value)) {
    std::optional<llvm::APInt> a = evaluateAt(cmp->getOperand(0), phi, phiValue, depth + 1);
    std::optional<llvm::APInt> b = evaluateAt(cmp->getOperand(1), phi, phiValue, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return llvm::APInt(1, llvm::ICmpInst::compare(*a, *b, cmp->getPredicate()) ? 1 : 0);
  }
  auto *bin = dyn_cast<llvm::BinaryOperator>(value);
  if (!bin)
    return std::nullopt;
  std::optional<llvm::APInt> a = evaluateAt(bin->getOperand(0), phi, phiValue, depth + 1);
  std::optional<llvm::APInt> b = evaluateAt(bin->getOperand(1), phi, phiValue, depth + 1);
  if (!a || !b)
    return std::nullopt;
  switch (bin->getOpcode()) {
  case llvm::Instruction::Add:
    return *a + *b;
  case llvm::Instruction::Sub:
    return *a - *b;
  case llvm::Instruction::Mul:
    return *a * *b;
  case llvm::Instruction::And:
    return *a & *b;
  case llvm::Instruction::Or:
    return *a | *b;
  case llvm::Instruction::Xor:
    return *a ^ *b;
  case llvm::Instruction::LShr:
    return b->uge(a->getBitWidth()) ? std::nullopt : std::optional<llvm::APInt>(a->lshr(*b));
  case llvm::Instruction::AShr:
    return b->uge(a->getBitWidth()) ? std::nullopt : std::optional<llvm::APInt>(a->ashr(*b));
  case llvm::Instruction::Shl:
    return b->uge(a->getBitWidth()) ? std::nullopt : std::optional<llvm::APInt>(a->shl(*b));
  case llvm::Instruction::UDiv:
    return b->isZero() ? std::nullopt : std::optional<llvm::APInt>(a->udiv(*b));
  case llvm::Instruction::SDiv:
    return b->isZero() ? std::nullopt : std::optional<llvm::APInt>(a->sdiv(*b));
  default:
    return std::nullopt;
  }
}

int KernelAnalysis::doublingAtom(const llvm::Loop *loop) {
  char key[64];
  std::snprintf(key, sizeof key, "doubling:%p", static_cast<const void *>(loop));
  return intern(key, makeAtom(AtomKind::DoublingIV, -1, loop, Expr()));
}

bool KernelAnalysis::doublingModel(const llvm::Loop *loop, const llvm::PHINode &phi, const llvm::BinaryOperator &next,
                                   LoopModel &model) {
  // A bound ScalarEvolution can count to (s < 32) leaves it a counted loop.
  if (!isa<llvm::SCEVCouldNotCompute>(se_.getBackedgeTakenCount(loop)) || phi.getNumIncomingValues() != 2)
    return false;
  const llvm::BasicBlock *latch = loop->getLoopLatch();
  unsigned entry = phi.getIncomingBlock(0) == latch ? 1 : 0;
  auto *start = dyn_cast<llvm::ConstantInt>(phi.getIncomingValue(entry));
  if (!start || loop->contains(phi.getIncomingBlock(entry)) || start->getSExtValue() < 1 ||
      !llvm::isPowerOf2_64(uint64_t(start->getSExtValue())))
    return false;
  // The latch goes on while next < bound: the trips are those of s below bound.
  auto *back = dyn_cast<llvm::BranchInst>(latch->getTerminator());
  auto *test = back && back->isConditional() ? dyn_cast<llvm::ICmpInst>(back->getCondition()) : nullptr;
  if (!test)
    return false;
  llvm::CmpInst::Predicate pred =
      back->getSuccessor(0) == loop->getHeader() ? test->getPredicate() : test->getInversePredicate();
  const llvm::Value *bound = test->getOperand(1);
  if (test->getOperand(0) != &next) {
    if (test->getOperand(1) != &next)
      return false;
    bound = test->getOperand(0);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  if (pred != llvm::CmpInst::ICMP_ULT && pred != llvm::CmpInst::ICMP_SLT)
    return false;
  Poly limit = toPoly(se_.getSCEV(const_cast<llvm::Value *>(bound)));
  if (!invariant(limit))
    return false;
  doublingPhis_[&phi] = loop;
  polys_.clear(); // SCEVs that saw this phi as an unknown value must now see the doubling variable
  model.kind = LoopModel::Doubling;
  model.doublingStart = start->getSExtValue();
  model.doublingBound = limit;
  model.iterAtom = doublingAtom(loop);
  return true;
}

std::optional<Constraint> KernelAnalysis::doublingGuard(const llvm::ICmpInst *cmp, llvm::CmpInst::Predicate pred) {
  if (!se_.isSCEVable(cmp->getOperand(0)->getType()))
    return std::nullopt;
  // p = c * (the product of atoms of kinds, one each), and nothing else: {atoms in kinds' order, c}.
  auto monomial = [&](const Poly &p, std::vector<AtomKind> kinds) -> std::optional<std::pair<Monomial, int64_t>> {
    if (p.terms.size() != 1 || p.terms.begin()->first.size() != kinds.size())
      return std::nullopt;
    Monomial ordered;
    for (AtomKind kind : kinds) {
      auto found = std::find_if(p.terms.begin()->first.begin(), p.terms.begin()->first.end(),
                                [&](int id) { return atoms_[id].kind == kind; });
      if (found == p.terms.begin()->first.end())
        return std::nullopt;
      ordered.push_back(*found);
    }
    return std::pair{ordered, p.terms.begin()->second};
  };
  auto guardOn = [&](int thread, int doubling, int64_t scale, Poly bound) {
    Constraint c;
    c.axis.tid = atoms_[thread].dim;
    c.loopAtom = doubling;
    c.loopScale = scale;
    c.loopBound = std::move(bound);
    return c;
  };
  const llvm::Value *left = cmp->getOperand(0), *right = cmp->getOperand(1);
  // c * s * threadIdx < bound (interleaved addressing: index = 2 * s * tid; if (index < blockDim.x)).
  if (pred == llvm::CmpInst::ICMP_UGT || pred == llvm::CmpInst::ICMP_SGT) {
    std::swap(left, right);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  if (pred == llvm::CmpInst::ICMP_ULT || pred == llvm::CmpInst::ICMP_SLT) {
    auto term = monomial(toPoly(se_.getSCEV(const_cast<llvm::Value *>(left))), {AtomKind::ThreadIdx, AtomKind::DoublingIV});
    Poly bound = toPoly(se_.getSCEV(const_cast<llvm::Value *>(right)));
    if (!term || term->second <= 0 || !invariant(bound))
      return std::nullopt;
    return guardOn(term->first[0], term->first[1], term->second, bound);
  }
  // threadIdx % (c * s) == 0, written as a remainder or, c * s being a power of two, as a mask (tid & (2s - 1)).
  auto *zero = dyn_cast<llvm::ConstantInt>(right);
  auto *op = dyn_cast<llvm::BinaryOperator>(left);
  if (pred != llvm::CmpInst::ICMP_EQ || !zero || !zero->isZero() || !op)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    const llvm::Value *value = op->getOperand(side), *modulus = op->getOperand(1 - side);
    if (op->getOpcode() == llvm::Instruction::URem && side == 1)
      break;
    auto thread = monomial(toPoly(se_.getSCEV(const_cast<llvm::Value *>(value))), {AtomKind::ThreadIdx});
    Poly divisor = toPoly(se_.getSCEV(const_cast<llvm::Value *>(modulus)));
    if (op->getOpcode() == llvm::Instruction::And)
      divisor = divisor + Poly::constant(1);
    else if (op->getOpcode() != llvm::Instruction::URem)
      return std::nullopt;
    auto multiple = monomial(divisor, {AtomKind::DoublingIV});
    if (thread && thread->second == 1 && multiple && multiple->second > 0)
      return guardOn(thread->first[0], multiple->first[0], multiple->second,
                     launchDim("blockDim", atoms_[thread->first[0]].dim));
  }
  return std::nullopt;
}

int64_t KernelAnalysis::halvingLast(const llvm::Loop *loop, const llvm::PHINode *phi, int64_t scale) const {
  const llvm::BasicBlock *latch = loop->getLoopLatch();
  auto *back = latch ? dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  if (!back || !back->isConditional())
    return 0;
  bool stayOnTrue = back->getSuccessor(0) == loop->getHeader();
  // goesOn(v): the trip whose variable is v goes on to the trip with v / 2.
  auto goesOn = [&](int64_t v) -> std::optional<bool> {
    std::optional<llvm::APInt> taken = evaluateAt(back->getCondition(), phi, uint64_t(v * scale), 0);
    if (!taken)
      return std::nullopt;
    return taken->isOne() == stayOnTrue;
  };
  // Over the powers of two it must fail below some p and hold from p on: the last trip is then p / 2.
  constexpr int highestBit = 24;
  std::optional<int> firstOn;
  for (int bit = 1; bit <= highestBit; ++bit) {
    std::optional<bool> on = goesOn(int64_t{1} << bit);
    if (!on || (!*on && firstOn))
      return 0;
    if (*on && !firstOn)
      firstOn = bit;
  }
  std::optional<bool> atOne = goesOn(1);
  if (!firstOn || !atOne || *atOne)
    return 0;
  return int64_t{1} << (*firstOn - 1);
}

std::optional<DigitTest> KernelAnalysis::digitTest(const llvm::Value *cond, bool truth) {
  auto *cmp = dyn_cast<llvm::ICmpInst>(cond);
  if (!cmp || !cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  Linear sides[2] = {decompose(toPoly(se_.getSCEV(cmp->getOperand(0)))),
                     decompose(toPoly(se_.getSCEV(cmp->getOperand(1))))};
  // Each side: a constant plus multiples of one threadIdx coordinate and of its quotients by constants.
  std::optional<int> dim;
  int64_t period = 1;
  for (const Linear &side : sides) {
    if (!side.known || !side.invariant.asConstant())
      return std::nullopt;
    for (const auto &[axis, coeff] : side.axes) {
      if (axis.tid < 0 || axis.cta >= 0 || axis.outer >= 0 || !coeff.asConstant() || (dim && *dim != axis.tid))
        return std::nullopt;
      dim = axis.tid;
    }
    for (const auto &[id, coeff] : side.iters) {
      const Atom &q = atoms_[id];
      std::optional<int64_t> divisor = q.kind == AtomKind::Quotient ? q.divisor->asConstant() : std::nullopt;
      if (!divisor || *divisor <= 0 || !coeff.asConstant() || q.quotientAxis.tid < 0 || q.quotientAxis.cta >= 0 ||
          q.quotientAxis.outer >= 0 || (dim && *dim != q.quotientAxis.tid))
        return std::nullopt;
      dim = q.quotientAxis.tid;
      period = std::lcm(period, *divisor);
      if (period > longestDigitPeriod)
        return std::nullopt;
    }
  }
  if (!dim)
    return std::nullopt;
  auto valueAt = [&](const Linear &side, int64_t t) {
    int64_t v = *side.invariant.asConstant();
    for (const auto &[axis, coeff] : side.axes)
      v += *coeff.asConstant() * t;
    for (const auto &[id, coeff] : side.iters)
      v += *coeff.asConstant() * (t / *atoms_[id].divisor->asConstant());
    return v;
  };
  // Only a test that repeats (the remainder of the index, not the index itself) is a lane test.
  for (const Linear &side : sides)
    if (valueAt(side, period) != valueAt(side, 0))
      return std::nullopt;
  DigitTest test{*dim, period, std::vector<bool>(static_cast<size_t>(period))};
  const unsigned bits = cmp->getOperand(0)->getType()->getIntegerBitWidth();
  llvm::CmpInst::Predicate pred = truth ? cmp->getPredicate() : cmp->getInversePredicate();
  for (int64_t r = 0; r < period; ++r) // compared as the instruction compares: at its width, signed or not
    test.passes[r] = llvm::ICmpInst::compare(llvm::APInt(bits, valueAt(sides[0], r), true, true),
                                             llvm::APInt(bits, valueAt(sides[1], r), true, true), pred);
  return test;
}

std::optional<Expr> KernelAnalysis::digitCount(const Expr &extent, const std::vector<DigitTest> &tests) {
  int64_t period = 1;
  for (const DigitTest &t : tests)
    if ((period = std::lcm(period, t.period)) > longestDigitPeriod)
      return std::nullopt;
  std::vector<bool> passes(static_cast<size_t>(period), true);
  for (const DigitTest &t : tests)
    for (int64_t r = 0; r < period; ++r)
      passes[r] = passes[r] && t.passes[r % t.period];
  // Whole periods each pass the same threads; the last, partial one passes those of each run of passing
  // remainders [lo, hi) that it reaches.
  Expr p = Expr::integer(period);
  Expr rounds = extent / p, rest = extent - p * rounds;
  int64_t perPeriod = std::count(passes.begin(), passes.end(), true);
  Expr total = rounds * Expr::integer(perPeriod);
  for (int64_t lo = 0; lo < period;) {
    if (!passes[lo]) {
      ++lo;
      continue;
    }
    int64_t hi = lo;
    while (hi < period && passes[hi])
      ++hi;
    total = total + Expr::min(Expr::max(rest - Expr::integer(lo), Expr::integer(0)), Expr::integer(hi - lo));
    lo = hi;
  }
  return total.simplified();
}

Expr KernelAnalysis::stridedVisits(const LoopModel &walk) {
  Expr step = Expr::integer(walk.step);
  Expr n = Expr::max(toExpr(walk.bound - walk.base), Expr::integer(0));
  Expr m = Expr::min(toExpr(extent(walk.axis, walk.width)), n);
  auto below = [&](const Expr &x) { // F(x), as q·x - step·q·(q + 1)/2
    Expr q = x / step;
    return q * x - step * (q * (q + Expr::integer(1)) / Expr::integer(2));
  };
  // max(, 0) changes no value and keeps the sum one factor of the count (rather than multiplied out with
  // the other dimensions).
  return Expr::max(m + below(n) - below(n - m), Expr::integer(0));
}

std::optional<int64_t> KernelAnalysis::laneOfGroup(const Linear &lin) const {
  // base + threadIdx.d % g, written threadIdx.d - g * (threadIdx.d / g).
  if (!lin.known || lin.axes.size() != 1 || lin.iters.size() != 1 || !invariant(lin.invariant))
    return std::nullopt;
  const auto &[axis, coeff] = *lin.axes.begin();
  const auto &[id, quotientCoeff] = *lin.iters.begin();
  const Atom &q = atoms_[id];
  std::optional<int64_t> group = q.kind == AtomKind::Quotient ? q.divisor->asConstant() : std::nullopt;
  if (axis.cta >= 0 || !(coeff == Poly::constant(1)) || !group || *group <= 1 || !(q.quotientAxis == axis) ||
      !(quotientCoeff == Poly::constant(-*group)))
    return std::nullopt;
  return group;
}

Count KernelAnalysis::countBlock(const llvm::BasicBlock *block) {
  Count count;
  std::vector<Constraint> constraints = guards(block);
  if (auto counting = countOnlyGuards_.find(block); counting != countOnlyGuards_.end())
    constraints.insert(constraints.end(), counting->second.begin(), counting->second.end());
  auto unknownLoop = [&](const LoopModel &model, const char *reason = nullptr) {
    count.reason = reason ? reason : model.reason;
    count.cause = model.cause;
    count.where = model.where;
    count.at = model.start;
    return count;
  };
  auto unmodelled = [&] {
    auto found = unmodelledBranches_.find(block);
    count.reason = found->second.second.reason;
    count.cause = found->second.second.cause;
    count.where = found->second.first;
    return count;
  };
  if (uncountedDigitGuards_.count(block)) {
    count.reason = "guard on a digit of a flat index (i % n, i / n) whose threads it does not count";
    count.where = digitGuardBranches_.at(block);
    return count;
  }
  // Lane tests alone among the unmodelled branches (if (lane == 0) after a warp reduction) are counted below.
  std::map<int, std::vector<DigitTest>> lanes;
  if (unmodelledBranches_.count(block)) {
    if (uncountable_.count(block) || !digitTests_.count(block)) {
      // A loop around the block whose trips depend on data says more than the branch: the work depends on data.
      for (const llvm::Loop *loop = li_.getLoopFor(block); loop; loop = loop->getParentLoop())
        if (const LoopModel &model = loopModel(loop);
            model.kind == LoopModel::Unknown && model.cause == UnknownCause::DataDependentLoop)
          return unknownLoop(model);
      return unmodelled();
    }
    for (const DigitTest &test : digitTests_.at(block))
      lanes[test.dim].push_back(test);
  }
  // Tests of parameters alone the block is reached under: 1 where they hold.
  auto tested = parameterTests_.find(block);
  Expr factor = tested != parameterTests_.end() ? tested->second : Expr::integer(1);
  // The factors that differ from block to block or from thread to thread, summed over those coordinates below.
  Expr varying = Expr::integer(1);
  const LoopModel *varyingLoop = nullptr;
  int64_t groups = 1; // the count is over groups of this many threads (GroupStrided loops)
  std::map<AxisKey, Expr> overrides;
  // The guard that bounds the threads by a tree reduction's loop variable (Constraint::loopAtom), if any.
  auto loopGuard = [&](const LoopModel &model) -> const Constraint * {
    const Constraint *guard = nullptr;
    for (const Constraint &c : constraints)
      if (c.loopAtom == model.iterAtom)
        guard = &c;
    return guard;
  };
  for (const llvm::Loop *loop = li_.getLoopFor(block); loop; loop = loop->getParentLoop()) {
    const LoopModel &model = loopModel(loop);
    switch (model.kind) {
    case LoopModel::Counted:
      if (model.tripsVarying) {
        varying = varying * tripsReaching(block, loop);
        varyingLoop = &model;
      } else {
        factor = factor * tripsReaching(block, loop);
      }
      break;
    case LoopModel::Cover:
      overrides[model.axis] = coverSpan(model);
      break;
    case LoopModel::Halving: {
      const Constraint *guard = loopGuard(model);
      if (!guard && model.trips.isZero())
        return unknownLoop(model, "halving loop whose trip count has no closed form");
      if (!guard) {
        factor = factor * toExpr(model.trips);
        break;
      }
      // threadIdx < s for s = start, start/2, ..., last: start + start/2 + ... + last = 2*start - last threads
      // (start a power of two no larger than the block, as tree reductions are written; none where start is
      // below last and the loop does not run).
      if (model.halvingLast <= 0)
        return unknownLoop(model, "halving loop whose last trip it cannot tell");
      Expr threads = toExpr(model.halvingStart.scaled(2) - Poly::constant(model.halvingLast));
      overrides[guard->axis] = model.halvingLast == 1 ? threads : Expr::max(threads, Expr::integer(0));
      break;
    }
    case LoopModel::Doubling: {
      // loopScale * s * threadIdx < bound, or threadIdx a multiple of loopScale * s, for s = start, 2 * start, ...
      // below bound: bound / (2 * s) threads a trip, and bound / start - 1 in all where the guard's bound is the
      // loop's and the guarded dimension's extent, and loopScale is 2 (bound a power of two, as tree reductions
      // are written).
      const Constraint *guard = loopGuard(model);
      if (!guard)
        return unknownLoop(model, "doubling loop whose trip count has no closed form (a logarithm of a launch value)");
      if (guard->loopScale != 2 || !(guard->loopBound == model.doublingBound) ||
          !(guard->loopBound == launchDim("blockDim", guard->axis.tid)))
        return unknownLoop(model, "doubling loop whose threads per trip it cannot sum");
      Expr bound = toExpr(model.doublingBound);
      overrides[guard->axis] =
          (model.doublingStart == 1 ? bound : bound / Expr::integer(model.doublingStart)) - Expr::integer(1);
      break;
    }
    case LoopModel::Strided:
      overrides[model.axis] = stridedVisits(model);
      break;
    case LoopModel::GroupStrided:
      // Each group's lanes visit [base, bound) once between them: bound - base visits for every `step`
      // threads, the threads counted as everywhere else (whole groups, as warps are launched).
      factor = factor * Expr::max(toExpr(model.bound - model.base), Expr::integer(0));
      groups = groups * model.step;
      break;
    case LoopModel::Unknown:
      return unknownLoop(model);
    }
  }
  std::set<int> used; // thread coordinates: threadIdx.d = d, blockIdx.e = 3 + e
  auto coordinates = [](const AxisKey &axis) {
    std::vector<int> c;
    if (axis.tid >= 0)
      c.push_back(axis.tid);
    if (axis.cta >= 0)
      c.push_back(3 + axis.cta);
    if (axis.outer >= 0)
      c.push_back(3 + axis.outer);
    return c;
  };
  auto claim = [&](const AxisKey &axis) {
    for (int c : coordinates(axis))
      if (used.count(c))
        return false;
    for (int c : coordinates(axis))
      used.insert(c);
    return true;
  };
  Expr total = factor;
  for (const auto &[axis, value] : overrides)
    if (claim(axis))
      total = total * value;
  std::map<AxisKey, std::vector<const Constraint *>> byAxis;
  std::map<AxisKey, Poly> widths;
  for (const Constraint &c : constraints)
    if (c.loopAtom < 0 && !overrides.count(c.axis)) {
      byAxis[c.axis].push_back(&c);
      widths[c.axis] = c.width;
    }
  std::map<int, int64_t> wholeGroups; // threadIdx.d -> the groups its only bounds let through whole
  for (const auto &[axis, list] : byAxis)
    if (claim(axis)) { // a coordinate already bounded through another axis keeps that bound only
      total = total * rangeCount(axis, widths[axis], list);
      if (axis.tid >= 0 && std::all_of(list.begin(), list.end(), [](const Constraint *c) { return c->wholeGroups > 0; }))
        wholeGroups[axis.tid] = (*std::min_element(list.begin(), list.end(), [](const Constraint *a, const Constraint *b) {
                                   return a->wholeGroups < b->wholeGroups;
                                 }))->wholeGroups;
    }
  for (const auto &[dim, tests] : lanes) {
    // A lane test in whole warps that a warp's rank lets through (if (lane == 0) under if (warp < rows)): the
    // lanes it passes of each period.
    if (used.count(dim) && tests.size() == 1 && wholeGroups.count(dim) && wholeGroups[dim] % tests[0].period == 0) {
      int64_t passes = std::count(tests[0].passes.begin(), tests[0].passes.end(), true);
      total = total * Expr::integer(passes) / Expr::integer(tests[0].period);
      continue;
    }
    std::optional<Expr> passing = digitCount(toExpr(launchDim("blockDim", dim)), tests);
    if (used.count(dim) || !passing) // a lane test beside another bound on the same coordinate
      return unmodelled();
    used.insert(dim);
    total = total * *passing;
  }
  // Summed over the threads of a block first, then over the blocks (a loop's trips vary by one or the other;
  // nested loops that vary by both would be a sum over every thread of the grid, too many terms to evaluate).
  if (namesCoordinate(varying, "threadIdx") && namesCoordinate(varying, "blockIdx"))
    return unknownLoop(*varyingLoop, "trip counts that depend on the block and on the thread index in nested loops");
  std::set<std::string> varyingSymbols = varying.symbols();
  for (int c = 0; c < 6; ++c) {
    std::string coordinate = std::string(c < 3 ? "threadIdx." : "blockIdx.") + "xyz"[c % 3];
    if (!varyingSymbols.count(coordinate))
      continue;
    if (used.count(c))
      return unknownLoop(*varyingLoop, ("trip count that depends on " + coordinate + " under a guard on " + coordinate).c_str());
    if (c < 3 && groups > 1) // the count is of groups of threads, not of the threads summed here
      return unknownLoop(*varyingLoop, "trip count that depends on threadIdx inside a loop shared by a group of threads");
    varying = Expr::sum(coordinate, toExpr(launchDim(c < 3 ? "blockDim" : "gridDim", c % 3)), varying);
    used.insert(c);
  }
  total = total * varying;
  for (int d = 0; d < 3; ++d) {
    if (!used.count(d))
      total = total * toExpr(launchDim("blockDim", d));
    if (!used.count(3 + d))
      total = total * toExpr(launchDim("gridDim", d));
  }
  if (groups > 1)
    total = total / Expr::integer(groups);
  count.value = total.simplified();
  return count;
}

} // namespace roofcheck::lint::counting
