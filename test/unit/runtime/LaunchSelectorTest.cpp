#include "LaunchSelector.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofcheck;
using namespace roofcheck::runtime;

namespace {
const Dim3 g1{64, 1, 1}, g2{128, 1, 1}, b{256, 1, 1};
}

TEST(LaunchSelector, CountersForTheFirstThreeOfEachSignatureTimingForAll) {
  LaunchSelector s(RunOptions{}, true);
  for (int i = 0; i < 5; ++i) {
    LaunchDecision d = s.decide("k(int)", "_Z1ki", g1, b);
    EXPECT_TRUE(d.record);
    EXPECT_EQ(d.profile, i < 3) << i;
  }
  // Another grid is another signature, another kernel too.
  EXPECT_TRUE(s.decide("k(int)", "_Z1ki", g2, b).profile);
  EXPECT_TRUE(s.decide("j(int)", "_Z1ji", g1, b).profile);
}

// What a launch gets: "F" the full set, "B" the base set, "T" the traffic set, "I" the instruction set, "-"
// recorded without counters.
char setOf(const LaunchDecision &d) {
  if (!d.profile)
    return '-';
  switch (d.counters) {
  case CounterSet::Full:
    return 'F';
  case CounterSet::Base:
    return 'B';
  case CounterSet::Traffic:
    return 'T';
  case CounterSet::Instructions:
    return 'I';
  }
  return '?';
}

// What each launch gets, as setOf writes it. A base sample of a signature in tensorGrids counts tensor math,
// as the shim then says.
std::string sets(LaunchSelector &s, const std::vector<const Dim3 *> &grids,
                 const std::vector<const Dim3 *> &tensorGrids = {}) {
  std::string out;
  for (const Dim3 *grid : grids) {
    LaunchDecision d = s.decide("k", "k", *grid, b);
    EXPECT_TRUE(d.record);
    out += setOf(d);
    if (d.profile && d.counters == CounterSet::Base &&
        std::find(tensorGrids.begin(), tensorGrids.end(), grid) != tensorGrids.end())
      s.needsTensorOps({"k", *grid, b});
  }
  return out;
}

// n signatures of one kernel: grids 1..n.
std::vector<Dim3> kernelGrids(int64_t n) {
  std::vector<Dim3> grids;
  for (int64_t i = 1; i <= n; ++i)
    grids.push_back(Dim3{i, 1, 1});
  return grids;
}

// The sets of the profiled launches alone, in order.
std::string profiledOnly(std::string sets) {
  sets.erase(std::remove(sets.begin(), sets.end(), '-'), sets.end());
  return sets;
}

TEST(LaunchSelector, FirstSampleCountsEverythingTheOthersTheTrafficSet) {
  // A traffic launch right after a replayed one would count the replay's dirty lines: it waits a launch.
  LaunchSelector s(RunOptions{}, true);
  s.useTrafficSet();
  EXPECT_EQ(sets(s, {&g1, &g1, &g1, &g1, &g1}), "F-TT-");
  // Interleaved signatures: each starts with the full set; a traffic turn that would change the set waits
  // until twice as many launches as there are signatures have passed without a new one, and then the other
  // signature's turns find the traffic set in place.
  LaunchSelector mixed(RunOptions{}, true);
  mixed.useTrafficSet();
  EXPECT_EQ(sets(mixed, {&g1, &g2, &g1, &g2, &g1, &g2, &g1, &g2, &g1}), "FF---TTTT");

  RunOptions every;
  every.samplesPerSignature = 0;
  LaunchSelector all(every, true);
  all.useTrafficSet();
  EXPECT_EQ(sets(all, {&g1, &g1, &g1, &g1, &g1, &g1}), "F-TF-T");

  // Without a traffic set (metrics that fit one pass, or --traffic-set off) every sample counts everything.
  LaunchSelector full(RunOptions{}, true);
  EXPECT_EQ(sets(full, {&g1, &g1, &g1, &g1}), "FFF-");
}

