// Views of the estimates: the roofcheck.static/1 document (values filled in from the bindings) and the
// compiler-style text, one block per kernel. Both are fed by the same StaticDocument.
#pragma once

#include "KernelCounter.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/Expr.h"

#include <string>
#include <vector>

namespace roofcheck::lint {

/// The document for the estimates, with every quantity's value evaluated under bindings (null where a
/// symbol stays unbound or the quantity is unknown). A quantity that the bindings bind completely and that
/// still has no value (a division by zero, an overflow, a negative count) adds a line to *warnings.
StaticDocument buildStaticDocument(const std::vector<KernelEstimate> &estimates, const Bindings &bindings,
                                   const std::string &arch, std::vector<std::string> *warnings = nullptr);

/// Compiler-style text: "file:line: kernel NAME" then one indented line per quantity, access and unknown;
/// kernels from library headers only with withLibraryKernels.
std::string renderText(const StaticDocument &document, bool withLibraryKernels);

/// --verbose: one compiler-style note per unknown, "file:line:column: note: kernel 'NAME': cannot bound ...:
/// REASON [unknown: CAUSE]", so that an editor can jump to what the estimator could not follow.
std::string renderUnknownNotes(const StaticDocument &document);

} // namespace roofcheck::lint
