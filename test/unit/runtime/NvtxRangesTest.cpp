#include "NvtxRanges.h"
#include "ProfilingWatch.h"

#include <gtest/gtest.h>

#include <thread>

using namespace roofcheck::runtime;
using Ranges = std::vector<std::string>;

TEST(NvtxRanges, PushedRangesAreTheThreadsOwnStartedOnesEveryones) {
  NvtxRanges nvtx;
  nvtx.push("step");
  nvtx.start(7, "epoch"); // started after "step": inner
  nvtx.push("forward");
  EXPECT_EQ(nvtx.open(), (Ranges{"step", "epoch", "forward"}));
  std::thread other([&] {
    EXPECT_EQ(nvtx.open(), (Ranges{"epoch"})) << "another thread sees the started range only";
    nvtx.end(7); // ended from any thread
  });
  other.join();
  EXPECT_EQ(nvtx.open(), (Ranges{"step", "forward"}));
  nvtx.start(0, "no id"); // cannot be ended: never open
  nvtx.end(99);           // never started
  nvtx.pop();
  nvtx.pop();
  nvtx.pop(); // one more pop than pushes
  EXPECT_TRUE(nvtx.open().empty());
}

TEST(ProfilingWatch, WarnsOnceWhenAStepLastsTooLong) {
  ProfilingWatch watch;
  EXPECT_FALSE(watch.overdue(std::chrono::seconds(0))) << "nothing watched";
  watch.start("gemm", "starting");
  EXPECT_FALSE(watch.overdue(std::chrono::hours(1)));
  watch.step("inside the launch");
  std::optional<std::string> message = watch.overdue(std::chrono::seconds(0));
  ASSERT_TRUE(message);
  EXPECT_EQ(message->rfind("a profiled launch of gemm has been inside the launch for 0 s", 0), 0u) << *message;
  EXPECT_FALSE(watch.overdue(std::chrono::seconds(0))) << "once per launch";
  auto [seconds, kernel] = watch.end();
  EXPECT_GE(seconds, 0);
  EXPECT_EQ(kernel, "gemm");
  EXPECT_FALSE(watch.overdue(std::chrono::seconds(0))) << "ended";
}
