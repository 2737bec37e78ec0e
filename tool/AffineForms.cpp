// Values as the counting engine holds them: polynomials over atoms from ScalarEvolution, the quotients a
// source divides thread indices by, and the affine forms of addresses and bounds.
#include "KernelAnalysis.h"

#include "roofcheck/Bindings.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"

#include <numeric>

namespace roofcheck::lint::counting {

std::optional<int64_t> ratio(const Poly &a, const Poly &b) {
  if (b.isZero())
    return std::nullopt;
  const auto &[m, cb] = *b.terms.begin();
  auto found = a.terms.find(m);
  if (found == a.terms.end() || found->second % cb != 0)
    return std::nullopt;
  int64_t k = found->second / cb;
  if (!(a == b.scaled(k)))
    return std::nullopt;
  return k;
}

std::optional<Poly> divideByTerm(const Poly &a, const Poly &b) {
  if (b.terms.size() != 1)
    return std::nullopt;
  const auto &[bm, bc] = *b.terms.begin();
  Poly q;
  for (const auto &[m, c] : a.terms) {
    if (c % bc != 0)
      return std::nullopt;
    Monomial rest = m;
    for (int atom : bm) {
      auto at = std::find(rest.begin(), rest.end(), atom);
      if (at == rest.end())
        return std::nullopt;
      rest.erase(at);
    }
    q.terms[rest] = c / bc;
  }
  return q;
}

Atom makeAtom(AtomKind kind, int dim, const llvm::Loop *loop, Expr expr) {
  Atom atom;
  atom.kind = kind;
  atom.dim = dim;
  atom.loop = loop;
  atom.expr = std::move(expr);
  return atom;
}

bool isVariable(AtomKind kind) {
  return kind == AtomKind::ThreadIdx || kind == AtomKind::BlockIdx || kind == AtomKind::LoopIter ||
         kind == AtomKind::HalvingIV || kind == AtomKind::DoublingIV || kind == AtomKind::Quotient ||
         kind == AtomKind::CoverQuotient || kind == AtomKind::DigitQuotient;
}


std::optional<std::vector<Progression>> KernelAnalysis::mixedRadix(const Poly &index,
                                                                    const std::map<int, Poly> &quotients,
                                                                    const Expr &range,
                                                                    const std::vector<const Constraint *> &digitGuards,
                                                                    Poly &shift) const {
  // Divisors from the smallest: each one a single term that divides the next.
  std::vector<std::pair<Poly, Poly>> levels; // divisor, coefficient
  for (const auto &[id, coeff] : quotients)
    levels.emplace_back(*atoms_[id].divisor, coeff);
  std::sort(levels.begin(), levels.end(), [](const auto &a, const auto &b) {
    const auto &[ma, ca] = *a.first.terms.begin();
    const auto &[mb, cb] = *b.first.terms.begin();
    return ma.size() != mb.size() ? ma.size() < mb.size() : ca < cb;
  });
  std::vector<Poly> sizes{Poly::constant(1)}; // D_0 = 1, D_1, ..., D_k
  for (const auto &[divisor, coeff] : levels) {
    if (divisor.terms.size() != 1 || !divideByTerm(divisor, sizes.back()))
      return std::nullopt;
    sizes.push_back(divisor);
  }
  std::vector<Progression> digits;
  size_t placed = 0; // digit guards on one of the digits
  for (size_t j = 0; j < sizes.size(); ++j) {
    // Digit j moves the index by D_j and quotient k (k <= j) by D_j / D_k.
    Poly stride = index * sizes[j];
    for (size_t k = 1; k <= j; ++k)
      stride = stride + levels[k - 1].second * *divideByTerm(sizes[j], sizes[k]);
    Expr reach = Expr::ceilDiv(range, toExpr(sizes[j]));
    Expr count = j + 1 < sizes.size() ? Expr::min(toExpr(*divideByTerm(sizes[j + 1], sizes[j])), reach) : reach;
    for (const Constraint *guard : digitGuards) {
      if (!(*guard->digitBelow == sizes[j]))
        continue;
      ++placed;
      if (guard->upper)
        count = Expr::min(count, toExpr(*guard->upper));
      if (guard->lower) {
        count = count - toExpr(*guard->lower);
        shift = shift + *guard->lower * stride;
      }
    }
    if (!stride.isZero())
      digits.push_back({stride, count.simplified()});
  }
  if (placed != digitGuards.size())
    return std::nullopt;
  return digits;
}

std::optional<Poly> KernelAnalysis::quotientOf(const Poly &numerator, const Poly &den) {
  if (!invariant(den) || den.isZero())
    return std::nullopt;
  if (std::optional<Poly> q = axisQuotient(numerator, den))
    return q;
  if (std::optional<Poly> q = flattenedQuotient(numerator, den))
    return q;
  return digitQuotient(numerator, den);
}

std::optional<Poly> KernelAnalysis::digitQuotient(const Poly &numerator, const Poly &den) {
  // The axis's lowest digit, i - a * (i / a), divided by a divisor that need not divide a (flattenedQuotient
  // has the nested case exactly).
  Linear num = decompose(numerator);
  if (!num.known || !num.invariant.isZero() || num.axes.size() != 1 ||
      !(num.axes.begin()->second == Poly::constant(1)) || num.iters.size() != 1)
    return std::nullopt;
  const AxisKey axis = num.axes.begin()->first;
  const Atom &digit = atoms_[num.iters.begin()->first];
  if (digit.kind != AtomKind::Quotient || !(digit.quotientAxis == axis) ||
      !(num.iters.begin()->second == digit.divisor->scaled(-1)))
    return std::nullopt;
  Atom atom;
  atom.kind = AtomKind::DigitQuotient;
  atom.quotientAxis = axis;
  atom.quotientWidth = digit.quotientWidth;
  atom.divisor = std::make_shared<Poly>(den);
  atom.digitOf = num.iters.begin()->first;
  return Poly::atom(intern("digit-quotient:" + std::to_string(atom.digitOf) + ":" + toExpr(den).str(), atom));
}

std::optional<Poly> KernelAnalysis::flattenedQuotient(const Poly &numerator, const Poly &den) {
  // (d * x + i) / d = x + i / d, for integer x: a thread index flattened over two dimensions
  // (threadIdx.y * 16 + threadIdx.x) / 2 is threadIdx.y * 8 + threadIdx.x / 2.
  if (den.terms.size() == 1) {
    Poly whole, rest;
    for (const auto &[m, c] : numerator.terms) {
      Poly term;
      term.terms[m] = c;
      if (std::optional<Poly> q = divideByTerm(term, den))
        whole = whole + *q;
      else
        rest = rest + term;
    }
    if (!whole.isZero() && !rest.isZero()) {
      std::optional<Poly> q = quotientOf(rest, den);
      return q ? std::optional<Poly>(whole + *q) : std::nullopt;
    }
  }
  // (threadIdx.x + w * threadIdx.y) / (w * k) = threadIdx.y / k, as threadIdx.x < w: w is blockDim.x, or a
  // constant row of threads (tid = threadIdx.y * 16 + threadIdx.x) whose threads, as everywhere in the
  // counting, do not overlap the next row's.
  // The same for the digits of thread indices: (threadIdx.x / 8 + 2 * threadIdx.y) / 4 is threadIdx.y / 2.
  auto threadDim = [&](int id) {
    const Atom &atom = atoms_[id];
    if (atom.kind == AtomKind::ThreadIdx)
      return atom.dim;
    return atom.kind == AtomKind::Quotient && atom.quotientAxis.cta < 0 ? atom.quotientAxis.tid : -1;
  };
  if (numerator.terms.size() == 2) {
    std::optional<int> inner, outer;
    Poly rowWidth;
    for (const auto &[m, c] : numerator.terms) {
      std::vector<int> threads;
      for (int id : m)
        if (threadDim(id) >= 0)
          threads.push_back(id);
      if (threads.size() != 1)
        return std::nullopt;
      if (m.size() == 1 && c == 1 && !inner) {
        inner = threads[0];
        continue;
      }
      Poly term;
      term.terms[m] = c;
      outer = threads[0];
      rowWidth = *divideByTerm(term, Poly::atom(threads[0]));
    }
    if (!inner || !outer || threadDim(*inner) == threadDim(*outer) || !invariant(rowWidth))
      return std::nullopt;
    bool exact = atoms_[*inner].kind == AtomKind::ThreadIdx && rowWidth == launchDim("blockDim", threadDim(*inner));
    if (!exact && !rowWidth.asConstant())
      return std::nullopt;
    if (std::optional<Poly> rows = divideByTerm(den, rowWidth); rows && invariant(*rows))
      return quotientOf(Poly::atom(*outer), *rows);
  }
  return std::nullopt;
}

std::optional<Poly> KernelAnalysis::axisQuotient(const Poly &numerator, const Poly &den) {
  Linear num = decompose(numerator);
  if (!num.known || !num.invariant.isZero())
    return std::nullopt;
  AxisKey axis;
  Poly width, divisor = den;
  const llvm::Loop *cover = nullptr;
  if (num.axes.size() == 1 && num.axes.begin()->second == Poly::constant(1)) {
    axis = num.axes.begin()->first;
    width = num.widths.count(axis) ? num.widths[axis] : Poly();
    if (!num.iters.empty()) {
      // The index of a grid- or block-stride loop from 0, axis + extent * trip (its model already made: the
      // loops are modelled before any address).
      const Atom &trip = atoms_[num.iters.begin()->first];
      auto walk = trip.kind == AtomKind::LoopIter ? loops_.find(trip.loop) : loops_.end();
      if (num.iters.size() != 1 || walk == loops_.end() || walk->second.kind != LoopModel::Cover ||
          !(walk->second.axis == axis) || walk->second.scale != 1 || !walk->second.base.isZero() ||
          !(num.iters.begin()->second == extent(axis, width)))
        return std::nullopt;
      cover = trip.loop;
    }
  } else if (num.axes.empty() && num.iters.size() == 1 && num.iters.begin()->second == Poly::constant(1) &&
             atoms_[num.iters.begin()->first].kind == AtomKind::Quotient) {
    // (i / a) / b is i / (a * b) for the non-negative indices of a launch.
    const Atom &inner = atoms_[num.iters.begin()->first];
    axis = inner.quotientAxis;
    width = *inner.quotientWidth;
    divisor = *inner.divisor * den;
  } else {
    return std::nullopt;
  }
  Atom atom;
  atom.kind = cover ? AtomKind::CoverQuotient : AtomKind::Quotient;
  atom.loop = cover;
  atom.quotientAxis = axis;
  atom.quotientWidth = std::make_shared<Poly>(width);
  atom.divisor = std::make_shared<Poly>(divisor);
  // One atom per (axis, divisor): i / n in a division and in the remainder i % n are the same quotient.
  char loopKey[32];
  std::snprintf(loopKey, sizeof loopKey, ":%p", static_cast<const void *>(cover));
  std::string key = "quotient:" + std::to_string(axis.tid) + ":" + std::to_string(axis.cta) + ":" +
                    std::to_string(axis.outer) + ":" + toExpr(width).str() + ":" + toExpr(divisor).str() +
                    (cover ? loopKey : "");
  return Poly::atom(intern(key, atom));
}

std::optional<Poly> KernelAnalysis::scaledQuotient(const Poly &numerator, int64_t den) {
  if (den <= 1)
    return std::nullopt;
  Poly exact, sizes;
  std::map<int, Poly> blocks; // blockIdx atom -> its coefficient
  for (const auto &[m, c] : numerator.terms) {
    if (c % den == 0) {
      exact.terms[m] = c / den;
      continue;
    }
    std::vector<int> variables;
    Monomial rest;
    for (int id : m)
      (isVariable(atoms_[id].kind) ? variables : rest).push_back(id);
    // What is not a variable goes into a formula, where an unknown would be lost (a quotient of a call it could
    // not follow came out as 0, and a GEMM's K loop as no trip at all).
    Poly restTerm;
    restTerm.terms[rest] = 1;
    if (!invariant(restTerm))
      return std::nullopt;
    if (variables.empty()) {
      sizes.terms[m] = c;
    } else if (variables.size() == 1 && atoms_[variables[0]].kind == AtomKind::BlockIdx && !rest.empty()) {
      Poly coefficient;
      coefficient.terms[rest] = c;
      blocks[variables[0]] = blocks[variables[0]] + coefficient;
    } else {
      return std::nullopt;
    }
  }
  // floor((den * x + s) / den) = x + floor(s / den): what divides exactly is exact.
  // A block's offset in a wider element type ((blockIdx.x * d) >> 2, rows of d floats read as float4):
  // blockIdx.x * (d / 4). Where d is not a multiple of 4 each block's start rounds down by less than one
  // element; its row keeps its length and the rows stay apart, so the footprint does not change.
  Expr divisor = Expr::integer(den);
  Poly result = exact;
  for (const auto &[id, coefficient] : blocks)
    result = result + Poly::atom(id) * opaque(toExpr(coefficient) / divisor);
  if (!sizes.isZero())
    result = result + opaque(toExpr(sizes) / divisor);
  return result;
}

std::optional<Poly> KernelAnalysis::divided(const Poly &numerator, const Poly &den) {
  // n / d, both invariant (a size over a tile width): the quotient as a formula. Expr divides by
  // flooring; C's signed division truncates, which is the same for the non-negative sizes of a launch.
  if (invariant(numerator) && invariant(den) && !den.isZero())
    return opaque(toExpr(numerator) / toExpr(den));
  // i / d with i a thread index and d invariant: a variable of its own whose range is the index range / d.
  if (std::optional<Poly> q = quotientOf(numerator, den))
    return q;
  if (std::optional<int64_t> constant = den.asConstant())
    return scaledQuotient(numerator, *constant);
  return std::nullopt;
}

std::optional<Poly> KernelAnalysis::magicQuotient(const llvm::BinaryOperator *shift) {
  if (shift->getOpcode() != llvm::Instruction::LShr)
    return std::nullopt;
  auto member = [&](const llvm::Value *v) -> const ParamField * {
    auto *load = dyn_cast<llvm::LoadInst>(v);
    return load && load->getType()->isIntegerTy() ? loadedField(load) : nullptr;
  };
  auto *sum = dyn_cast<llvm::BinaryOperator>(shift->getOperand(0));
  const ParamField *shiftBy = member(shift->getOperand(1));
  if (!sum || sum->getOpcode() != llvm::Instruction::Add || !shiftBy)
    return std::nullopt;
  for (unsigned high : {0u, 1u}) {
    auto *call = dyn_cast<llvm::CallInst>(sum->getOperand(high));
    const llvm::Value *dividend = sum->getOperand(1 - high);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    // __umulhi: libdevice's function, which the tool leaves a declaration, or the intrinsic it becomes.
    if (!callee || (callee->getName() != "__nv_umulhi" && callee->getName() != "llvm.nvvm.mulhi.ui"))
      continue;
    const llvm::Value *other = call->getArgOperand(0) == dividend   ? call->getArgOperand(1)
                               : call->getArgOperand(1) == dividend ? call->getArgOperand(0)
                                                                    : nullptr;
    const ParamField *multiplier = other ? member(other) : nullptr;
    auto parent = [](const ParamField &f) { return f.name.substr(0, f.name.rfind('.')); };
    if (!multiplier || multiplier == shiftBy || parent(*multiplier) != parent(*shiftBy))
      continue;
    // The divisor is the struct's remaining integer member of the multiplier's width; with none or several,
    // which one the pair divides by is not in the code.
    auto place = parameterPlace(cast<llvm::LoadInst>(other));
    const ParamField *divisor = nullptr;
    int candidates = 0;
    for (const ParamField &f : source_.params[place->first].fields)
      if (&f != multiplier && &f != shiftBy && parent(f) == parent(*multiplier) && f.size == multiplier->size &&
          f.type.find('*') == std::string::npos) {
        divisor = &f;
        ++candidates;
      }
    if (candidates != 1)
      return std::nullopt;
    Atom atom = makeAtom(AtomKind::Param, -1, nullptr, Expr::symbol(divisor->name));
    Poly den = Poly::atom(intern("param:" + divisor->name, atom));
    std::optional<Poly> q = divided(toPoly(se_.getSCEV(const_cast<llvm::Value *>(dividend))), den);
    if (!q)
      return std::nullopt;
    MagicDivision division{multiplier->name, shiftBy->name, divisor->name, "", 0, 0};
    division.file = locationOf(shift, &division.line, &division.column, source_.file);
    bool seen = false;
    for (const MagicDivision &d : divisions_)
      seen = seen || (d.multiplier == division.multiplier && d.shift == division.shift && d.divisor == division.divisor);
    if (!seen)
      divisions_.push_back(division);
    return q;
  }
  return std::nullopt;
}

std::optional<Poly> KernelAnalysis::atLeastOneQuotient(const llvm::SelectInst *select) {
  for (bool floorWhenTrue : {true, false}) {
    auto *floor = dyn_cast<llvm::ConstantInt>(floorWhenTrue ? select->getTrueValue() : select->getFalseValue());
    auto *quotient = dyn_cast<llvm::BinaryOperator>(floorWhenTrue ? select->getFalseValue() : select->getTrueValue());
    auto *cmp = dyn_cast<llvm::ICmpInst>(select->getCondition());
    if (!floor || floor->getValue().ugt(1) || !quotient || !cmp)
      continue;
    auto *den = dyn_cast<llvm::ConstantInt>(quotient->getOperand(1));
    if (!den || den->getValue().isNonPositive() || den->getValue().getActiveBits() > 62)
      continue;
    int64_t divisor = 0;
    switch (quotient->getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
      divisor = den->getSExtValue();
      break;
    case llvm::Instruction::AShr:
    case llvm::Instruction::LShr:
      divisor = int64_t{1} << den->getZExtValue();
      break;
    default:
      continue;
    }
    // Which values of the tested operand take the floor's side. The test is on the quotient (k == 0) or,
    // folded, on the dividend shifted by a constant ((n + 31) <u 63 for n / 32 == 0).
    bool constantFirst = isa<llvm::ConstantInt>(cmp->getOperand(0));
    auto *bound = dyn_cast<llvm::ConstantInt>(cmp->getOperand(constantFirst ? 0 : 1));
    const llvm::Value *tested = cmp->getOperand(constantFirst ? 1 : 0);
    if (!bound)
      continue;
    llvm::CmpInst::Predicate pred = constantFirst ? cmp->getSwappedPredicate() : cmp->getPredicate();
    if (!floorWhenTrue)
      pred = llvm::CmpInst::getInversePredicate(pred);
    llvm::ConstantRange region = llvm::ConstantRange::makeExactICmpRegion(pred, bound->getValue());
    const llvm::Value *dividend = quotient->getOperand(0);
    int64_t zeroUpTo = 1; // the tested values, from 0, for which the quotient is 0
    if (tested == dividend) {
      zeroUpTo = divisor;
    } else if (auto *shifted = dyn_cast<llvm::BinaryOperator>(tested); shifted &&
               shifted->getOpcode() == llvm::Instruction::Add && shifted->getOperand(0) == dividend &&
               isa<llvm::ConstantInt>(shifted->getOperand(1))) {
      region = region.subtract(cast<llvm::ConstantInt>(shifted->getOperand(1))->getValue());
      zeroUpTo = divisor;
    } else if (tested != quotient) {
      continue;
    }
    unsigned bits = bound->getBitWidth();
    // On the non-negative sizes of a launch the floor's side must be exactly where the quotient is 0.
    llvm::ConstantRange nonNegative(llvm::APInt::getZero(bits), llvm::APInt::getSignedMinValue(bits));
    if (region.intersectWith(nonNegative) != llvm::ConstantRange(llvm::APInt::getZero(bits), llvm::APInt(bits, zeroUpTo)))
      continue;
    Poly value = toPoly(se_.getSCEV(const_cast<llvm::BinaryOperator *>(quotient)));
    if (!invariant(value))
      continue;
    // 0 or 1 where the quotient is 0, the quotient (at least 1) elsewhere: max(quotient, floor).
    return opaque(Expr::max(toExpr(value), Expr::integer(floor->getSExtValue())));
  }
  return std::nullopt;
}

Poly KernelAnalysis::valueAtom(const llvm::Value *value) {
  if (auto *arg = dyn_cast<llvm::Argument>(value)) {
    // A pointer's name stands for whether it is given (parameterTruth), never for its address.
    if (arg->getType()->isPointerTy())
      return unknownAtom("arithmetic on an address", value);
    std::string name = paramName(arg->getArgNo());
    Atom atom = makeAtom(AtomKind::Param, -1, nullptr, Expr::symbol(name));
    return Poly::atom(intern("param:" + name, atom));
  }
  if (auto *call = dyn_cast<llvm::CallInst>(value)) {
    if (const llvm::Function *callee = call->getCalledFunction()) {
      llvm::StringRef name = callee->getName();
      if (name.consume_front("llvm.nvvm.read.ptx.sreg.")) {
        auto [what, axis] = name.split('.');
        int dim = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
        if (dim >= 0) {
          if (what == "tid" || what == "ctaid")
            return coordinate(what == "tid" ? AtomKind::ThreadIdx : AtomKind::BlockIdx, dim);
          if (what == "ntid")
            return launchDim("blockDim", dim);
          if (what == "nctaid")
            return launchDim("gridDim", dim);
        }
      }
    }
  }
  if (auto *phi = dyn_cast<llvm::PHINode>(value)) {
    auto found = halvingPhis_.find(phi);
    if (found != halvingPhis_.end()) {
      char key[64];
      std::snprintf(key, sizeof key, "halving:%p", static_cast<const void *>(found->second));
      Atom atom = makeAtom(AtomKind::HalvingIV, -1, found->second, Expr());
      auto scale = halvingScale_.find(phi);
      return Poly::atom(intern(key, atom)).scaled(scale == halvingScale_.end() ? 1 : scale->second);
    }
    if (auto doubling = doublingPhis_.find(phi); doubling != doublingPhis_.end())
      return Poly::atom(doublingAtom(doubling->second));
  }
  // A division, or a right shift by a constant k: a division by 2^k that rounds down, as Expr's does.
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value)) {
    std::optional<Poly> den;
    if (bin->getOpcode() == llvm::Instruction::SDiv || bin->getOpcode() == llvm::Instruction::UDiv)
      den = toPoly(se_.getSCEV(bin->getOperand(1)));
    auto *amount = dyn_cast<llvm::ConstantInt>(bin->getOperand(1));
    if ((bin->getOpcode() == llvm::Instruction::AShr || bin->getOpcode() == llvm::Instruction::LShr) && amount &&
        amount->getZExtValue() < 62)
      den = Poly::constant(int64_t{1} << amount->getZExtValue());
    if (den)
      if (std::optional<Poly> q = divided(toPoly(se_.getSCEV(bin->getOperand(0))), *den))
        return *q;
  }
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value))
    if (std::optional<Poly> q = magicQuotient(bin))
      return *q;
  // An or of operands with no bit in common is their sum (row | i, a row a multiple of 4 and i < 4).
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value); bin && bin->getOpcode() == llvm::Instruction::Or) {
    const llvm::SCEV *a = se_.getSCEV(bin->getOperand(0)), *b = se_.getSCEV(bin->getOperand(1));
    auto below = [&](const llvm::SCEV *small, const llvm::SCEV *aligned) {
      return se_.getUnsignedRangeMax(small).getActiveBits() <= se_.getMinTrailingZeros(aligned);
    };
    if (cast<llvm::PossiblyDisjointInst>(bin)->isDisjoint() || below(a, b) || below(b, a))
      return toPoly(a) + toPoly(b);
  }
  if (auto *select = dyn_cast<llvm::SelectInst>(value))
    if (std::optional<Poly> atLeastOne = atLeastOneQuotient(select))
      return *atLeastOne;
  // i % d = i - d * (i / d), for the thread indices and quotients i / d handles (the column of a flat index).
  if (auto *bin = dyn_cast<llvm::BinaryOperator>(value);
      bin && (bin->getOpcode() == llvm::Instruction::SRem || bin->getOpcode() == llvm::Instruction::URem)) {
    Poly numerator = toPoly(se_.getSCEV(bin->getOperand(0)));
    Poly den = toPoly(se_.getSCEV(bin->getOperand(1)));
    if (std::optional<Poly> q = quotientOf(numerator, den))
      return numerator - den * *q;
  }
  // A phi whose incoming values are all the same quantity (blockDim.x read on two paths) is that quantity.
  if (auto *phi = dyn_cast<llvm::PHINode>(value); phi && se_.isSCEVable(phi->getType()) && !visitingPhis_.count(phi)) {
    visitingPhis_.insert(phi);
    std::optional<Poly> same;
    bool agree = true;
    for (const llvm::Value *incoming : phi->incoming_values()) {
      Poly p = toPoly(se_.getSCEV(const_cast<llvm::Value *>(incoming)));
      if (same && !(p == *same))
        agree = false;
      same = p;
    }
    visitingPhis_.erase(phi);
    if (agree && same)
      return *same;
  }
  if (auto *load = dyn_cast<llvm::LoadInst>(value); load && readsParameter(load)) {
    const ParamField *field = loadedField(load);
    ScalarKind kind = field ? scalarKind(field->type) : ScalarKind::NotScalar;
    if (load->getType()->isIntegerTy() && (kind == ScalarKind::Signed || kind == ScalarKind::Unsigned)) {
      Atom atom = makeAtom(AtomKind::Param, -1, nullptr, Expr::symbol(field->name));
      return Poly::atom(intern("param:" + field->name, atom));
    }
    return unknownAtom("a field of a struct parameter, which the expressions cannot name", value);
  }
  if (auto *load = dyn_cast<llvm::LoadInst>(value); (load && readsData(load)) || isa<llvm::AtomicRMWInst>(value))
    return unknownAtom("indirect index (depends on a value loaded from memory)", value, UnknownCause::IndirectAccess);
  if (isa<llvm::CallInst>(value))
    return unknownAtom("index depends on a call result", value);
  // Named by what computes it (a remainder, a select, a phi of different values), so that a reader of the
  // unknowns knows which construct to look at.
  if (auto *inst = dyn_cast<llvm::Instruction>(value))
    return unknownAtom(std::string("index it cannot follow (") + inst->getOpcodeName() + ")", value);
  return unknownAtom("index it cannot follow", value);
}

