#include "ForkedChild.h"

#include <atomic>
#include <mutex>

#include <pthread.h>

namespace roofcheck::runtime {

namespace {
std::atomic<bool> forkedChild{false};
void markChild() { forkedChild.store(true); }
} // namespace

void watchForForks() {
  static std::once_flag registered;
  std::call_once(registered, [] { ::pthread_atfork(nullptr, nullptr, markChild); });
}

bool inForkedChild() { return forkedChild.load(std::memory_order_relaxed); }

} // namespace roofcheck::runtime
