// Where symbol values come from: a launch's grid, block and raw argument bytes (read as the C type the
// static file gives for each parameter), or the --grid/--block/--arg options of lint, report and audit.
#pragma once

#include "roofcheck/Contracts.h"
#include "roofcheck/Expr.h"

#include <optional>
#include <string>

namespace roofcheck {

enum class ScalarKind { Signed, Unsigned, Float, Double, NotScalar };

/// What a parameter type is once qualifiers are dropped: "const unsigned int" -> Unsigned,
/// "float" -> Float, "float *" or a struct -> NotScalar.
ScalarKind scalarKind(const std::string &type);

/// Whether `type` is a pointer ("const float *", "void *__restrict__").
bool isPointerType(const std::string &type);

/// The argument's value read from hex (two digits a byte, in memory order) as `type`; a pointer is 1 when it
/// is not null and 0 when it is (the formulas name a pointer only where the kernel tests it). nullopt for
/// references and types that are neither pointers nor plain integers or floating point, and for a size that
/// does not fit the type. Malformed hex throws Error.
std::optional<Number> decodeArgument(const std::string &type, const std::string &hex);

/// Parses a command-line value ("8192", "0.5", "1e3") into a Number; throws Error naming `what`.
Number parseNumber(const std::string &text, const std::string &what);

/// Parses "X[,Y[,Z]]" (missing dimensions are 1, each at least 1); throws Error naming `what`.
Dim3 parseDim3(const std::string &text, const std::string &what);

/// gridDim.x|y|z and blockDim.x|y|z.
Bindings dimensionBindings(const Dim3 &grid, const Dim3 &block);

/// Binds one launch dimension: symbol "gridDim" or "blockDim", its .x, .y and .z from dims.
void addDimensionBindings(Bindings &bindings, const std::string &symbol, const Dim3 &dims);

/// Adds one "NAME=VALUE" option to bindings; throws Error for a malformed one.
void addArgumentBinding(Bindings &bindings, const std::string &option);

} // namespace roofcheck
