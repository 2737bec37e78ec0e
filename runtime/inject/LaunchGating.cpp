#include "LaunchGating.h"

#include <string>

namespace roofcheck::runtime {

namespace {

// How many launch calls this thread is inside of (entry seen, exit not yet).
thread_local int launchDepth = 0;

// How this thread holds the gate between a launch's entry and exit callbacks.
enum class GateHold { None, Shared, Exclusive };
thread_local GateHold gateHold = GateHold::None;

} // namespace

bool LaunchGating::enter() { return launchDepth++ == 0; }

bool LaunchGating::leave() {
  if (launchDepth == 0)
    return false; // its entry came before the shim was listening
  return --launchDepth == 0; // else a launch inside another one: its entry was passed over too
}

void LaunchGating::hold(bool exclusive) {
  if (exclusive) {
    if (gate_.enterExclusive())
      gateHold = GateHold::Exclusive;
    else
      diagnostics_.warn("gate-exclusive", "some launches have no counters: the program's other launches did not "
                                          "leave a profiled launch alone within " +
                                              std::to_string(gateWaitSeconds) + " s");
  } else if (gate_.enterShared()) {
    gateHold = GateHold::Shared;
  } else {
    ++unheldLaunches_;
    diagnostics_.warn("gate-shared", "a launch went on after waiting " + std::to_string(gateWaitSeconds) +
                                         " s for a profiled launch on another thread: that profiled launch's "
                                         "counters are dropped");
  }
}

bool LaunchGating::heldAlone() const { return gateHold == GateHold::Exclusive; }

void LaunchGating::release() {
  if (gateHold == GateHold::Shared)
    gate_.leaveShared();
  else if (gateHold == GateHold::Exclusive)
    gate_.leaveExclusive();
  gateHold = GateHold::None;
}

} // namespace roofcheck::runtime
