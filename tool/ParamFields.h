// The scalar members of a kernel parameter passed by value, so that the counting can name what a kernel
// reads from a struct (ggml's uint3 sizes, a Params struct's extents, a lambda's captured n) and the join can
// bind it from the argument's bytes.
#pragma once

#include "roofcheck/Contracts.h"

#include <vector>

namespace clang {
class ASTContext;
class ParmVarDecl;
} // namespace clang

namespace roofcheck::lint {

/// The integer, floating-point and pointer members of `param` when it is a struct, class or lambda passed by value, at any depth
/// of nesting and inheritance, each named `param.member.member` (a lambda's captures by the captured
/// variable's name). Unions, bit-fields and arrays are left out: their bytes do not name one scalar.
std::vector<ParamField> scalarFields(const clang::ASTContext &context, const clang::ParmVarDecl &param);

} // namespace roofcheck::lint
