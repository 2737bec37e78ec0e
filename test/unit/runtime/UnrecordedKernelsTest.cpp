#include "UnrecordedKernels.h"

#include <gtest/gtest.h>

using namespace roofcheck::runtime;

TEST(UnrecordedKernels, NothingIsKnownBeforeTheFirstRound) {
  UnrecordedKernels kernels;
  EXPECT_EQ(kernels.recordedBefore(), 0u);
}

TEST(UnrecordedKernels, LaunchesTakenInStartAfterThePreviousRoundsClockReading) {
  UnrecordedKernels kernels;
  // Round 1 reads the clock at 100 and finds two launches: they may have been made at any time before it.
  EXPECT_EQ(kernels.takeIn(100, 2), 0u);
  EXPECT_EQ(kernels.recordedBefore(), 0u);
  kernels.recorded(0);
  kernels.recorded(0);
  // Both recorded: every kernel not yet taken in was launched after 100.
  EXPECT_EQ(kernels.recordedBefore(), 100u);
  // Round 2 at 250 takes in three launches, made after 100.
  EXPECT_EQ(kernels.takeIn(250, 3), 100u);
  EXPECT_EQ(kernels.recordedBefore(), 100u);
  kernels.recorded(100);
  kernels.recorded(100);
  EXPECT_EQ(kernels.recordedBefore(), 100u); // one still waits for its record
  kernels.recorded(100);
  EXPECT_EQ(kernels.recordedBefore(), 250u);
}

TEST(UnrecordedKernels, TheOldestLaunchWithoutItsRecordHoldsTheBound) {
  UnrecordedKernels kernels;
  kernels.takeIn(100, 0);
  EXPECT_EQ(kernels.takeIn(200, 1), 100u); // its record is late
  EXPECT_EQ(kernels.takeIn(300, 4), 200u);
  for (int i = 0; i < 4; ++i)
    kernels.recorded(200);
  EXPECT_EQ(kernels.takeIn(400, 0), 300u);
  EXPECT_EQ(kernels.recordedBefore(), 100u);
  kernels.recorded(100);
  EXPECT_EQ(kernels.recordedBefore(), 400u);
}

TEST(UnrecordedKernels, ARecordForALaunchNotCountedChangesNothing) {
  UnrecordedKernels kernels;
  kernels.takeIn(100, 1);
  kernels.recorded(50); // not a bound any launch was given
  kernels.takeIn(200, 0);
  EXPECT_EQ(kernels.recordedBefore(), 0u);
  kernels.recorded(0);
  EXPECT_EQ(kernels.recordedBefore(), 200u);
}

TEST(UnrecordedKernels, AGraphLaunchMakesTheBoundUnknown) {
  UnrecordedKernels kernels;
  kernels.takeIn(100, 0);
  kernels.takeIn(200, 0);
  EXPECT_EQ(kernels.recordedBefore(), 200u);
  // A graph's kernels come as activity records alone, none taken in: when they have all come is not known.
  kernels.graphLaunched();
  kernels.takeIn(300, 0);
  EXPECT_EQ(kernels.recordedBefore(), 0u);
}
