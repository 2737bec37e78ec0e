// Runs Clang on one CUDA file for exactly one device-side compilation and returns the optimised device
// LLVM IR together with what the AST knows about each kernel (names, parameters, location). Host code that
// clang rejects but nvcc accepts does not sink the file: the function bodies holding the errors are blanked
// and the file compiled again; a kernel whose own body fails is kept and marked as not analysed.
#pragma once

#include "roofcheck/Contracts.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace roofcheck::lint {

/// A span of one source line: columns [column, endColumn), 1-based.
struct SourceSpan {
  std::string file;
  int line = 0;
  int column = 0;
  int endColumn = 0;
};

/// Where single- or half-precision values are computed in double precision (a `0.5` literal, a double
/// math function, a double operand), with the mechanical fix when there is one.
struct Fp64Promotion {
  SourceSpan where;
  std::string what;        ///< "the double literal 0.5", "sqrt() on a float argument", ...
  std::string replacement; ///< replaces `where` to fix it; empty when the fix is not mechanical
};

/// The index of a subscript on a kernel parameter or global (`out[x * n + y]`).
struct IndexExpression {
  SourceSpan where; ///< the index, inside the brackets
  std::string pointer;
  std::string text;
};

struct KernelSource {
  std::string name;    ///< unqualified, with template arguments after '<'
  std::string mangled; ///< the device-side symbol, as clang names it (the IR function's name)
  /// The symbol in the binary nvcc builds, which launches are recorded by: `mangled`, without the
  /// internal-linkage marker clang's mangling gives a `static` kernel (`_ZN7cutlassL6Kernel...`).
  std::string symbol;
  std::string file;
  int line = 0;
  int column = 0; ///< of the kernel's name
  std::vector<KernelParam> params;
  std::string notAnalysed; ///< the compile error that kept its body out, when there was one
  bool library = false;    ///< defined in a system header (CUB, Thrust): estimated, never linted
  /// Found in the kernel's body and in the device functions it calls that the main file defines.
  std::vector<Fp64Promotion> promotions;
  std::vector<IndexExpression> indexes;
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

/// The compile command (compiler first) that BUILD_DIR/compile_commands.json holds for sourceFile, made
/// to run from anywhere: the source named as `sourceFile` and the include directories made absolute, the
/// entry's directory as clang's -working-directory.
/// Empty when the database has no entry of its own for the file; throws roofcheck::Error when the database
/// cannot be read.
std::vector<std::string> compileCommandFromDatabase(const std::string &buildDir, const std::string &sourceFile);

/// The CUDA sources (*.cu) that BUILD_DIR/compile_commands.json compiles, in the database's order.
std::vector<std::string> cudaSourcesInDatabase(const std::string &buildDir);

/// For each of `headers` (the key, as given), the CUDA sources of BUILD_DIR/compile_commands.json that
/// include it, directly or not, with their own commands' include directories (IncludeScanner.h), in the
/// database's order; none when the database has no CUDA source. The database and each source's include
/// tree are read once, however many headers are asked about. Files of those trees that cannot be read go
/// into `unreadable` ("PATH: REASON"): what they include is not known.
std::map<std::string, std::vector<std::string>> cudaSourcesIncluding(const std::string &buildDir,
                                                                     const std::vector<std::string> &headers,
                                                                     std::set<std::string> &unreadable);

/// The host compiler's own header folder (gcc's lib/gcc/TRIPLE/VERSION/include, where omp.h is), as
/// `compiler -print-file-name=include` names it; empty when the compiler is missing or names none, and
/// whyNone then says which.
std::vector<std::string> hostCompilerIncludeDirectories(const std::string &compiler, std::string &whyNone);

/// Compiles with the full clang command line (see deviceCommandLine). Throws roofcheck::Error with one line
/// when the device side cannot be compiled.
DeviceModule compileDevice(const std::vector<std::string> &commandLine, const std::string &sourceFile);

} // namespace roofcheck::lint