TEST(LaunchSelector, SetsChangeOnceWhenSignaturesRepeatInSteps) {
  // A training loop: the same 12 kernels every step. Each change of set costs a fresh range profiler object.
  std::vector<Dim3> grids = kernelGrids(12);
  std::vector<const Dim3 *> steps;
  for (int step = 0; step < 6; ++step)
    for (const Dim3 &grid : grids)
      steps.push_back(&grid);
  LaunchSelector s(RunOptions{}, true);
  s.useTrafficSet();
  std::string got = sets(s, steps);
  EXPECT_EQ(profiledOnly(got), std::string(12, 'F') + std::string(24, 'T')) << got;
  // A kernel launched again within the first step, between kernels still appearing, waits for the step's end.
  std::vector<const Dim3 *> repeating;
  for (int step = 0; step < 6; ++step)
    for (size_t i = 1; i < 7; ++i) {
      repeating.push_back(&grids[0]);
      repeating.push_back(&grids[i]);
    }
  LaunchSelector inner(RunOptions{}, true);
  inner.useTrafficSet();
  got = sets(inner, repeating);
  EXPECT_EQ(profiledOnly(got), std::string(7, 'F') + std::string(14, 'T')) << got;
  // A kernel first launched once the traffic set is in place still gets every metric at once.
  EXPECT_EQ(sets(s, {&g2}), "F");
  // The others' traffic turns then wait for twice as many launches as there are signatures before the set
  // changes back.
  LaunchSelector late(RunOptions{}, true);
  late.useTrafficSet();
  EXPECT_EQ(sets(late, {&g1, &g1, &g1, &g2, &g1, &g2, &g2, &g2, &g1}), "F-TF---TT");
}

// How many times the range profiler's set changes over these sets (the first enable not counted).
int setChanges(const std::string &sets) {
  std::string profiled = profiledOnly(sets);
  int changes = 0;
  for (size_t i = 1; i < profiled.size(); ++i)
    changes += profiled[i] != profiled[i - 1];
  return changes;
}

TEST(LaunchSelector, PhasesOfAFirstStepChangeTheSetOnce) {
  // A training step as PyTorch runs it: phases (forward, backward, optimizer), each bringing new kernels and
  // launching some of them again before the next phase's come. Waiting only for a signature's next launch
  // changed sets at every phase.
  std::vector<Dim3> grids = kernelGrids(12);
  std::vector<const Dim3 *> launches;
  for (int step = 0; step < 4; ++step)
    for (size_t phase = 0; phase < 12; phase += 4)
      for (size_t i : {0, 1, 2, 3, 0, 1, 0, 1})
        launches.push_back(&grids[phase + i]);
  LaunchSelector s(RunOptions{}, true);
  s.useTrafficSet();
  std::string got = sets(s, launches);
  EXPECT_EQ(setChanges(got), 1) << got;
  EXPECT_EQ(profiledOnly(got), std::string(12, 'F') + std::string(24, 'T')) << got;
}

// The default metrics with a base set: a first sample counts everything but the tensor op totals; a signature
// whose tensor pipe did math gets them (the full set) on its next turn, the others never replay them.
void withBaseSet(LaunchSelector &s) {
  s.useTrafficSet();
  s.useBaseSet();
}

TEST(LaunchSelector, BaseSetFirstAndTheFullSetOnlyWhereTheTensorPipeDidMath) {
  LaunchSelector plain(RunOptions{}, true);
  withBaseSet(plain);
  EXPECT_EQ(sets(plain, {&g1, &g1, &g1, &g1, &g1}), "B-TT-");
  // The full turn waits until twice as many launches as there are signatures have passed without a new one,
  // as a traffic turn does where it would change the set; the traffic turn waits a launch after it.
  LaunchSelector tensor(RunOptions{}, true);
  withBaseSet(tensor);
  EXPECT_EQ(sets(tensor, {&g1, &g1, &g1, &g1, &g1}, {&g1}), "B-F-T");
  // ...but for one launch of its signature at most, where new signatures keep coming (a short program).
  std::vector<Dim3> fresh = kernelGrids(3);
  LaunchSelector young(RunOptions{}, true);
  withBaseSet(young);
  EXPECT_EQ(sets(young, {&g1, &fresh[0], &g1, &fresh[1], &g1, &fresh[2]}, {&g1}), "BB-BFB");
  // A signature that has had its full sample is not owed another.
  tensor.needsTensorOps({"k", g1, b});
  EXPECT_EQ(sets(tensor, {&g1}), "-");
  // One sample a signature: it counts everything.
  RunOptions one;
  one.samplesPerSignature = 1;
  LaunchSelector single(one, true);
  withBaseSet(single);
  EXPECT_EQ(sets(single, {&g1, &g1, &g2}, {&g1, &g2}), "F-F");
  // Every launch: the owed full sample at once, then base and traffic in turn.
  RunOptions every;
  every.samplesPerSignature = 0;
  LaunchSelector all(every, true);
  withBaseSet(all);
  EXPECT_EQ(sets(all, {&g1, &g1, &g1, &g1, &g1}, {&g1}), "BFB-T");
}

