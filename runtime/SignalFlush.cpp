#include "SignalFlush.h"

#include "ForkedChild.h"

#include "roofcheck/Error.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <ctime>
#include <thread>

#include <pthread.h>
#include <semaphore.h>

namespace roofcheck::runtime {

namespace {

constexpr int crashSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int endSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE};

// Shared by the handler and the flushing thread; set before any handler is installed, never destroyed (a
// signal may come while static destructors run).
std::function<void(int)> *flushAction = nullptr;
int64_t patienceNs = 0;
sem_t flushWanted;
std::atomic<int> flushSignal{0}; // the first signal caught
std::atomic<bool> flushDone{false};

int64_t monotonicNs() {
  timespec t;
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

void flushWhenAsked() {
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
  while (::sem_wait(&flushWanted) != 0)
    if (errno != EINTR)
      return;
  // The signal still ends the program as it would have; what the flush could not write is said here, once.
  int signal = flushSignal.load();
  try {
    (*flushAction)(signal);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "roofcheck: warning: writing the measurements on signal %d failed: %s; the measured file may end early\n",
                 signal, e.what());
  } catch (...) {
    std::fprintf(stderr, "roofcheck: warning: writing the measurements on signal %d failed; the measured file may end early\n",
                 signal);
  }
  flushDone.store(true);
}

// Only async-signal-safe calls here: the flushing itself happens on flushWhenAsked's thread.
void onSignal(int signal) {
  int savedErrno = errno;
  if (!inForkedChild() && !flushDone.load()) {
    int none = 0;
    if (flushSignal.compare_exchange_strong(none, signal))
      ::sem_post(&flushWanted);
    int64_t deadline = monotonicNs() + patienceNs;
    timespec pause{0, 1000000};
    while (!flushDone.load() && monotonicNs() < deadline)
      ::nanosleep(&pause, nullptr);
  }
  struct sigaction byDefault {};
  byDefault.sa_handler = SIG_DFL;
  sigemptyset(&byDefault.sa_mask);
  ::sigaction(signal, &byDefault, nullptr);
  // Blocked while this handler runs, so it takes effect as the handler returns (a fault also recurs then).
  ::raise(signal);
  errno = savedErrno;
}

} // namespace

std::vector<int> flushedSignals() {
  std::vector<int> signals(std::begin(crashSignals), std::end(crashSignals));
  signals.insert(signals.end(), std::begin(endSignals), std::end(endSignals));
  return signals;
}

std::vector<int> flushOnSignals(std::function<void(int)> flush, std::chrono::milliseconds patience,
                                const std::vector<int> &signals) {
  static std::atomic<bool> installed{false};
  if (installed.exchange(true))
    return {};
  flushAction = new std::function<void(int)>(std::move(flush));
  patienceNs = static_cast<int64_t>(patience.count()) * 1000000;
  if (::sem_init(&flushWanted, 0, 0) != 0)
    throw Error(std::string("sem_init failed (") + std::strerror(errno) + "): no signal flushes the measured file");
  std::thread(flushWhenAsked).detach();
  sigset_t handled;
  sigemptyset(&handled);
  for (int s : signals)
    sigaddset(&handled, s);
  std::vector<int> caught;
  for (int s : signals) {
    struct sigaction current {};
    if (::sigaction(s, nullptr, &current) != 0 || current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO))
      continue; // the program's own handler, or SIG_IGN, stays in charge
    struct sigaction handler {};
    handler.sa_handler = onSignal;
    handler.sa_mask = handled; // a second one waits until the first has been dealt with
    if (::sigaction(s, &handler, nullptr) == 0)
      caught.push_back(s);
  }
  return caught;
}

void flushNoLongerNeeded() { flushDone.store(true); }

void blockFlushedSignalsOnThisThread() {
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int s : endSignals)
    sigaddset(&blocked, s);
  ::pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
}

} // namespace roofcheck::runtime