Poly KernelAnalysis::toPoly(const llvm::SCEV *scev) {
  auto cached = polys_.find(scev);
  if (cached != polys_.end())
    return cached->second;
  Poly result;
  switch (scev->getSCEVType()) {
  case llvm::scConstant: {
    const llvm::APInt &value = cast<llvm::SCEVConstant>(scev)->getAPInt();
    result = Poly::constant(value.getBitWidth() <= 64 ? value.getSExtValue() : 0);
    break;
  }
  case llvm::scTruncate: {
    auto *cast_ = cast<llvm::SCEVCastExpr>(scev);
    // Truncation to a narrow type is a modulo (x & 31 becomes zext(trunc x to i5)). A few bits less than 32
    // come from shifting an index and back ((i << 2) >> 2, an int index scaled by 4 and divided again): the
    // identity, under the same no-overflow assumption as the extensions below.
    unsigned bits = cast_->getType()->getIntegerBitWidth();
    if (bits >= 24) {
      result = toPoly(cast_->getOperand());
      break;
    }
    // The low bits of a thread index (lane = threadIdx.x & 31) are its remainder by 2^bits.
    Poly operand = toPoly(cast_->getOperand());
    Poly modulus = Poly::constant(int64_t{1} << bits);
    if (std::optional<Poly> q = quotientOf(operand, modulus))
      result = operand - modulus * *q;
    else
      result = unknownAtom("non-affine index (bit masking)", nullptr, UnknownCause::Analysis, scev);
    break;
  }
  case llvm::scZeroExtend: {
    // (tid & 31) with tid = threadIdx.y * 16 + threadIdx.x: ScalarEvolution moves the truncation into the
    // sum, zext(16 * trunc(threadIdx.y) + trunc(threadIdx.x)), whose narrow arithmetic wraps. The sum at
    // full width, reduced modulo 2^bits.
    const llvm::SCEV *operand = cast<llvm::SCEVCastExpr>(scev)->getOperand();
    unsigned bits = operand->getType()->getIntegerBitWidth();
    if (bits < 24 && !isa<llvm::SCEVTruncateExpr>(operand) && !isa<llvm::SCEVUnknown>(operand)) {
      Poly modulus = Poly::constant(int64_t{1} << bits);
      std::optional<Poly> full = untruncated(operand);
      std::optional<Poly> q = full ? quotientOf(*full, modulus) : std::nullopt;
      result = q ? *full - modulus * *q
                 : unknownAtom("non-affine index (bit masking)", nullptr, UnknownCause::Analysis, scev);
      break;
    }
    result = toPoly(operand);
    break;
  }
  case llvm::scPtrToInt:
  case llvm::scSignExtend:
    // Index arithmetic is assumed not to overflow, as the source's int indices do in every valid launch.
    result = toPoly(cast<llvm::SCEVCastExpr>(scev)->getOperand());
    break;
  case llvm::scAddExpr:
    for (const llvm::SCEV *op : cast<llvm::SCEVAddExpr>(scev)->operands())
      result = result + toPoly(op);
    break;
  case llvm::scMulExpr:
    result = Poly::constant(1);
    for (const llvm::SCEV *op : cast<llvm::SCEVMulExpr>(scev)->operands())
      result = result * toPoly(op);
    break;
  case llvm::scUDivExpr: {
    auto *div = cast<llvm::SCEVUDivExpr>(scev);
    Poly lhs = toPoly(div->getLHS()), rhs = toPoly(div->getRHS());
    std::optional<int64_t> divisor = rhs.asConstant();
    bool exact = divisor && *divisor != 0;
    if (exact)
      for (const auto &[m, c] : lhs.terms)
        exact = exact && c % *divisor == 0;
    if (exact) {
      for (auto &[m, c] : lhs.terms)
        c /= *divisor;
      result = lhs;
    } else if (std::optional<Poly> q = divided(lhs, rhs)) {
      result = *q;
    } else {
      result = unknownAtom("non-affine index (division)", nullptr, UnknownCause::Analysis, scev);
    }
    break;
  }
  case llvm::scAddRecExpr: {
    auto *rec = cast<llvm::SCEVAddRecExpr>(scev);
    if (!rec->isAffine()) {
      result = unknownAtom("non-affine recurrence", nullptr, UnknownCause::Analysis, scev);
      break;
    }
    result = toPoly(rec->getStart()) + toPoly(rec->getStepRecurrence(se_)) * iterAtom(rec->getLoop());
    break;
  }
  case llvm::scUMaxExpr:
  case llvm::scSMaxExpr:
  case llvm::scUMinExpr:
  case llvm::scSMinExpr:
  case llvm::scSequentialUMinExpr: {
    auto *nary = cast<llvm::SCEVNAryExpr>(scev);
    bool isMax = scev->getSCEVType() == llvm::scUMaxExpr || scev->getSCEVType() == llvm::scSMaxExpr;
    std::optional<Expr> folded;
    bool allInvariant = true;
    for (const llvm::SCEV *op : nary->operands()) {
      Poly p = toPoly(op);
      if (!invariant(p)) {
        allInvariant = false;
        break;
      }
      Expr e = toExpr(p);
      folded = !folded ? e : isMax ? Expr::max(*folded, e) : Expr::min(*folded, e);
    }
    result = allInvariant && folded ? opaque(*folded)
                                    : unknownAtom("non-affine index (min/max)", nullptr, UnknownCause::Analysis, scev);
    break;
  }
  case llvm::scUnknown:
    result = valueAtom(cast<llvm::SCEVUnknown>(scev)->getValue());
    break;
  default:
    result = unknownAtom("expression it cannot follow", nullptr, UnknownCause::Analysis, scev);
    break;
  }
  polys_[scev] = result;
  return result;
}