TEST(LaunchSelector, OwedFullSamplesComeBeforeTrafficTurns) {
  // 12 kernels a step, 3 of them on the tensor pipe: base samples in the first step, then the three full
  // samples, then traffic: the set changes twice.
  std::vector<Dim3> grids = kernelGrids(12);
  std::vector<const Dim3 *> steps, tensorGrids{&grids[2], &grids[5], &grids[9]};
  for (int step = 0; step < 8; ++step)
    for (const Dim3 &grid : grids)
      steps.push_back(&grid);
  LaunchSelector s(RunOptions{}, true);
  withBaseSet(s);
  std::string got = sets(s, steps, tensorGrids);
  EXPECT_EQ(profiledOnly(got), std::string(12, 'B') + "FFF" + std::string(21, 'T')) << got;
  EXPECT_EQ(setChanges(got), 2) << got;
  // An owed full sample whose kernel never comes again holds the traffic turns back for one window only.
  std::vector<const Dim3 *> once{&grids[0]};
  for (int step = 0; step < 8; ++step)
    for (size_t i = 1; i < 4; ++i)
      once.push_back(&grids[i]);
  LaunchSelector gone(RunOptions{}, true);
  withBaseSet(gone);
  got = sets(gone, once, {&grids[0]});
  EXPECT_EQ(profiledOnly(got), "BBBB" + std::string(6, 'T')) << got;
}

void withOnePassSets(LaunchSelector &s) {
  withBaseSet(s);
  s.useInstructionSet();
}

// n launches of a kernel that prints (device printf), as sets() writes them.
std::string printingSets(LaunchSelector &s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += setOf(s.decideWithMatch(true, "printing", g2, b, true));
  return out;
}

TEST(LaunchSelector, APrintingKernelGetsOnePassSamplesOnly) {
  // Kernel replay runs a launch once per pass and each pass would print again: a printing kernel's samples,
  // its first one too, take the one-pass sets, traffic and instructions in turn, while another kernel's first
  // sample counts the base set. Where the two are even the traffic set goes first, but right after a replayed
  // launch (a traffic sample would count the replay's dirty lines).
  LaunchSelector s(RunOptions{}, true);
  withOnePassSets(s);
  EXPECT_EQ(sets(s, {&g1}), "B");
  EXPECT_EQ(printingSets(s, 4), "ITT-");
  LaunchSelector first(RunOptions{}, true);
  withOnePassSets(first);
  EXPECT_EQ(printingSets(first, 4), "TIT-");
  RunOptions every;
  every.samplesPerSignature = 0;
  LaunchSelector all(every, true);
  withOnePassSets(all);
  EXPECT_EQ(printingSets(all, 5), "TITIT");
  // After a replayed launch the set that is behind goes first; on a tie after a launch not replayed, traffic.
  EXPECT_EQ(sets(all, {&g1}), "B");
  EXPECT_EQ(printingSets(all, 3), "ITI");
  EXPECT_EQ(sets(all, {&g1}), "T");
  EXPECT_EQ(printingSets(all, 1), "T");
  RunOptions one;
  one.samplesPerSignature = 1;
  LaunchSelector single(one, true);
  single.useTrafficSet();
  single.useInstructionSet();
  EXPECT_EQ(printingSets(single, 2), "T-");
  // A device without an instruction set (the FLOP counters need more than one pass): traffic samples only.
  LaunchSelector trafficOnly(RunOptions{}, true);
  trafficOnly.useTrafficSet();
  trafficOnly.useBaseSet();
  EXPECT_EQ(sets(trafficOnly, {&g1}), "B");
  EXPECT_EQ(printingSets(trafficOnly, 4), "TTT-");
  // Without a traffic set the full set is asked for; where it needs replay the launch is refused as it
  // begins (CounterSessions), where it is one pass it prints once.
  LaunchSelector noTraffic(RunOptions{}, true);
  EXPECT_EQ(printingSets(noTraffic, 4), "FFF-");
}

