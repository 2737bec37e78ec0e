// Turns a compile command written for nvcc (or clang) into the arguments of exactly one clang device-side
// compilation of a CUDA file: nvcc-only flags are translated or dropped (with their separate argument),
// GPU architectures collapse into one --cuda-gpu-arch, and the tool's own flags are added.
#pragma once

#include <string>
#include <vector>

namespace roofcheck::lint {

/// What the tool forces on every compilation, from its own options.
struct DeviceCompileOptions {
  std::string gpuArch;  ///< "sm_90"; empty: the first architecture the command names, else sm_90
  std::string cudaPath; ///< the CUDA installation
  std::string resourceDir; ///< clang's resource directory (builtin headers)
  /// Searched after every other folder (-idirafter): the host compiler's own headers, which nvcc's host
  /// compiler finds (omp.h without -fopenmp) and clang does not.
  std::vector<std::string> hostIncludeDirs;
};

/// The user's flags from a compile command, translated for clang. The command's first element is the
/// compiler (nvcc, clang++, ...); the source file, -c, -o and dependency-file flags are removed.
/// `firstArch` receives the first GPU architecture the command names ("sm_80"), if any.
/// --options-file/-optf files are read and expanded in place; an unreadable one, one with an unclosed quote,
/// one that names itself, and more than 8 levels or 64 files throw roofcheck::Error.
std::vector<std::string> translateCompileCommand(const std::vector<std::string> &command,
                                                 const std::string &sourceFile, std::string *firstArch);

/// The full clang command line for the device-side compilation of sourceFile:
/// clang++ -x cuda --cuda-device-only --cuda-gpu-arch=... <translated user flags> sourceFile.
std::vector<std::string> deviceCommandLine(const std::vector<std::string> &userFlags, const std::string &firstArch,
                                           const std::string &sourceFile, const DeviceCompileOptions &options);

/// Splits the text of an options file the way nvcc does: whitespace separates, quotes group. An unclosed
/// quote throws roofcheck::Error.
std::vector<std::string> splitOptionsText(const std::string &text);

} // namespace roofcheck::lint
