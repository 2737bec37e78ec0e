// Runs Clang on one CUDA file for exactly one device-side compilation and returns the optimised device
// LLVM IR together with what the AST knows about each kernel (names, parameters, location). Host code that
// clang rejects but nvcc accepts does not sink the file: the function bodies holding the errors are blanked
// and the file compiled again; a kernel whose own body fails is kept and marked as not analysed.
#pragma once

#include "roofcheck/Contracts.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace roofcheck::lint {

struct KernelSource {
  std::string name;    ///< unqualified, with template arguments after '<'
  std::string mangled; ///< the device-side symbol
  std::string file;
  int line = 0;
  std::vector<KernelParam> params;
  std::string notAnalysed; ///< the compile error that kept its body out, when there was one
};

struct DeviceModule {
  DeviceModule();
  DeviceModule(DeviceModule &&);
  ~DeviceModule();
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::vector<KernelSource> kernels;
  std::vector<std::string> recoveredErrors; ///< errors in host code that were worked around
};

/// The compile command (compiler first) that BUILD_DIR/compile_commands.json holds for sourceFile.
/// Throws roofcheck::Error when the database cannot be read or has no entry for the file.
std::vector<std::string> compileCommandFromDatabase(const std::string &buildDir, const std::string &sourceFile);

/// Compiles with the full clang command line (see deviceCommandLine). Throws roofcheck::Error with one line
/// when the device side cannot be compiled.
DeviceModule compileDevice(const std::vector<std::string> &commandLine, const std::string &sourceFile);

} // namespace roofcheck::lint
