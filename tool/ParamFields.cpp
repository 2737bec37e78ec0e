#include "ParamFields.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/DenseMap.h"

namespace roofcheck::lint {
namespace {

// Deep enough for CUTLASS's Params (a problem shape inside arguments inside params); bounded for generated
// types.
constexpr int MaxDepth = 6;
constexpr size_t MaxFields = 512;
// CUTLASS's Coord<3> keeps a GEMM's m, n, k in `int idx[3]`; longer arrays are buffers, not shapes.
constexpr uint64_t MaxArrayElements = 8;

class FieldCollector {
public:
  FieldCollector(const clang::ASTContext &context, std::vector<ParamField> &fields)
      : context_(context), fields_(fields) {}

  void record(const clang::RecordDecl *decl, const std::string &prefix, int64_t base, int depth) {
    decl = decl ? decl->getDefinition() : nullptr;
    if (!decl || decl->isUnion() || decl->isInvalidDecl() || depth > MaxDepth)
      return;
    const clang::ASTRecordLayout &layout = context_.getASTRecordLayout(decl);
    llvm::DenseMap<const clang::FieldDecl *, std::string> captureNames;
    if (auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(decl)) {
      // GCC sees the lazy pointer behind bases() deserialise through a null AST source, which a parsed (not
      // loaded) AST never does.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull"
#endif
      for (const clang::CXXBaseSpecifier &b : cxx->bases())
        if (!b.isVirtual())
          if (const clang::CXXRecordDecl *baseDecl = b.getType()->getAsCXXRecordDecl())
            record(baseDecl, prefix, base + layout.getBaseClassOffset(baseDecl).getQuantity(), depth + 1);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
      if (cxx->isLambda()) {
        llvm::DenseMap<const clang::ValueDecl *, clang::FieldDecl *> captures;
        clang::FieldDecl *thisCapture = nullptr;
        cxx->getCaptureFields(captures, thisCapture);
        for (const auto &[var, field] : captures)
          captureNames[field] = var->getNameAsString();
      }
    }
    for (const clang::FieldDecl *field : decl->fields()) {
      if (field->isBitField() || fields_.size() >= MaxFields)
        continue;
      auto capture = captureNames.find(field);
      std::string name = capture != captureNames.end() ? capture->second : field->getNameAsString();
      int64_t offset = base + context_.toCharUnitsFromBits(layout.getFieldOffset(field->getFieldIndex())).getQuantity();
      clang::QualType type = field->getType().getCanonicalType();
      if (type->isReferenceType() || type->isDependentType() || type->isIncompleteType())
        continue;
      if (const clang::RecordDecl *inner = type->getAsRecordDecl()) {
        // An anonymous struct's members are read as the enclosing one's.
        record(inner, name.empty() ? prefix : prefix + name + ".", offset, depth + 1);
        continue;
      }
      if (name.empty())
        continue;
      // A short array of scalars: one field an element, named as the source indexes it (`extent.idx[2]`).
      if (const auto *array = context_.getAsConstantArrayType(type);
          array && array->getZExtSize() <= MaxArrayElements) {
        clang::QualType element = array->getElementType().getCanonicalType();
        int64_t elementSize = context_.getTypeSizeInChars(element).getQuantity();
        for (uint64_t i = 0; i < array->getZExtSize(); ++i)
          scalar(prefix + name + "[" + std::to_string(i) + "]", element, offset + static_cast<int64_t>(i) * elementSize);
        continue;
      }
      scalar(prefix + name, type, offset);
    }
  }

private:
  void scalar(const std::string &name, clang::QualType type, int64_t offset) {
    if (const auto *enumType = type->getAs<clang::EnumType>())
      type = enumType->getDecl()->getIntegerType().getCanonicalType();
    if ((!type->isIntegerType() && !type->isPointerType() && !type->isRealFloatingType()) ||
        fields_.size() >= MaxFields)
      return;
    clang::PrintingPolicy policy(context_.getLangOpts());
    fields_.push_back({name, type.getUnqualifiedType().getAsString(policy), offset,
                       context_.getTypeSizeInChars(type).getQuantity()});
  }

  const clang::ASTContext &context_;
  std::vector<ParamField> &fields_;
};

} // namespace

std::vector<ParamField> scalarFields(const clang::ASTContext &context, const clang::ParmVarDecl &param) {
  std::vector<ParamField> fields;
  clang::QualType type = param.getType().getCanonicalType();
  if (type->isDependentType() || type->isIncompleteType())
    return fields;
  if (const clang::RecordDecl *decl = type->getAsRecordDecl())
    FieldCollector(context, fields).record(decl, param.getNameAsString() + ".", 0, 0);
  return fields;
}

} // namespace roofcheck::lint
