#include "TrafficLedger.h"

#include <gtest/gtest.h>

using namespace roofcheck::runtime;

namespace {
std::vector<PmSample> samples(uint64_t from, uint64_t to, uint64_t step, double bytes) {
  std::vector<PmSample> out;
  for (uint64_t t = from; t < to; t += step)
    out.push_back({t, t + step, {{"dram", bytes}}});
  return out;
}
} // namespace

TEST(TrafficLedger, ASpanWaitsUntilEverySampleItCanOverlapHasEndedByTheHorizon) {
  TrafficLedger ledger;
  ledger.addSamples(0, samples(0, 5000, 1000, 10));
  ledger.addSpan(7, 0, {1500, 3500});
  EXPECT_EQ(ledger.sampledUntil(0), 5000u);
  // Its last sample is 3000-4000: not settled before 4000.
  EXPECT_TRUE(ledger.settle(0, 3999).empty());
  std::vector<TrafficLedger::Settled> settled = ledger.settle(0, 4000);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].id, 7u);
  EXPECT_DOUBLE_EQ(settled[0].traffic.values.at("dram"), 30); // three samples, each its own
  EXPECT_EQ(ledger.waitingSpans(), 0u);
  EXPECT_EQ(ledger.heldSamples(), 1u); // the one ending after 4000 (the ready horizon) stays
  EXPECT_TRUE(ledger.settle(1, 1000000).empty()); // another device has nothing
}

TEST(TrafficLedger, ALongFirstSampleDoesNotHoldBackTheSpansAfterIt) {
  TrafficLedger ledger;
  // The first sample of a run can span the time before sampling started.
  ledger.addSamples(0, {{0, 1000000, {{"dram", 0}}}});
  ledger.addSamples(0, samples(1000000, 1003000, 1000, 10));
  ledger.addSpan(1, 0, {1000500, 1001500});
  EXPECT_TRUE(ledger.settle(0, 1001999).empty());
  std::vector<TrafficLedger::Settled> settled = ledger.settle(0, 1002000);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_DOUBLE_EQ(settled[0].traffic.values.at("dram"), 20);
}

TEST(TrafficLedger, AWaitingSpanKeepsItsSamplesAndSharesWithAReadyOne) {
  TrafficLedger ledger;
  ledger.addSamples(0, samples(0, 4000, 1000, 100));
  ledger.addSpan(1, 0, {0, 1500});    // ready at horizon 3000
  ledger.addSpan(2, 0, {1500, 4000}); // not yet
  std::vector<TrafficLedger::Settled> first = ledger.settle(0, 3000);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].id, 1u);
  // Sample 1000-2000 is split half and half with the waiting span.
  EXPECT_DOUBLE_EQ(first[0].traffic.values.at("dram"), 150);
  EXPECT_TRUE(first[0].traffic.shared);
  ledger.addSamples(0, samples(4000, 6000, 1000, 100));
  std::vector<TrafficLedger::Settled> second = ledger.settle(0, 6000);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].id, 2u);
  EXPECT_DOUBLE_EQ(second[0].traffic.values.at("dram"), 50 + 100 + 100);
  EXPECT_TRUE(second[0].traffic.shared);
}

TEST(TrafficLedger, SamplesThatServeNoOneAreDropped) {
  TrafficLedger ledger;
  for (uint64_t second = 0; second < 100; ++second) {
    ledger.addSamples(0, samples(second * 10000, (second + 1) * 10000, 1000, 1));
    ledger.addSpan(second, 0, {second * 10000 + 100, second * 10000 + 900});
    ledger.settle(0, (second + 1) * 10000);
  }
  EXPECT_EQ(ledger.waitingSpans(), 0u);
  EXPECT_LE(ledger.heldSamples(), 2u);
  // The GPU idle, no kernel at all: samples still come, and still go.
  ledger.addSamples(0, samples(1000000, 2000000, 1000, 0));
  ledger.settle(0, 2000000);
  EXPECT_LE(ledger.heldSamples(), 2u);
}

TEST(TrafficLedger, ASpanWithoutItsSamplesGetsNoValues) {
  TrafficLedger ledger;
  // Sampling paused between 1000 and 3000 (a replayed launch): the span from 500 to 2500 is a quarter covered.
  std::vector<PmSample> some = samples(0, 1000, 1000, 10);
  std::vector<PmSample> later = samples(3000, 4000, 1000, 10);
  some.insert(some.end(), later.begin(), later.end());
  ledger.addSamples(0, std::move(some));
  ledger.addSpan(1, 0, {500, 2500});
  ledger.addSpan(2, 0, {3000, 4000});
  ledger.addSpan(3, 0, {3500, 3500}); // no length: nothing to say
  std::vector<TrafficLedger::Settled> settled = ledger.settleAll();
  ASSERT_EQ(settled.size(), 3u);
  EXPECT_TRUE(settled[0].traffic.values.empty());
  EXPECT_DOUBLE_EQ(settled[1].traffic.values.at("dram"), 10);
  EXPECT_TRUE(settled[2].traffic.values.empty());
  EXPECT_EQ(ledger.heldSamples(), 0u);
}

TEST(TrafficLedger, SamplesDecodedOutOfOrderAreSorted) {
  TrafficLedger ledger;
  ledger.addSamples(0, samples(2000, 3000, 1000, 5));
  ledger.addSamples(0, samples(0, 2000, 1000, 7));
  ledger.addSpan(1, 0, {0, 3000});
  std::vector<TrafficLedger::Settled> settled = ledger.settleAll();
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_DOUBLE_EQ(settled[0].traffic.values.at("dram"), 19);
  EXPECT_EQ(ledger.sampledUntil(0), 3000u);
}
