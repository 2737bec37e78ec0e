#include "LinearRanks.h"

#include "roofcheck/Polynomial.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DemandedBits.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace roofcheck::lint {
namespace {

/// The special registers of one level of the launch: its coordinates (x, y, z) and its dimensions.
struct Level {
  llvm::Intrinsic::ID coordinate[3];
  llvm::Intrinsic::ID dimension[3];
};

const Level ThreadLevel{{llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                         llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
                        {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                         llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z}};
const Level BlockLevel{{llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                        llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
                       {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                        llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z}};

/// Polynomials over a level's registers: atoms 0-2 its coordinates x, y, z, atoms 3-5 its dimensions.
using RegisterPoly = Polynomial<int, int64_t>;

class LevelRewrite {
public:
  LevelRewrite(llvm::Function &kernel, const Level &level) : kernel_(kernel), level_(level) {
    auto c = [](int d) { return RegisterPoly::atom(d); };
    // (z * Y + y) * X + x and X * Y * Z, the rank and the size as cooperative groups compute them.
    rank_ = (c(2) * c(4) + c(1)) * c(3) + c(0);
    size_ = c(3) * c(4) * c(5);
  }

  /// Whether every read of the level's registers reaches the rest of the kernel only as its rank or its size
  /// (or a tile count ceil(size / g)); collects those places.
  bool readsOnlyRankAndSize() {
    std::vector<llvm::Value *> work;
    for (llvm::Instruction &inst : llvm::instructions(kernel_))
      if (registerOf(&inst) >= 0)
        work.push_back(&inst);
    if (work.empty())
      return false;
    std::set<llvm::Value *> seen;
    while (!work.empty()) {
      llvm::Value *value = work.back();
      work.pop_back();
      if (!seen.insert(value).second)
        continue;
      for (llvm::User *user : value->users()) {
        if (polyOf(user, 0)) {
          work.push_back(user);
          continue;
        }
        if (!escapes(value, user))
          return false;
      }
    }
    return !ranks_.empty() || !sizes_.empty() || !tileCounts_.empty();
  }

  /// The rewrite readsOnlyRankAndSize found possible: one read of the x coordinate and one of the x dimension
  /// in place of the rank and the size.
  void apply() {
    llvm::IRBuilder<> builder(&*kernel_.getEntryBlock().getFirstInsertionPt());
    llvm::Module &module = *kernel_.getParent();
    llvm::Value *coordinate =
        builder.CreateCall(llvm::Intrinsic::getOrInsertDeclaration(&module, level_.coordinate[0]));
    llvm::Value *dimension = builder.CreateCall(llvm::Intrinsic::getOrInsertDeclaration(&module, level_.dimension[0]));
    llvm::SmallVector<llvm::WeakTrackingVH, 16> replaced;
    auto replace = [&](llvm::Value *old, llvm::Value *by) {
      auto *inst = llvm::cast<llvm::Instruction>(old);
      builder.SetInsertPoint(inst);
      inst->replaceAllUsesWith(builder.CreateZExtOrTrunc(by, inst->getType()));
      replaced.emplace_back(inst);
    };
    for (auto &[shift, amount] : tileCounts_) {
      builder.SetInsertPoint(shift);
      llvm::Value *size = builder.CreateZExtOrTrunc(dimension, shift->getType());
      shift->replaceAllUsesWith(builder.CreateLShr(size, amount));
      replaced.emplace_back(shift);
    }
    for (llvm::Value *rank : ranks_)
      replace(rank, coordinate);
    for (llvm::Value *size : sizes_)
      replace(size, dimension);
    llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(replaced);
  }

private:
  /// 0-2: the level's coordinate x, y, z; 3-5: its dimension x, y, z; -1: neither.
  int registerOf(const llvm::Value *value) const {
    const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(value);
    for (int d = 0; call && d < 3; ++d) {
      if (call->getIntrinsicID() == level_.coordinate[d])
        return d;
      if (call->getIntrinsicID() == level_.dimension[d])
        return 3 + d;
    }
    return -1;
  }

  /// The value as a polynomial in the level's registers, where it is one: sums, products and left shifts of
  /// registers and constants, through zero extension. nullopt for anything else.
  std::optional<RegisterPoly> polyOf(const llvm::Value *value, int depth) {
    auto known = polys_.find(value);
    if (known != polys_.end())
      return known->second;
    std::optional<RegisterPoly> poly;
    if (int reg = registerOf(value); reg >= 0)
      poly = RegisterPoly::atom(reg);
    else if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value); constant && constant->getBitWidth() <= 64)
      poly = RegisterPoly::constant(constant->getSExtValue());
    else if (depth < 16)
      poly = operationPoly(value, depth);
    return polys_[value] = poly;
  }

  std::optional<RegisterPoly> operationPoly(const llvm::Value *value, int depth) {
    if (const auto *extend = llvm::dyn_cast<llvm::ZExtInst>(value))
      return polyOf(extend->getOperand(0), depth + 1);
    const auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value);
    if (!op)
      return std::nullopt;
    std::optional<RegisterPoly> a = polyOf(op->getOperand(0), depth + 1);
    std::optional<RegisterPoly> b = a ? polyOf(op->getOperand(1), depth + 1) : std::nullopt;
    if (!b)
      return std::nullopt;
    switch (op->getOpcode()) {
    case llvm::Instruction::Add:
      return *a + *b;
    case llvm::Instruction::Mul:
      return *a * *b;
    case llvm::Instruction::Shl:
      if (std::optional<int64_t> amount = b->asConstant(); amount && *amount >= 0 && *amount < 32)
        return a->scaled(int64_t(1) << *amount);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

  /// Whether `value` may reach `user`, which is no polynomial of the registers: it must be the rank, the size,
  /// or the size plus g - 1 shifted right by log2 g (ceil(size / g)).
  bool escapes(llvm::Value *value, llvm::User *user) {
    RegisterPoly poly = *polyOf(value, 0);
    if (poly == rank_) {
      ranks_.insert(value);
      return true;
    }
    if (poly == size_) {
      sizes_.insert(value);
      return true;
    }
    std::optional<int64_t> extra = (poly - size_).asConstant();
    auto *shift = llvm::dyn_cast<llvm::BinaryOperator>(user);
    const auto *amount = shift && shift->getOpcode() == llvm::Instruction::LShr && shift->getOperand(0) == value
                             ? llvm::dyn_cast<llvm::ConstantInt>(shift->getOperand(1))
                             : nullptr;
    if (!extra || !amount || amount->getZExtValue() >= 32 || *extra != (int64_t(1) << amount->getZExtValue()) - 1)
      return false;
    tileCounts_.emplace(shift, amount->getZExtValue());
    return true;
  }

  llvm::Function &kernel_;
  const Level &level_;
  RegisterPoly rank_, size_;
  std::map<const llvm::Value *, std::optional<RegisterPoly>> polys_;
  std::set<llvm::Value *> ranks_, sizes_;
  std::map<llvm::BinaryOperator *, uint64_t> tileCounts_; ///< ceil(size / g) as (size + g - 1) >> log2 g
};

bool rewriteLevel(llvm::Function &kernel, const Level &level) {
  LevelRewrite rewrite(kernel, level);
  if (!rewrite.readsOnlyRankAndSize())
    return false;
  rewrite.apply();
  return true;
}

/// The reads of one special register in a kernel.
std::vector<llvm::IntrinsicInst *> readsOf(llvm::Function &kernel, llvm::Intrinsic::ID id) {
  std::vector<llvm::IntrinsicInst *> reads;
  for (llvm::Instruction &inst : llvm::instructions(kernel))
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst); call && call->getIntrinsicID() == id)
      reads.push_back(call);
  return reads;
}

} // namespace

