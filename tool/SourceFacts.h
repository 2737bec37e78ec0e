// What the lint rules need from a kernel's source that the device IR no longer shows: where single- or
// half-precision values are promoted to double, and the index expressions of subscripts (for notes that
// point at the index of an access). Read from the AST of the kernel and of the device functions it calls.
#pragma once

#include "DeviceCompiler.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace roofcheck::lint {

/// Fills kernel.promotions and kernel.indexes from the body of `kernel` and of the functions it calls,
/// transitively, whose bodies are in the main file.
void collectSourceFacts(clang::ASTContext &context, const clang::FunctionDecl *kernelDecl, KernelSource &kernel);

} // namespace roofcheck::lint
