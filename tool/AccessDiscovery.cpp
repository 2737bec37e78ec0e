// The global-memory accesses of an instruction, however they are spelled (loads and stores of any width,
// atomics, memcpy, inline PTX), and what their addresses are relative to.
#include "KernelAnalysis.h"
#include "InlinePtx.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"

namespace roofcheck::lint::counting {

std::vector<KernelAnalysis::Access> KernelAnalysis::accessesOf(const llvm::Instruction &inst) {
  std::vector<Access> out;
  auto add = [&](const char *kind, const llvm::Value *address, llvm::Type *type, int64_t bytes = 0) {
    out.push_back({&inst, kind, address, bytes ? bytes : static_cast<int64_t>(dl_.getTypeStoreSize(type)), ""});
  };
  auto unknown = [&](const char *kind, std::string reason) {
    out.push_back({&inst, kind, nullptr, 0, std::move(reason)});
  };
  if (auto *load = dyn_cast<llvm::LoadInst>(&inst))
    add("load", load->getPointerOperand(), load->getType());
  else if (auto *store = dyn_cast<llvm::StoreInst>(&inst))
    add("store", store->getPointerOperand(), store->getValueOperand()->getType());
  else if (auto *rmw = dyn_cast<llvm::AtomicRMWInst>(&inst))
    add("atomic", rmw->getPointerOperand(), rmw->getValOperand()->getType());
  else if (auto *xchg = dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    add("atomic", xchg->getPointerOperand(), xchg->getNewValOperand()->getType());
  else if (auto *transfer = dyn_cast<llvm::MemTransferInst>(&inst)) {
    if (auto *length = dyn_cast<llvm::ConstantInt>(transfer->getLength())) {
      add("load", transfer->getRawSource(), nullptr, length->getSExtValue());
      add("store", transfer->getRawDest(), nullptr, length->getSExtValue());
    } else if (!onChip(transfer->getRawSource()) || !onChip(transfer->getRawDest())) {
      unknown("load", "memcpy of a length it cannot follow");
      unknown("store", "memcpy of a length it cannot follow");
    }
  } else if (auto *set = dyn_cast<llvm::MemSetInst>(&inst)) {
    if (auto *length = dyn_cast<llvm::ConstantInt>(set->getLength()))
      add("store", set->getRawDest(), nullptr, length->getSExtValue());
    else if (!onChip(set->getRawDest()))
      unknown("store", "memset of a length it cannot follow");
  } else if (auto *call = dyn_cast<llvm::CallInst>(&inst)) {
    auto *asm_ = dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
    if (!asm_)
      return out;
    for (const PtxMemoryOp &op : readInlinePtx(asm_->getAsmString().str()).memory) {
      if (op.space != "global" && op.space != "generic")
        continue; // shared, local, const, param: on chip
      const char *kind = op.kind == PtxMemoryOp::Load ? "load" : op.kind == PtxMemoryOp::Store ? "store" : "atomic";
      const llvm::Value *address = asmOperand(*call, op.addressOperand);
      // "l"(pointer) arrives as a pointer; "l"(__cvta_generic_to_global(p)) as an integer made from one.
      if (auto *cast = dyn_cast_or_null<llvm::PtrToIntOperator>(address))
        address = cast->getPointerOperand();
      int64_t bytes = op.bytes;
      if (!bytes && op.sizeOperand >= 0)
        if (auto *size = dyn_cast_or_null<llvm::ConstantInt>(asmOperand(*call, op.sizeOperand)))
          bytes = size->getSExtValue();
      if (op.tensorMap)
        unknown(kind, "tensor-map copy in inline assembly (" + op.mnemonic + "): its box is in the tensor map");
      else if (!address || !address->getType()->isPointerTy())
        unknown(kind, "inline assembly address it cannot follow (" + op.mnemonic + ")");
      else if (!bytes)
        unknown(kind, "inline assembly of a size it cannot follow (" + op.mnemonic + ")");
      else if (op.space == "global" || !onChip(address))
        add(kind, address, nullptr, bytes);
    }
  }
  return out;
}

const llvm::SCEV *KernelAnalysis::byteOffset(const llvm::Value *pointer) {
  const llvm::SCEV *address = se_.getSCEV(const_cast<llvm::Value *>(pointer));
  const llvm::SCEV *base = se_.getPointerBase(address);
  const llvm::SCEV *offset = se_.getMinusSCEV(address, base);
  // Through an address space cast (__ldg) and through the choice of a row of an optional input or null.
  auto *unknown = dyn_cast<llvm::SCEVUnknown>(base);
  auto *cast = unknown ? dyn_cast<llvm::AddrSpaceCastOperator>(unknown->getValue()) : nullptr;
  const llvm::Value *inside = cast ? cast->getPointerOperand() : unknown ? nonNullChoice(unknown->getValue()) : nullptr;
  if (!inside || isa<llvm::SCEVCouldNotCompute>(offset))
    return offset;
  const llvm::SCEV *inner = byteOffset(inside);
  if (isa<llvm::SCEVCouldNotCompute>(inner))
    return inner;
  llvm::Type *wide = se_.getWiderType(offset->getType(), inner->getType());
  return se_.getAddExpr(se_.getNoopOrSignExtend(offset, wide), se_.getNoopOrSignExtend(inner, wide));
}

std::optional<std::pair<unsigned, int64_t>> KernelAnalysis::parameterPlace(const llvm::LoadInst *load) const {
  if (!readsParameter(load))
    return std::nullopt;
  const llvm::Value *address = load->getPointerOperand();
  llvm::APInt offset(dl_.getIndexTypeSizeInBits(address->getType()), 0);
  const llvm::Value *object = address->stripAndAccumulateConstantOffsets(dl_, offset, true);
  auto *arg = dyn_cast<llvm::Argument>(object);
  if (!arg)
    return std::nullopt;
  return std::make_pair(arg->getArgNo(), offset.getSExtValue());
}

const ParamField *KernelAnalysis::loadedField(const llvm::LoadInst *load) const {
  std::optional<std::pair<unsigned, int64_t>> place = parameterPlace(load);
  if (!place || place->first >= source_.params.size())
    return nullptr;
  auto size = static_cast<int64_t>(dl_.getTypeStoreSize(load->getType()).getFixedValue());
  for (const ParamField &field : source_.params[place->first].fields)
    if (field.offset == place->second && field.size == size)
      return &field;
  return nullptr;
}

std::optional<std::string> KernelAnalysis::parameterField(const llvm::LoadInst *load) const {
  if (const ParamField *field = loadedField(load))
    return field->name;
  std::optional<std::pair<unsigned, int64_t>> place = parameterPlace(load);
  if (!place)
    return std::nullopt;
  return paramName(place->first) + "+" + std::to_string(place->second);
}

bool KernelAnalysis::onChip(const llvm::Value *pointer) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space == AddressSpace::Shared || space == AddressSpace::Constant || space == AddressSpace::Local ||
      space == AddressSpace::Param)
    return true;
  const llvm::Value *base = llvm::getUnderlyingObject(pointer, 0);
  if (isa<llvm::AllocaInst>(base))
    return true;
  if (auto *arg = dyn_cast<llvm::Argument>(base))
    return arg->hasByValAttr();
  if (auto *global = dyn_cast<llvm::GlobalVariable>(base))
    return global->getAddressSpace() == AddressSpace::Shared || global->getAddressSpace() == AddressSpace::Constant ||
           global->getAddressSpace() == AddressSpace::Local;
  return false;
}

std::array<bool, 3> KernelAnalysis::threadDependence(const Linear &lin) const {
  std::array<bool, 3> depends{false, false, false};
  for (const auto &[axis, coeff] : lin.axes)
    if (axis.tid >= 0 && !coeff.isZero())
      depends[axis.tid] = true;
  for (const auto &[id, coeff] : lin.iters)
    if ((atoms_[id].kind == AtomKind::Quotient || atoms_[id].kind == AtomKind::CoverQuotient ||
         atoms_[id].kind == AtomKind::DigitQuotient) &&
        atoms_[id].quotientAxis.tid >= 0)
      depends[atoms_[id].quotientAxis.tid] = true;
  return depends;
}

} // namespace roofcheck::lint::counting