bool warpsStackAlongY(llvm::Function &kernel) {
  std::vector<llvm::IntrinsicInst *> laneReads = readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  if (laneReads.empty() || readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y).empty() ||
      !readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x).empty())
    return false;
  llvm::AssumptionCache assumptions(kernel);
  llvm::DominatorTree dominators(kernel);
  llvm::DemandedBits demanded(kernel, assumptions, dominators);
  for (llvm::IntrinsicInst *read : laneReads)
    if (demanded.getDemandedBits(read).getActiveBits() > 5)
      return false;
  return true;
}

void stackWarps(llvm::Function &kernel) {
  std::vector<llvm::IntrinsicInst *> laneReads = readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  std::vector<llvm::IntrinsicInst *> rowReads = readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y);
  std::vector<llvm::IntrinsicInst *> rowCountReads = readsOf(kernel, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  // The new x and its size, and what the old reads become, all made before any old read goes: the builder's
  // place is the entry block's first instruction, which may be one of them.
  llvm::IRBuilder<> builder(&*kernel.getEntryBlock().getFirstInsertionPt());
  llvm::Module &module = *kernel.getParent();
  llvm::Value *x = builder.CreateCall(
      llvm::Intrinsic::getOrInsertDeclaration(&module, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
  llvm::Value *width = builder.CreateCall(
      llvm::Intrinsic::getOrInsertDeclaration(&module, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x));
  llvm::Value *lane = builder.CreateAnd(x, 31), *row = builder.CreateLShr(x, 5);
  llvm::Value *rowCount = builder.CreateLShr(width, 5);
  auto replace = [](std::vector<llvm::IntrinsicInst *> &reads, llvm::Value *by) {
    for (llvm::IntrinsicInst *read : reads) {
      read->replaceAllUsesWith(by);
      read->eraseFromParent();
    }
  };
  replace(laneReads, lane);
  replace(rowReads, row);
  replace(rowCountReads, rowCount);
}

LinearRanks rankLinearly(llvm::Function &kernel) {
  LinearRanks ranks;
  ranks.block = rewriteLevel(kernel, ThreadLevel);
  ranks.grid = rewriteLevel(kernel, BlockLevel);
  return ranks;
}

} // namespace roofcheck::lint
