#include "SourceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cctype>
#include <deque>
#include <optional>
#include <set>
#include <string>

namespace roofcheck::lint {
namespace {

// Functions with a single-precision twin named NAME + "f" that take and return the same arguments.
const std::set<std::string> MathFunctions = {
    "acos", "acosh", "asin",  "asinh", "atan",  "atan2", "atanh", "cbrt",  "ceil",  "cos",   "cosh",
    "erf",  "erfc",  "exp",   "exp10", "exp2",  "expm1", "fabs",  "fdim",  "floor", "fma",   "fmax",
    "fmin", "fmod",  "hypot", "log",   "log10", "log1p", "log2",  "pow",   "rcbrt", "rint",  "round",
    "rsqrt", "sin",  "sinh",  "sqrt",  "tan",   "tanh",  "trunc"};

// Bodies of called functions are read up to this many per kernel: enough for real helpers, bounded for
// generated code.
constexpr size_t MaxFunctions = 256;

bool isDouble(clang::QualType type) {
  return type->getUnqualifiedDesugaredType()->isSpecificBuiltinType(clang::BuiltinType::Double);
}

bool isNarrowFloat(clang::QualType type) {
  const clang::Type *t = type->getUnqualifiedDesugaredType();
  return t->isSpecificBuiltinType(clang::BuiltinType::Float) || t->isSpecificBuiltinType(clang::BuiltinType::Half) ||
         t->isSpecificBuiltinType(clang::BuiltinType::Float16) ||
         t->isSpecificBuiltinType(clang::BuiltinType::BFloat16);
}

/// The single- or half-precision operand that an implicit conversion widens to double, if e is one.
const clang::Expr *promotedOperand(const clang::Expr *e) {
  auto *cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e->IgnoreParens());
  if (!cast || cast->getCastKind() != clang::CK_FloatingCast || !isDouble(cast->getType()) ||
      !isNarrowFloat(cast->getSubExpr()->getType()))
    return nullptr;
  return cast->getSubExpr();
}

class Scanner : public clang::RecursiveASTVisitor<Scanner> {
public:
  Scanner(clang::ASTContext &context, KernelSource &kernel)
      : context_(context), sm_(context.getSourceManager()), kernel_(kernel) {}

  void run(const clang::FunctionDecl *kernelDecl) {
    queue_.push_back(kernelDecl);
    while (!queue_.empty() && visited_.size() < MaxFunctions) {
      const clang::FunctionDecl *definition = nullptr;
      const clang::FunctionDecl *next = queue_.front();
      queue_.pop_front();
      if (!next->hasBody(definition) || !visited_.insert(definition).second)
        continue;
      // The kernel's own file and the project's headers; the CUDA and -isystem headers are not the user's.
      if (sm_.isInSystemHeader(sm_.getExpansionLoc(definition->getBody()->getBeginLoc())))
        continue;
      TraverseStmt(definition->getBody());
    }
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return true;
    queue_.push_back(callee);
    std::string name = callee->getNameAsString();
    if (!MathFunctions.count(name) || !isDouble(callee->getReturnType()))
      return true;
    // The widening happens at the call (sqrt(double) on a float) or inside a template overload of the
    // headers (pow(float, double)); either way an argument starts out narrow.
    bool promoted = false;
    for (const clang::Expr *arg : call->arguments())
      promoted = promoted || isNarrowFloat(arg->IgnoreImpCasts()->getType());
    if (!promoted)
      return true;
    auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts());
    if (!ref)
      return true;
    clang::SourceRange nameRange(ref->getLocation(), ref->getLocation());
    Fp64Promotion promotion;
    promotion.where = span(nameRange);
    promotion.what = name + "() on a single-precision argument";
    if (!ref->hasQualifier() && fixable(nameRange))
      promotion.replacement = name + "f";
    add(std::move(promotion));
    return true;
  }

