#include "LaunchGate.h"

namespace roofcheck::runtime {

bool LaunchGate::enterShared() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!changed_.wait_for(lock, patience_, [this] { return !exclusive_ && exclusiveWaiting_ == 0; }))
    return false;
  ++shared_;
  return true;
}

void LaunchGate::leaveShared() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --shared_;
  }
  changed_.notify_all();
}

bool LaunchGate::enterExclusive() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++exclusiveWaiting_;
  bool entered = changed_.wait_for(lock, patience_, [this] { return !exclusive_ && shared_ == 0; });
  --exclusiveWaiting_;
  if (entered)
    exclusive_ = true;
  lock.unlock();
  if (!entered)
    changed_.notify_all(); // launches that waited behind this one go on
  return entered;
}

void LaunchGate::leaveExclusive() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exclusive_ = false;
  }
  changed_.notify_all();
}

} // namespace roofcheck::runtime
