#include "ForkedChild.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace roofcheck::runtime;

namespace {
int exitStatusOf(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}
} // namespace

// In a child of the test process, which stands for the measured program: watchForForks lasts for the
// process, and the other tests' children must not count as forked ones.
TEST(ForkedChild, OnlyAChildOfTheWatchingProcessKnowsItIsOne) {
  pid_t program = ::fork();
  ASSERT_GE(program, 0);
  if (program == 0) {
    watchForForks();
    if (inForkedChild())
      ::_exit(20);
    pid_t child = ::fork();
    if (child == 0)
      ::_exit(inForkedChild() ? 10 : 11);
    ::_exit(exitStatusOf(child));
  }
  EXPECT_EQ(exitStatusOf(program), 10);
  EXPECT_FALSE(inForkedChild());
}