std::optional<Expr> KernelAnalysis::launchExpr(const llvm::SCEV *scev, bool threads) {
  // A division of counts, which are not negative: floor division, as Expr's.
  auto quotient = [&](const llvm::SCEV *numerator, const llvm::SCEV *denominator) -> std::optional<Expr> {
    std::optional<Expr> lhs = launchExpr(numerator, threads), rhs = launchExpr(denominator, threads);
    if (!lhs || !rhs)
      return std::nullopt;
    return *lhs / *rhs;
  };
  switch (scev->getSCEVType()) {
  case llvm::scTruncate:
    if (scev->getType()->getIntegerBitWidth() < 24) // a modulo, not the identity toPoly takes it for
      return std::nullopt;
    [[fallthrough]];
  case llvm::scZeroExtend:
  case llvm::scSignExtend:
  case llvm::scPtrToInt:
    return launchExpr(cast<llvm::SCEVCastExpr>(scev)->getOperand(), threads);
  case llvm::scAddExpr:
  case llvm::scMulExpr:
  case llvm::scUMaxExpr:
  case llvm::scSMaxExpr:
  case llvm::scUMinExpr:
  case llvm::scSMinExpr:
  case llvm::scSequentialUMinExpr: {
    std::optional<Expr> folded;
    for (const llvm::SCEV *op : cast<llvm::SCEVNAryExpr>(scev)->operands()) {
      std::optional<Expr> e = launchExpr(op, threads);
      if (!e)
        return std::nullopt;
      switch (scev->getSCEVType()) {
      case llvm::scAddExpr:
        folded = folded ? *folded + *e : *e;
        break;
      case llvm::scMulExpr:
        folded = folded ? *folded * *e : *e;
        break;
      case llvm::scUMaxExpr:
      case llvm::scSMaxExpr:
        folded = folded ? Expr::max(*folded, *e) : *e;
        break;
      default:
        folded = folded ? Expr::min(*folded, *e) : *e;
      }
    }
    return folded;
  }
  case llvm::scUDivExpr:
    return quotient(cast<llvm::SCEVUDivExpr>(scev)->getLHS(), cast<llvm::SCEVUDivExpr>(scev)->getRHS());
  default: {
    // A signed division the same way: index arithmetic does not go below zero in a valid launch.
    if (auto *value = dyn_cast<llvm::SCEVUnknown>(scev))
      if (auto *div = dyn_cast<llvm::BinaryOperator>(value->getValue()); div && div->getOpcode() == llvm::Instruction::SDiv)
        return quotient(se_.getSCEV(div->getOperand(0)), se_.getSCEV(div->getOperand(1)));
    Poly p = toPoly(scev);
    for (const auto &[m, c] : p.terms)
      for (int id : m)
        if (AtomKind kind = atoms_[id].kind; kind != AtomKind::Param && kind != AtomKind::LaunchDim &&
                                             kind != AtomKind::Opaque && kind != AtomKind::BlockIdx &&
                                             !(threads && kind == AtomKind::ThreadIdx))
          return std::nullopt;
    return toExpr(p);
  }
  }
}

