// LLVM's new pass manager needs a PassBuilder and four analysis managers registered with it and linked to
// each other before any pass or function analysis runs; the simplification pipeline (DeviceCompiler.cpp)
// and the counting engine (KernelCounter.cpp) both set them up this way.
#pragma once

#include "llvm/Passes/PassBuilder.h"

namespace roofcheck::lint {

struct PassManagers {
  PassManagers() {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
  }
  PassManagers(const PassManagers &) = delete;
  PassManagers &operator=(const PassManagers &) = delete;

  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
};

} // namespace roofcheck::lint