  // Arithmetic computed in double because one operand is double and the other was float: the double side
  // names the cause (a literal, a variable, a call).
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (!op->isMultiplicativeOp() && !op->isAdditiveOp() && !op->isCompoundAssignmentOp())
      return true;
    auto *compound = llvm::dyn_cast<clang::CompoundAssignOperator>(op);
    if (op->isCompoundAssignmentOp() && !compound)
      return true;
    clang::QualType computed = compound ? compound->getComputationResultType() : op->getType();
    if (!isDouble(computed))
      return true;
    bool lhsPromoted = compound ? isNarrowFloat(op->getLHS()->getType()) : promotedOperand(op->getLHS()) != nullptr;
    bool rhsPromoted = promotedOperand(op->getRHS()) != nullptr;
    if (lhsPromoted == rhsPromoted)
      return true;
    const clang::Expr *cause = (lhsPromoted ? op->getRHS() : op->getLHS())->IgnoreParenImpCasts();
    Fp64Promotion promotion;
    if (auto *literal = llvm::dyn_cast<clang::FloatingLiteral>(cause)) {
      clang::SourceRange range = literal->getSourceRange();
      std::string text = spelling(range);
      promotion.where = span(range);
      promotion.what = "the double literal " + text;
      // A constant behind a macro (M_PI) has no text of its own at the use: name the macro.
      if (range.getBegin().isMacroID())
        promotion.what = "the double constant " +
                         clang::Lexer::getImmediateMacroName(range.getBegin(), sm_, context_.getLangOpts()).str() +
                         " (a macro)";
      bool unsuffixed = !text.empty() && (std::isdigit(static_cast<unsigned char>(text.back())) || text.back() == '.');
      if (unsuffixed && fixable(range))
        promotion.replacement = text + "f";
    } else if (llvm::isa<clang::DeclRefExpr, clang::MemberExpr, clang::CallExpr>(cause) && isDouble(cause->getType())) {
      clang::SourceRange range = cause->getSourceRange();
      promotion.where = span(range);
      promotion.what = "the double operand '" + spelling(range) + "'";
    } else {
      return true; // a double subexpression: its own promotion is reported where it happens
    }
    add(std::move(promotion));
    return true;
  }

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *subscript) {
    auto *base = llvm::dyn_cast<clang::DeclRefExpr>(subscript->getBase()->IgnoreParenImpCasts());
    clang::SourceRange range = subscript->getIdx()->getSourceRange();
    if (!base || !fixable(range))
      return true;
    IndexExpression index;
    index.where = span(range);
    index.pointer = base->getDecl()->getNameAsString();
    index.text = spelling(range);
    kernel_.indexes.push_back(std::move(index));
    return true;
  }

private:
  /// A range written out in the main file, not produced by a macro: safe to quote and to replace.
  bool fixable(clang::SourceRange range) const {
    return range.getBegin().isFileID() && range.getEnd().isFileID() && sm_.isInMainFile(range.getBegin()) &&
           sm_.getFileID(range.getBegin()) == sm_.getFileID(range.getEnd());
  }

  std::string spelling(clang::SourceRange range) const {
    return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(range), sm_, context_.getLangOpts())
        .str();
  }

  /// The span of a range on its first line (macro expansions are reported where the macro is used).
  SourceSpan span(clang::SourceRange range) const {
    SourceSpan s;
    clang::SourceLocation begin = sm_.getExpansionLoc(range.getBegin());
    clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(sm_.getExpansionLoc(range.getEnd()), 0, sm_,
                                                                  context_.getLangOpts());
    clang::PresumedLoc first = sm_.getPresumedLoc(begin);
    if (first.isInvalid())
      return s;
    s.file = first.getFilename();
    s.line = static_cast<int>(first.getLine());
    s.column = static_cast<int>(first.getColumn());
    clang::PresumedLoc last = end.isValid() ? sm_.getPresumedLoc(end) : clang::PresumedLoc();
    s.endColumn = last.isValid() && last.getLine() == first.getLine() ? static_cast<int>(last.getColumn()) : s.column + 1;
    return s;
  }

  void add(Fp64Promotion promotion) {
    if (promotion.where.line > 0)
      kernel_.promotions.push_back(std::move(promotion));
  }

  clang::ASTContext &context_;
  const clang::SourceManager &sm_;
  KernelSource &kernel_;
  std::deque<const clang::FunctionDecl *> queue_;
  std::set<const clang::FunctionDecl *> visited_;
};

} // namespace

void collectSourceFacts(clang::ASTContext &context, const clang::FunctionDecl *kernelDecl, KernelSource &kernel) {
  Scanner(context, kernel).run(kernelDecl);
}

} // namespace roofcheck::lint