std::optional<Poly> KernelAnalysis::untruncated(const llvm::SCEV *narrow) {
  switch (narrow->getSCEVType()) {
  case llvm::scConstant: // a narrow constant's bits, unsigned (16 in 5 bits is not -16)
    return Poly::constant(static_cast<int64_t>(cast<llvm::SCEVConstant>(narrow)->getAPInt().getZExtValue()));
  case llvm::scTruncate:
    return toPoly(cast<llvm::SCEVTruncateExpr>(narrow)->getOperand());
  case llvm::scAddRecExpr: {
    auto *rec = cast<llvm::SCEVAddRecExpr>(narrow);
    std::optional<Poly> start = untruncated(rec->getStart());
    std::optional<Poly> step = rec->isAffine() ? untruncated(rec->getStepRecurrence(se_)) : std::nullopt;
    if (!start || !step)
      return std::nullopt;
    return *start + *step * iterAtom(rec->getLoop());
  }
  case llvm::scAddExpr:
  case llvm::scMulExpr: {
    bool add = narrow->getSCEVType() == llvm::scAddExpr;
    Poly result = add ? Poly() : Poly::constant(1);
    for (const llvm::SCEV *op : cast<llvm::SCEVNAryExpr>(narrow)->operands()) {
      std::optional<Poly> p = untruncated(op);
      if (!p)
        return std::nullopt;
      result = add ? result + *p : result * *p;
    }
    return result;
  }
  default:
    return std::nullopt;
  }
}

