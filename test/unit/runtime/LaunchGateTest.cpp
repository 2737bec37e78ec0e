#include "LaunchGate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace roofcheck::runtime;
using namespace std::chrono_literals;

namespace {
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

TEST(LaunchGate, SharedLaunchesPassTogetherAndKeepAProfiledOneOut) {
  LaunchGate gate(50ms);
  ASSERT_TRUE(gate.enterShared());
  ASSERT_TRUE(gate.enterShared());
  EXPECT_FALSE(gate.enterExclusive());
  gate.leaveShared();
  gate.leaveShared();
  EXPECT_TRUE(gate.enterExclusive());
  gate.leaveExclusive();
}

TEST(LaunchGate, AProfiledLaunchHoldsOthersOnlyForThePatience) {
  LaunchGate gate(100ms);
  ASSERT_TRUE(gate.enterExclusive());
  auto start = std::chrono::steady_clock::now();
  bool entered = true;
  std::thread([&] { entered = gate.enterShared(); }).join();
  EXPECT_FALSE(entered);
  EXPECT_GE(secondsSince(start), 0.09);
  EXPECT_LT(secondsSince(start), 1.0);
  gate.leaveExclusive();
}

// The thread holding the gate for a profiled launch is refused in bounded time, never left spinning or
// waiting for itself.
TEST(LaunchGate, TheProfilingThreadItselfIsRefusedInBoundedTime) {
  LaunchGate gate(50ms);
  ASSERT_TRUE(gate.enterExclusive());
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(gate.enterShared());
  EXPECT_FALSE(gate.enterExclusive());
  EXPECT_LT(secondsSince(start), 1.0);
  gate.leaveExclusive();
  EXPECT_TRUE(gate.enterShared());
  gate.leaveShared();
}

TEST(LaunchGate, OthersGoOnAsSoonAsTheProfiledLaunchLeaves) {
  LaunchGate gate(5000ms);
  ASSERT_TRUE(gate.enterExclusive());
  std::thread leave([&] {
    std::this_thread::sleep_for(20ms);
    gate.leaveExclusive();
  });
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(gate.enterShared());
  EXPECT_LT(secondsSince(start), 2.0);
  leave.join();
  gate.leaveShared();
}

// A waiting profiled launch keeps new launches out, so a busy program cannot starve it; when it gives up,
// the launches queued behind it go on at once.
TEST(LaunchGate, AWaitingProfiledLaunchGoesFirstAndReleasesThoseBehindItWhenItGivesUp) {
  LaunchGate gate(400ms);
  ASSERT_TRUE(gate.enterShared());
  std::atomic<bool> exclusiveResult{true};
  std::thread profiled([&] { exclusiveResult = gate.enterExclusive(); });
  std::this_thread::sleep_for(150ms);
  auto start = std::chrono::steady_clock::now();
  bool sharedEntered = gate.enterShared(); // waits behind the profiled launch until it gives up
  double waited = secondsSince(start);
  profiled.join();
  EXPECT_FALSE(exclusiveResult); // the first shared launch never left
  EXPECT_TRUE(sharedEntered);
  EXPECT_GE(waited, 0.15);
  EXPECT_LT(waited, 0.4);
  gate.leaveShared();
  gate.leaveShared();
}
