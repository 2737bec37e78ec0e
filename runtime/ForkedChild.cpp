#include "ForkedChild.h"

#include "roofcheck/Error.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include <pthread.h>

namespace roofcheck::runtime {

namespace {
std::atomic<bool> forkedChild{false};
void markChild() { forkedChild.store(true); }
} // namespace

void watchForForks() {
  static std::once_flag registered;
  static int failure = 0;
  std::call_once(registered, [] { failure = ::pthread_atfork(nullptr, nullptr, markChild); });
  if (failure != 0)
    throw Error(std::string("pthread_atfork failed (") + std::strerror(failure) +
                "): a child the program forks cannot tell it is one, and may write into the measured file");
}

bool inForkedChild() { return forkedChild.load(std::memory_order_relaxed); }

} // namespace roofcheck::runtime
