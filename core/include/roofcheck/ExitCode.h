// Exit codes and the top-level error handling shared by every roofcheck command (DESIGN.md, "Errors").
#pragma once

#include <functional>

namespace roofcheck {

enum ExitCode : int {
  ExitSuccess = 0,
  ExitFindings = 1, ///< found what it was asked to find: lint findings, a failed claim, a threshold
  ExitBadInput = 2, ///< bad input or an environment it cannot work in
};

/// Runs body; a roofcheck::Error (or any other exception) becomes one line
/// "<tool>: error: <message>" on stderr and ExitBadInput.
int runGuarded(const char *tool, const std::function<int()> &body);

} // namespace roofcheck
