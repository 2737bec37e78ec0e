#include "PhaseTimes.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace roofcheck::lint {

namespace {
constexpr const char *GroupName = "roofcheck-lint";
constexpr const char *GroupDescription = "roofcheck-lint time report";
} // namespace

bool reportsTimes(const std::vector<std::string> &commandLine) {
  return std::any_of(commandLine.begin(), commandLine.end(), [](const std::string &arg) {
    return arg == "-ftime-report" || llvm::StringRef(arg).starts_with("-ftime-report=");
  });
}

PhaseTimer::PhaseTimer(llvm::StringRef name, llvm::StringRef description, bool enabled)
    : timer_(name, description, GroupName, GroupDescription, enabled) {}

PhaseReport::~PhaseReport() {
  if (enabled_)
    llvm::NamedRegionTimer::getNamedTimerGroup(GroupName, GroupDescription).print(llvm::errs(), true);
}

} // namespace roofcheck::lint