TEST(LaunchSelector, SamplesZeroProfilesEveryLaunch) {
  RunOptions o;
  o.samplesPerSignature = 0;
  LaunchSelector s(o, true);
  for (int i = 0; i < 10; ++i)
    EXPECT_TRUE(s.decide("k", "k", g1, b).profile);
}

TEST(LaunchSelector, TimeModeAndUnavailableCountersNeverProfile) {
  RunOptions o;
  o.metricsMode = MetricsMode::Time;
  LaunchSelector time(o, true);
  EXPECT_TRUE(time.decide("k", "k", g1, b).record);
  EXPECT_FALSE(time.decide("k", "k", g2, b).profile);
  LaunchSelector unavailable(RunOptions{}, false);
  EXPECT_FALSE(unavailable.decide("k", "k", g1, b).profile);
  LaunchSelector stopped(RunOptions{}, true);
  EXPECT_TRUE(stopped.decide("k", "k", g1, b).profile);
  stopped.stopProfiling();
  EXPECT_FALSE(stopped.decide("k", "k", g1, b).profile);
}

TEST(LaunchSelector, RegexSearchesDemangledAndMangledNames) {
  RunOptions o;
  o.kernelRegex = "^matmul_";
  LaunchSelector s(o, true);
  EXPECT_TRUE(s.decide("matmul_tiled(float const*, int)", "_Z12matmul_tiledPKfi", g1, b).record);
  EXPECT_FALSE(s.decide("vector_add(float*)", "_Z10vector_addPf", g1, b).record);
  RunOptions mangled;
  mangled.kernelRegex = "_Z10vector";
  LaunchSelector m(mangled, true);
  EXPECT_TRUE(m.decide("vector_add(float*)", "_Z10vector_addPf", g1, b).record);
}

TEST(LaunchSelector, SkipAndCountApplyToMatchingLaunchesInOrder) {
  RunOptions o;
  o.kernelRegex = "want";
  o.launchSkip = 2;
  o.launchCount = 3;
  LaunchSelector s(o, true);
  std::vector<bool> recorded;
  for (int i = 0; i < 8; ++i) {
    EXPECT_FALSE(s.decide("other", "other", g1, b).record); // never counted
    recorded.push_back(s.decide("want", "want", g1, b).record);
  }
  EXPECT_EQ(recorded, (std::vector<bool>{false, false, true, true, true, false, false, false}));
}

TEST(LaunchSelector, ProfiledCountStartsAfterTheSkippedLaunches) {
  RunOptions o;
  o.launchSkip = 1;
  o.samplesPerSignature = 1;
  LaunchSelector s(o, true);
  EXPECT_FALSE(s.decide("k", "k", g1, b).record);
  EXPECT_TRUE(s.decide("k", "k", g1, b).profile);
  EXPECT_FALSE(s.decide("k", "k", g1, b).profile);
}

TEST(LaunchSelector, NcclKernelsAreTimedNeverProfiled) {
  LaunchSelector s(RunOptions{}, true);
  const std::string allReduce = "_Z40ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";
  LaunchDecision d = s.decide("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                              allReduce, g1, b);
  EXPECT_TRUE(d.record);
  EXPECT_FALSE(d.profile);
  EXPECT_FALSE(s.decide("ncclKernel_SendRecv", "", g1, b).profile); // unmangled: the name is the signature
  EXPECT_TRUE(isCommunicationKernel("ncclDevKernel_Generic"));
  // A user's kernel that only mentions NCCL is profiled.
  EXPECT_FALSE(isCommunicationKernel("_Z12after_ncclv"));
  EXPECT_TRUE(s.decide("after_nccl()", "_Z10after_ncclv", g1, b).profile);
}