Linear KernelAnalysis::decompose(const Poly &p) {
  Linear lin;
  std::map<int, Poly> coefficients; // variable atom -> coefficient
  for (const auto &[m, c] : p.terms) {
    int variable = -1, variables = 0;
    for (int id : m) {
      if (atoms_[id].kind == AtomKind::Unknown) {
        if (lin.known) {
          lin.known = false;
          lin.reason = atoms_[id].reason;
          lin.cause = atoms_[id].cause;
          lin.where = atoms_[id].where;
        }
      } else if (isVariable(atoms_[id].kind)) {
        variable = id;
        ++variables;
      }
    }
    if (variables > 1 && lin.known) {
      lin.known = false;
      lin.reason = "non-affine index (product of thread or loop variables)";
    }
    if (variables == 1) {
      Monomial rest = m;
      rest.erase(std::find(rest.begin(), rest.end(), variable));
      Poly term;
      term.terms[rest] = c;
      coefficients[variable] = coefficients[variable] + term;
    } else if (variables == 0) {
      Poly term;
      term.terms[m] = c;
      lin.invariant = lin.invariant + term;
    }
  }
  std::map<int, Poly> tids, ctas; // dim -> coefficient
  for (const auto &[id, coeff] : coefficients) {
    if (coeff.isZero())
      continue;
    const Atom atom = atoms_[id];
    if (atom.kind == AtomKind::ThreadIdx)
      tids[atom.dim] = coeff;
    else if (atom.kind == AtomKind::BlockIdx)
      ctas[atom.dim] = coeff;
    else
      lin.iters[id] = coeff;
  }
  // Pair threadIdx.d with the blockIdx whose coefficient is blockDim.d (or a constant tile) times larger:
  // together they are one global index.
  for (auto &[d, ct] : tids) {
    int paired = -1;
    Poly width;
    for (int pass = 0; pass < 2 && paired < 0; ++pass)
      for (const auto &[e, cc] : ctas) {
        if ((pass == 0) != (e == d))
          continue;
        if (cc == ct * launchDim("blockDim", d) || wholeGroupsOfBlock(divideByTerm(cc, ct), d)) {
          paired = e;
          width = launchDim("blockDim", d);
          break;
        }
        if (std::optional<int64_t> k = ratio(cc, ct); k && *k > 1) {
          paired = e;
          width = Poly::constant(*k);
          break;
        }
      }
    if (paired >= 0) {
      ctas.erase(paired);
      // A grid flattened in two dimensions (THREADID = (gridDim.x * blockIdx.y + blockIdx.x) * blockDim.x +
      // threadIdx.x): blockIdx.f steps over whole rows of gridDim.e blocks.
      int outer = -1;
      for (const auto &[f, cf] : ctas)
        if (cf == ct * width * launchDim("gridDim", paired)) {
          outer = f;
          break;
        }
      if (outer >= 0)
        ctas.erase(outer);
      lin.axes[{d, paired, outer}] = ct;
      lin.widths[{d, paired, outer}] = width;
    } else {
      lin.axes[{d, -1}] = ct;
    }
  }
  foldWarpRank(lin, ctas);
  for (const auto &[e, cc] : ctas)
    lin.axes[{-1, e}] = cc;
  return lin;
}

