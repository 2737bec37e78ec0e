// The simplification of a translation unit's device IR before counting: what the counting engine needs to see
// loops, trip counts and memory accesses as nvcc's optimiser leaves them, and no more.
#pragma once

namespace llvm {
class Module;
}

namespace roofcheck::lint {

/// Inlines every call the kernels make and simplifies what remains (see CountingPipeline.cpp); functions no
/// kernel calls are dropped.
void simplifyForCounting(llvm::Module &module);

} // namespace roofcheck::lint
