// The environment roofcheck-run gives the program: the shim through CUDA_INJECTION64_PATH, the options
// in ROOFCHECK_OPTIONS, and CUPTI as the NVTX injection so NVTX ranges reach the shim.
#pragma once

#include "RunOptions.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

struct ChildEnvironment {
  std::vector<std::string> variables; ///< KEY=VALUE, as for execve
  bool injected = false;              ///< false when another injection owns CUDA_INJECTION64_PATH
  std::optional<std::string> warning; ///< one line, when the program will run unmeasured
};

/// parent: the launcher's environment (KEY=VALUE). injectLibrary: libroofcheck-inject.so. cuptiLibrary:
/// the libcupti the shim uses ("" = leave NVTX alone).
ChildEnvironment buildChildEnvironment(const std::vector<std::string> &parent, const RunOptions &options,
                                       const std::string &injectLibrary, const std::string &cuptiLibrary);

/// Adds folder at the end of LD_LIBRARY_PATH (set when absent): the program's own folders keep their
/// precedence.
void appendLibraryFolder(std::vector<std::string> &variables, const std::string &folder);

} // namespace roofcheck::runtime