bool KernelAnalysis::wholeGroupsOfBlock(const std::optional<Poly> &p, int dim) {
  // g * (blockDim.d / g), as a block's offset in whole warps or groups (blockIdx.x * (blockDim.x / 32) * 32
  // + threadIdx.x % 32 + 32 * (threadIdx.x / 32)): blockDim.d, where it is a multiple of g.
  if (!p || p->terms.size() != 1 || p->terms.begin()->second <= 1)
    return false;
  int64_t group = p->terms.begin()->second;
  return *p == opaque(toExpr(launchDim("blockDim", dim)) / Expr::integer(group)).scaled(group);
}

void KernelAnalysis::foldWarpRank(Linear &lin, std::map<int, Poly> &ctas) {
  // A warp's rank over the launch (warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) is the global
  // index divided by 32, where blockDim.x is a multiple of 32: the groups it counts are whole in every block,
  // as such launches are written. Scaled by k (warp * n + lane, a row of n values a warp), k·(threadIdx.x / 32)
  // goes with it and what else the thread's quotient carries (-32 of the lane's threadIdx.x % 32) stays.
  for (const auto &[id, coeff] : lin.iters) {
    const Atom &q = atoms_[id];
    std::optional<int64_t> group = q.kind == AtomKind::Quotient && q.quotientAxis.cta < 0 && q.quotientAxis.outer < 0
                                       ? q.divisor->asConstant()
                                       : std::nullopt;
    if (!group || *group <= 1)
      continue;
    int dim = q.quotientAxis.tid;
    auto block = ctas.find(dim);
    if (block == ctas.end())
      continue;
    // The block's offset in groups of g, or in larger groups G = g·r that hold r of them ((blockDim.x / 32) * 2
    // with rows of 16 lanes, two rows a warp): blockDim.x / G · s = blockDim.x / g · s / r.
    std::optional<Poly> scale;
    for (int64_t larger = *group; larger <= 1024 && !scale; larger *= 2) {
      Poly groupsPerBlock = opaque(toExpr(launchDim("blockDim", dim)) / Expr::integer(larger));
      std::optional<Poly> perLarger = divideByTerm(block->second, groupsPerBlock);
      if (perLarger && invariant(*perLarger) && *perLarger * groupsPerBlock == block->second)
        scale = divideByTerm(*perLarger, Poly::constant(larger / *group));
    }
    if (!scale)
      continue;
    Poly global = coordinate(AtomKind::BlockIdx, dim) * launchDim("blockDim", dim) + coordinate(AtomKind::ThreadIdx, dim);
    std::optional<Poly> rank = axisQuotient(global, Poly::constant(*group));
    if (!rank)
      continue;
    Poly rest = coeff - *scale;
    int thread = id;
    ctas.erase(block);
    if (rest.isZero())
      lin.iters.erase(thread);
    else
      lin.iters[thread] = rest;
    lin.iters[rank->terms.begin()->first.front()] = *scale;
    return;
  }
}

