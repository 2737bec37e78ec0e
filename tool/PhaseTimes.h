// lint's own time report. Under clang's -ftime-report among the compile flags, clang prints where its
// front end spent the time (parse, IR generation); lint then times its own phases of the same file too and
// prints them after clang's, so that a slow file shows which side the time went to.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Timer.h"

#include <string>
#include <vector>

namespace roofcheck::lint {

/// Whether the compile command asks for clang's time report (-ftime-report, -ftime-report=per-pass).
bool reportsTimes(const std::vector<std::string> &commandLine);

/// Times one phase of lint's work on a file while it lives, when `enabled`; otherwise does nothing.
class PhaseTimer {
public:
  PhaseTimer(llvm::StringRef name, llvm::StringRef description, bool enabled);

private:
  llvm::NamedRegionTimer timer_;
};

/// Prints the phases timed since it was made to stderr when it goes, and starts them from zero again
/// (one report a file), when `enabled`.
class PhaseReport {
public:
  explicit PhaseReport(bool enabled) : enabled_(enabled) {}
  PhaseReport(const PhaseReport &) = delete;
  PhaseReport &operator=(const PhaseReport &) = delete;
  ~PhaseReport();
  bool enabled() const { return enabled_; }

private:
  bool enabled_;
};

} // namespace roofcheck::lint
