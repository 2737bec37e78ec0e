#include "ForkedChild.h"
#include "SignalFlush.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace roofcheck::runtime;
using namespace std::chrono_literals;

namespace {

struct ChildResult {
  int status = 0;
  std::string output; ///< what the child wrote to its pipe
  double seconds = 0;
};

// Runs body in a child process (signal handlers are once per process), which reports through the pipe's
// write end; the child never dumps core.
ChildResult inChild(const std::function<void(int out)> &body) {
  int pipeEnds[2];
  if (::pipe(pipeEnds) != 0)
    return {};
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipeEnds[0]);
    struct rlimit noCore {0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    body(pipeEnds[1]);
    ::_exit(0);
  }
  ::close(pipeEnds[1]);
  ChildResult result;
  char buffer[256];
  ssize_t n;
  while ((n = ::read(pipeEnds[0], buffer, sizeof buffer)) > 0)
    result.output.append(buffer, static_cast<size_t>(n));
  ::close(pipeEnds[0]);
  ::waitpid(pid, &result.status, 0);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void say(int out, const std::string &text) {
  ssize_t ignored = ::write(out, text.data(), text.size());
  (void)ignored;
}

} // namespace

class SignalFlushEnds : public ::testing::TestWithParam<int> {};

TEST_P(SignalFlushEnds, FlushesThenEndsWithTheSameSignal) {
  int signal = GetParam();
  ChildResult r = inChild([signal](int out) {
    std::signal(signal, SIG_DFL); // as a program leaves it (a sanitizer build of this test catches SIGSEGV)
    flushOnSignals([out](int s) { say(out, "flushed " + std::to_string(s)); }, 2000ms, flushedSignals());
    if (signal == SIGABRT)
      std::abort();
    ::raise(signal);
    std::this_thread::sleep_for(5s);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status)) << "status " << r.status;
  EXPECT_EQ(WTERMSIG(r.status), signal);
  EXPECT_EQ(r.output, "flushed " + std::to_string(signal));
  EXPECT_LT(r.seconds, 2.0);
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalFlushEnds,
                         ::testing::Values(SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGSEGV, SIGABRT));

TEST(SignalFlush, TheProgramsOwnHandlersAndIgnoredSignalsStayAsTheyAre) {
  ChildResult r = inChild([](int out) {
    std::signal(SIGTERM, SIG_IGN);
    std::signal(SIGHUP, [](int) {});
    std::vector<int> caught = flushOnSignals([out](int) { say(out, "flushed"); }, 2000ms, {SIGTERM, SIGHUP, SIGINT});
    say(out, "caught " + std::to_string(caught.size()) + " " + std::to_string(caught.at(0) == SIGINT) + ";");
    ::raise(SIGTERM); // still ignored
    ::raise(SIGHUP);  // still the program's
    ::_exit(3);
  });
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(WEXITSTATUS(r.status), 3);
  EXPECT_EQ(r.output, "caught 1 1;");
}

TEST(SignalFlush, AFlushThatNeverEndsDelaysTheSignalOnlyByThePatience) {
  ChildResult r = inChild([](int out) {
    flushOnSignals([out](int) {
      say(out, "stuck");
      std::this_thread::sleep_for(60s);
    }, 200ms, flushedSignals());
    ::raise(SIGTERM);
    std::this_thread::sleep_for(5s);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status));
  EXPECT_EQ(WTERMSIG(r.status), SIGTERM);
  EXPECT_EQ(r.output, "stuck");
  EXPECT_GE(r.seconds, 0.2);
  EXPECT_LT(r.seconds, 2.0);
}

TEST(SignalFlush, AFailedFlushSaysSoAndTheSignalStillEndsTheProgram) {
  ChildResult r = inChild([](int out) {
    ::dup2(out, STDERR_FILENO);
    flushOnSignals([](int) { throw std::runtime_error("No space left on device"); }, 2000ms, flushedSignals());
    ::raise(SIGTERM);
    std::this_thread::sleep_for(5s);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status)) << "status " << r.status;
  EXPECT_EQ(WTERMSIG(r.status), SIGTERM);
  EXPECT_EQ(r.output, "roofcheck: warning: writing the measurements on signal 15 failed: No space left on device; the "
                      "measured file may end early\n");
}

// Once the program's own exit has written everything (the shim calls flushNoLongerNeeded), a crash on
// another thread during the rest of that exit ends the process at once, as it would without the shim: a
// wait there would let the exiting thread finish first and turn the crash into the exit status.
TEST(SignalFlush, AfterTheFinalFlushASignalEndsTheProgramWithoutFlushing) {
  ChildResult r = inChild([](int out) {
    std::signal(SIGSEGV, SIG_DFL);
    flushOnSignals([out](int) { say(out, "flushed"); }, 2000ms, flushedSignals());
    flushNoLongerNeeded();
    ::raise(SIGSEGV);
    std::this_thread::sleep_for(5s);
  });
  ASSERT_TRUE(WIFSIGNALED(r.status)) << "status " << r.status;
  EXPECT_EQ(WTERMSIG(r.status), SIGSEGV);
  EXPECT_EQ(r.output, "");
}

// A child that the program forks inherits the handlers but not the parent's threads or file: it flushes
// nothing and ends at once.
TEST(SignalFlush, AForkedChildFlushesNothing) {
  ChildResult r = inChild([](int out) {
    watchForForks();
    flushOnSignals([out](int) { say(out, "flushed;"); }, 2000ms, flushedSignals());
    pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::raise(SIGTERM);
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(grandchild, &status, 0);
    say(out, "grandchild signal=" + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0) + ";");
  });
  ASSERT_TRUE(WIFEXITED(r.status));
  EXPECT_EQ(r.output, "grandchild signal=" + std::to_string(SIGTERM) + ";");
}