std::optional<KernelAnalysis::FlatDigit> KernelAnalysis::flatDigit(const Linear &lin) const {
  if (lin.iters.empty())
    return std::nullopt;
  FlatDigit digit;
  std::vector<std::pair<Poly, Poly>> terms; // divisor (1 for the index itself), coefficient
  for (const auto &[id, coeff] : lin.iters) {
    const Atom &atom = atoms_[id];
    if (atom.kind != AtomKind::Quotient || (!terms.empty() && !(atom.quotientAxis == digit.axis)))
      return std::nullopt;
    digit.axis = atom.quotientAxis;
    digit.width = *atom.quotientWidth;
    digit.atoms.push_back(id);
    terms.emplace_back(*atom.divisor, coeff);
  }
  for (const auto &[axis, coeff] : lin.axes) {
    if (!(axis == digit.axis))
      return std::nullopt;
    terms.emplace_back(Poly::constant(1), coeff);
  }
  // Tests on the digits of a thread index alone (lane == 0) are lane tests (DigitTest), counted as such.
  if (terms.size() > 2 || digit.axis.cta < 0)
    return std::nullopt;
  if (terms.size() == 2) {
    if (!divideByTerm(terms[1].first, terms[0].first))
      std::swap(terms[0], terms[1]);
    std::optional<Poly> radix = divideByTerm(terms[1].first, terms[0].first);
    if (!radix || !(terms[1].second == (terms[0].second * *radix).scaled(-1)))
      return std::nullopt;
    digit.above = terms[1].first;
  }
  digit.below = terms[0].first;
  digit.coeff = terms[0].second;
  digit.whole = terms.size() == 1;
  return digit;
}

} // namespace roofcheck::lint::counting
