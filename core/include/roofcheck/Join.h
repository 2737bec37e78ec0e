// The join that the report and the audit share: each measured launch bound to its kernel's static entry by
// mangled name, grouped by kernel, by launch signature (grid, block and scalar arguments) and by process, with
// the static counts evaluated at each signature's bindings and the counters summed the way both tools read
// them: counters that only some profiled launches carry (roofcheck run alternates counter sets) as their mean
// over those, DRAM bytes counted in one pass before replayed ones, fp16 register moves left out of the FLOPs.
// What the counters of a group say about its traffic (write-back, L2 residency) is decided here too, so that
// the report's explanations and the audit's verdicts read the same numbers the same way.
#pragma once

#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredFlops.h"

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofcheck::join {

// ------------------------------------------------------------------------------ static counts

/// The static counts evaluated for a launch, by index, and its tensor FLOPs by source type.
enum Field { Flops, Special, Read, Write, Ideal, Predicted, FP64, FP32, FP16, BF16, Tensor, FieldCount };
struct Values : std::array<std::optional<double>, FieldCount> {
  std::map<std::string, std::optional<double>> tensorByType; ///< flops.tensor_by_type
};

/// The field's name in roofcheck.static/1 ("flops.total", "bytes.ideal", ...).
const char *fieldName(Field field);
const Quantity &fieldOf(const StaticKernel &kernel, Field field);

/// The static counts at these bindings; *why (when given) gets, for the first known count without a value,
/// its name and the reason.
Values evaluate(const StaticKernel &kernel, const Bindings &bindings, std::string *why = nullptr);

// --------------------------------------------------------------------------------- tallies

/// A sum that knows whether every term was known.
struct Sum {
  double value = 0;
  bool complete = true;
  bool any = false;
  void add(const std::optional<double> &v);
  std::optional<double> get() const { return complete && any ? std::optional<double>(value) : std::nullopt; }
};

/// A measured quantity that only some profiled launches carry (the ones whose counter set had it): its mean
/// over those, scaled to every profiled launch of the group; the plain sum where every one carries it.
struct Sampled {
  double sum = 0;
  int64_t count = 0;
  void add(const std::optional<double> &v);
  std::optional<double> over(int64_t launches) const;
};

/// DRAM or L2 bytes, kept apart by how they were counted: in one pass on the program's own launch, or under
/// kernel replay, whose save and restore of device memory leave dirty lines that the counted pass writes
/// back. One-pass counts win wherever the group has any.
struct Traffic {
  Sampled onePass, replayed;
  const Sampled &best() const { return onePass.count > 0 ? onePass : replayed; }
};

/// ptxas materialises constants and moves registers with HFMA2.MMA, which the hfma counter counts as fp16
/// FMAs (matmul_tiled on the H200: 1.6 GFLOP of "fp16" beside 51.5 GFLOP of fp32, 3%; the expf kernels
/// 16%). Measured fp16 FLOPs are taken for such moves when the static fp16 and bf16 counts are exactly 0
/// and they are at most this share of the measured fp32 + fp64 FLOPs; more than that is arithmetic the
/// static count missed.
inline constexpr double Fp16MoveShare = 0.25;

/// The measured fp16 FLOPs of one launch that are register moves: all of them under the condition above,
/// else 0.
double fp16MoveFlops(const std::optional<double> &staticFp16, const std::optional<double> &staticBf16,
                     const MeasuredFlops &measured);

/// Totals over a group of launches (a kernel, a signature or a process).
struct Tally {
  int64_t launches = 0;
  double timeNs = 0;
  std::array<Sum, FieldCount> predictedAll, predictedProfiled;
  std::map<std::string, Sum> predictedTensorByType; ///< over every launch, as predictedAll
  int64_t profiled = 0;
  int64_t profiledTimed = 0; ///< the profiled launches with a duration: profiledTimeNs is theirs
  double profiledTimeNs = 0;
  Sampled flops, fp64, fp32, fp16, tensor, fp16Moves, local;
  /// Profiled launches whose tensor math went uncounted (MeasuredFlops::tensorUncounted): no FLOPs from them.
  int64_t tensorUncounted = 0;
  std::map<std::string, double> tensorByType; ///< counted tensor FLOPs per source type, over the profiled launches
  Traffic dramRead, dramWrite, l2;
  std::set<std::string> uncountedPrecisions; ///< lacking their FLOP counters on a profiled launch that had others
  std::optional<int64_t> mostReplayPasses;   ///< over the profiled launches counted under kernel replay
  std::optional<double> largestProfiledIdeal, largestProfiledWrite;
  /// Launches with PM-sampled DRAM bytes (every launch of a run with --sampled-traffic but the profiled
  /// ones): their count, time and bytes summed, and their static ideal bytes (sampled.idealBytes is this).
  SampledCounts sampled;
  Sum sampledIdeal;

  /// predicted: the static counts at the launch's bindings (null: no static entry); passes: of the counter
  /// set that measured the launch (1: no replay), where known.
  void add(const Launch &l, std::optional<double> durationNs, const Values *predicted,
           std::optional<int64_t> passes = std::nullopt);

  std::optional<double> total(const Sampled &s) const { return s.over(profiled); }
  std::optional<double> total(const Traffic &t) const { return t.best().over(profiled); }
  /// The replay passes behind the DRAM bytes total(); nullopt where they were counted in one pass.
  std::optional<int64_t> dramReplayPasses() const;
  std::optional<double> dram() const;
  std::optional<double> measuredIntensity() const;
  /// amount over the profiled launches' time; where some lack a duration, the timed ones' mean stands for
  /// them (never a time of 0, which would raise the rate).
  std::optional<double> perSecond(const std::optional<double> &amount) const;
  std::optional<double> ratioOf(Field numerator, Field denominator) const;
  /// Measured DRAM bytes over the ideal bytes of the same launches.
  std::optional<double> trafficRatio() const;
  /// The FLOP bucket whose roof the group sits under: the static counts' dominant bucket, else (no static
  /// count above 0 is known) the measured precisions'.
  std::optional<FlopBucket> roofBucket() const;
  /// The dtype of roofBucket()'s ceiling: a tensor kernel's source type with the most counted FLOPs ("bf16",
  /// "tf32", ...), else (no type counted) with the most predicted FLOPs; "" where neither tells (the bucket's
  /// fastest ceiling).
  std::string roofDtype() const;
};

// ---------------------------------------------------------------------------------- the join

/// The launches of one kernel that share grid, block and scalar arguments.
struct Signature {
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  std::vector<std::pair<std::string, std::string>> args; ///< parameter name -> value as printed
  Bindings bindings;                                     ///< launch dimensions and the scalar arguments
  Values values;                                         ///< the static counts at those bindings
  Tally tally;
};

/// "rank 3", or "pid 4242" where the process had no rank.
std::string processLabel(const MeasuredHeader &header);

/// The launches of one kernel in one process.
struct ProcessTally {
  std::string label; ///< "rank 3", or "pid 4242" where the process had no rank
  std::optional<int64_t> rank;
  int64_t pid = 0;
  Tally tally;
};

struct JoinedKernel {
  std::string name;       ///< the static file's where there is one, else as the launches name it
  std::string mangled;
  std::string launchName; ///< as the launches name it (demangled)
  const StaticKernel *kernel = nullptr; ///< null: no static entry
  const DeviceInfo *device = nullptr;   ///< the device of its first launch, from the file's header
  Tally tally;
  std::vector<Signature> signatures;    ///< in the order of their first launch
  std::vector<ProcessTally> processes;
  /// What ran before the first profiled launch, and before the first one counted in one pass (whose DRAM
  /// bytes count where there is one): the L2 state they found.
  std::optional<std::string> earlierLaunch, earlierOnePassLaunch;
};

class LaunchJoin {
public:
  /// The static documents whose kernels the launches join; the first entry of a mangled name is used (a
  /// later one that differs is a warning). The documents must outlive the join.
  explicit LaunchJoin(const std::vector<std::pair<std::string, const StaticDocument *>> &statics);

  /// Streams one measured file's launches in (MeasuredReader): a run of millions of launches needs memory
  /// for its kernels and signatures, not for its launches. Throws Error for a malformed file or argument.
  void addMeasuredFile(const std::string &path);
  /// The same for a file already read; `path` names it in messages.
  void add(const MeasuredFile &file, const std::string &path);

  /// Throws when static files were given and no measured kernel matches one by mangled name: the files come
  /// from different versions of the source, and every launch would go without a predicted dot.
  void requireCommonKernels() const;

  /// In the order of their first launch.
  const std::deque<JoinedKernel> &kernels() const { return kernels_; }
  const JoinedKernel *find(const std::string &mangled) const;
  /// Headers of the measured files, in the order added.
  const std::deque<MeasuredHeader> &headers() const { return headers_; }

  /// Every launch's GPU time.
  double totalTimeNs() const { return totalTimeNs_; }
  /// Launches with no duration of any kind, but those of countedWithoutDuration.
  int64_t launchesWithoutDuration() const { return withoutDuration_; }
  /// Profiled launches whose counter set had no duration metric (the one-pass FLOP counters of a kernel that
  /// prints, a metric list without it): no duration of any kind, by the run's design.
  int64_t launchesCountedWithoutDuration() const { return countedWithoutDuration_; }
  /// One line per signature whose static counts have no value at its bindings.
  const std::vector<std::string> &notEvaluated() const { return notEvaluated_; }
  /// Printed on stderr; the join is usable.
  const std::vector<std::string> &warnings() const { return warnings_; }

private:
  struct KernelIndex {
    std::map<std::string, size_t> signatures; ///< by grid, block and raw argument bytes
    std::map<std::string, size_t> processes;  ///< by label
    /// Pointer parameters the formulas name (`if (bias)`), by index: bound to whether they are given.
    std::set<int> testedPointers;
  };
  /// Keeps the header and starts a file: its process label.
  std::string startFile(const MeasuredHeader &header, const std::string &path);
  void take(const Launch &l, const MeasuredHeader &header, const std::string &path, const std::string &label);
  Signature newSignature(const JoinedKernel &k, const KernelIndex &index, const Launch &l, const std::string &path);

  std::map<std::string, const StaticKernel *> statics_;
  std::deque<JoinedKernel> kernels_;
  std::map<std::string, size_t> byKey_; ///< mangled name (the plain name without one) -> kernels_ index
  std::deque<KernelIndex> indexes_;
  std::deque<MeasuredHeader> headers_;
  std::set<std::string> labels_;
  const JoinedKernel *previous_ = nullptr; ///< the kernel of the launch before, in the current file
  int64_t previousIndex_ = 0;
  double totalTimeNs_ = 0;
  int64_t withoutDuration_ = 0, countedWithoutDuration_ = 0;
  std::vector<std::string> notEvaluated_, warnings_;
};

// -------------------------------------------------------------------------- reading the counters

/// What is known about one group of launches (a kernel, or one of its signatures) over its profiled
/// launches, so that predicted and measured totals cover the same launches.
struct KernelFacts {
  const StaticKernel *kernel = nullptr; ///< null: no static entry
  std::optional<double> idealBytes, predictedBytes, idealRead, idealWrite;
  std::optional<double> staticFlops, staticSpecial;
  std::optional<double> dramRead, dramWrite, l2Bytes;
  std::optional<double> measuredFlops;
  std::optional<double> measuredFp64, measuredFp32, measuredFp16, measuredTensor;
  int64_t tensorUncountedLaunches = 0; ///< profiled launches whose tensor math went uncounted
  std::optional<double> staticFp64, staticFp32, staticFp16, staticBf16, staticTensor;
  /// Measured fp16 FLOPs that are register moves, not arithmetic (fp16MoveFlops): left out of
  /// measuredFlops and measuredFp16.
  std::optional<double> fp16Moves;
  std::optional<double> localBytes;       ///< local-memory (spill) traffic, when its metrics were recorded
  std::optional<double> workingSetBytes;  ///< ideal bytes of the largest single profiled launch
  std::optional<double> writtenBytes;     ///< ideal write bytes of the largest single profiled launch
  int64_t profiledLaunches = 0;
  std::optional<int64_t> l2SizeBytes;     ///< of the device the launches ran on (or its model's, probed)
  std::string deviceName;
  std::string earlierLaunch;              ///< before the first profiled launch whose DRAM bytes count, same process
  std::optional<int64_t> replayPasses;    ///< kernel-replay passes behind its DRAM bytes; null: counted in one pass
  std::optional<double> bandwidthCeiling; ///< DRAM bytes/s used for the roof
  bool measured = false;                  ///< at least one profiled launch
};

/// The facts of a kernel's launches (or of one signature's, `tally`); `ceilings` (may be null) lends the
/// L2 size of its device model where the measured file did not record it, and the DRAM roof.
KernelFacts factsOf(const JoinedKernel &kernel, const Tally &tally, const CeilingsDocument *ceilings);

/// Tolerances: measurement noise and the partial write-back seen on the H200 (~7% of a large output
/// still in L2 at kernel end) must not read as a finding.
inline constexpr double TrafficTolerance = 0.10;

/// The largest single launch's ideal bytes fit in the L2 of the device it ran on.
bool workingSetFits(const KernelFacts &f);

/// DRAM writes beyond the ideal write bytes of a kernel whose output fits in L2. The write-back L2 still
/// holds dirty lines of earlier launches when this one starts; this launch's traffic evicts them, and DRAM
/// counts their write-back during this launch (the matmuls on the H200: a 16.8 MB output, twice its bytes
/// written). Nullopt when the excess is within tolerance, the output does not fit, the excess is more than L2
/// could have held, or local-memory traffic shows spills.
std::optional<double> dirtyLineWriteBack(const KernelFacts &f);

/// The DRAM bytes the launches themselves cause, read from the counters the way the report explains them:
/// earlier launches' dirty lines written back during these are taken out of the writes; writes short of the
/// kernel's write bytes by no more than an L2's worth a launch were still held in the write-back L2 when it
/// ended (DRAM sees them later: on the H200 about 27 MB of a 240 MB output), and reads short by no more than
/// that were served from lines an earlier launch left in L2, so the kernel's own (static) write and read
/// bytes stand for them. A shortfall within `tolerance` of the ideal bytes is noise and stays as counted.
struct CausedTraffic {
  std::optional<double> read, write;
  std::optional<double> dirtyWriteBack; ///< earlier launches' dirty lines, taken out of the writes
  bool writesHeldInL2 = false;          ///< the writes are the kernel's write bytes, not the counted ones
  bool readsServedFromL2 = false;       ///< the reads are the kernel's read bytes, not the counted ones
};
CausedTraffic causedTraffic(const KernelFacts &f, double tolerance);

} // namespace roofcheck::join
