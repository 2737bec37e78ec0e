// Which launches are recorded and which get hardware counters (DESIGN.md: a real program launches the
// same kernel thousands of times). Timing is cheap and comes for every recorded launch; counters need
// kernel replay, so by default only the first few launches of each (kernel, grid, block) signature get them.
#pragma once

#include "RunOptions.h"

#include "roofcheck/Contracts.h"

#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <tuple>

namespace roofcheck::runtime {

/// The counters a profiled launch gets: every collected metric (kernel replay where they need more than one
/// pass), or only the traffic metrics (RunOptions::trafficSet), counted in one pass on the program's own launch.
/// With a traffic set, a signature's first sample counts every metric and its others the traffic set: the
/// instruction and tensor counts of a launch repeat, its DRAM bytes do not, and a replay costs a pass per
/// group of metrics. A traffic turn never goes to the launch right after a replayed one (the L2 still holds
/// the replay's dirty lines). Changing sets costs ~180 ms on the H200 (a fresh range profiler object and its
/// first start), so a traffic turn that would change the set from the full one is passed over until twice as
/// many launches as there are signatures (at most 64) have gone by without a new one: a training step's phases
/// (forward, backward, optimizer) each bring new kernels and repeat some, and a wait for a signature's next
/// launch alone changed sets 9 times on a PyTorch MLP's recorded launches where this changes them once (as
/// many launches as signatures: 3 times). A first sample never waits (a kernel may run once).
/// --samples 0 (every launch) alternates full and traffic per signature.
/// With a base set (the default metrics: every one but the tensor op totals, which take 7 of the full set's 8
/// passes on GH100), a signature's first sample counts the base set, and one whose tensor pipe did math
/// (needsTensorOps) gets the full set on its next turn; the others' tensor op totals are 0. A full turn waits
/// like a traffic turn where it would change the set, but for one launch of its signature at most (a 27-launch
/// PyTorch program's GEMM, launched 3 times, never had it), and traffic turns wait for owed full turns for one
/// window more, so that the sets change a few times, not at every owed one (4 times on the MLP's recorded
/// launches, 2 with no limit to the wait). --samples 1 keeps the full set: a signature's one sample counts
/// everything. A kernel that prints (device printf) gets one-pass sets only, its first sample too: kernel
/// replay runs a launch once per pass, and each pass would print again. Its samples take the traffic set and
/// the instruction set (the FLOP counters without the traffic metrics, one pass where the device has it) in
/// turn, so that its launches have both DRAM bytes and FLOPs; never the tensor op totals.
enum class CounterSet { Full, Base, Traffic, Instructions };

/// A signature: the kernel (mangled name, else name), grid and block.
using SignatureKey = std::tuple<std::string, Dim3, Dim3>;

struct LaunchDecision {
  bool record = false;  ///< write a launch record (with its duration)
  bool profile = false; ///< collect counters
  CounterSet counters = CounterSet::Full;
};

/// NCCL's kernels (collectives, point-to-point; signature: the mangled name, else the name): each waits on
/// its peers' kernels in other processes, so a kernel replay of one alone would wait for a peer that never
/// comes. They are timed and never profiled.
bool isCommunicationKernel(const std::string &signature);

class LaunchSelector {
public:
  /// canProfile false (metrics "time", or counters unavailable) never asks for counters.
  LaunchSelector(const RunOptions &options, bool canProfile);

  /// Decides for the next launch, in launch order. Thread-safe.
  LaunchDecision decide(const std::string &name, const std::string &mangled, const Dim3 &grid, const Dim3 &block);
  /// The same with the name filter's verdict known (matches() is the same for every launch of a kernel);
  /// signature names the kernel in the per-signature sample counts; printing: the kernel calls printf.
  LaunchDecision decideWithMatch(bool nameMatches, const std::string &signature, const Dim3 &grid, const Dim3 &block,
                                 bool printing);

  /// Whether --kernel selects a kernel of these names.
  bool matches(const std::string &name, const std::string &mangled) const;

  /// Stops asking for counters (e.g. profiling failed for good).
  void stopProfiling();
  /// The device has a traffic set, so the full set needs replay: alternate the two from here on.
  void useTrafficSet();
  /// The device has a base set too: first samples count it.
  void useBaseSet();
  /// The device has a one-pass instruction set too: printing kernels' samples alternate it with the traffic set.
  void useInstructionSet();
  /// A base sample of signature counted tensor math: its next turn counts the full set.
  void needsTensorOps(const SignatureKey &signature);

private:
  std::mutex mutex_;
  std::optional<std::regex> kernel_;
  int64_t skip_;
  std::optional<int64_t> count_;
  int64_t samples_;
  bool canProfile_;
  bool trafficSet_ = false;
  bool baseSet_ = false;
  bool instructionSet_ = false;
  bool lastReplayed_ = false; ///< the launch before this one got the full or base set under replay
  CounterSet lastProfiled_ = CounterSet::Full; ///< the set the range profiler holds
  int64_t firstSamples_ = 0;                   ///< signatures sampled so far
  int64_t matched_ = 0;
  /// Launches since the last signature's first sample: a traffic turn changes the set from the full one only
  /// once this reaches twice the number of signatures (at most maxQuietLaunches), so that a program's first
  /// pass, its kernels still appearing phase by phase, is over.
  int64_t launchesSinceFirstSample_ = 0;
  static constexpr int64_t maxQuietLaunches = 64;
  static constexpr int64_t maxFullWaits = 1;
  struct SignatureSamples {
    int64_t profiled = 0;
    bool owesFull = false; ///< its base sample counted tensor math; no full sample yet
    bool hadFull = false;
    int64_t fullWaits = 0; ///< launches its owed full sample has passed over
    int64_t traffic = 0, instructions = 0; ///< samples of the traffic and of the instruction set
  };
  std::map<SignatureKey, SignatureSamples> perSignature_;
  int64_t owedFull_ = 0; ///< signatures with owesFull

  /// The set a signature's next sample counts, nullopt when this launch goes without counters.
  std::optional<CounterSet> nextSample(SignatureSamples &samples, bool afterReplay, bool printing);
  /// nextSample for a kernel that prints: traffic and instruction samples in turn.
  std::optional<CounterSet> printingSample(SignatureSamples &samples, bool afterReplay);
};

} // namespace roofcheck::runtime
