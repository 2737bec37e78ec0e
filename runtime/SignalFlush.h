// Writing out what the shim holds when a signal ends the program: the crashes (SIGABRT, SIGSEGV, SIGBUS,
// SIGFPE, SIGILL) and the requests to end (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE). Only signals the
// program left at their default are caught, and each still ends the program as it would have, with the
// same signal: the shim only delays it, by at most a bounded time.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

namespace roofcheck::runtime {

/// The signals flushOnSignals is meant for, crashes first.
std::vector<int> flushedSignals();

/// Catches each of `signals` whose disposition is still the default (a handler or SIG_IGN of the program's
/// stays as it is). When one arrives, `flush(signal)` runs once, on a thread of its own rather than in the
/// signal handler, so it may lock and allocate; the handler waits for it at most `patience`, then restores
/// the default and raises the signal again. In a forked child (ForkedChild.h) nothing is flushed. Returns
/// the signals caught. Once per process. Throws roofcheck::Error when the flushing thread cannot be set up.
std::vector<int> flushOnSignals(std::function<void(int)> flush, std::chrono::milliseconds patience,
                                const std::vector<int> &signals);

/// Says that nothing is left to flush (the program's exit has written everything): a signal caught after
/// this is raised again at once, without waking the flushing thread.
void flushNoLongerNeeded();

/// Blocks the asynchronous ones among flushedSignals() on the calling thread, so that a signal sent to the
/// process is handled on one of the program's threads, never on a helper thread of the shim's.
void blockFlushedSignalsOnThisThread();

} // namespace roofcheck::runtime
