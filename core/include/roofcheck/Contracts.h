// The four versioned documents that connect roofcheck's stages (DESIGN.md, "Data flow"):
//   roofcheck.static/1    lint    -> report, audit
//   roofcheck.measured/2  run     -> report, audit   (JSON Lines: a header, kernel records, a record a launch)
//   roofcheck.ceilings/1  probe   -> report, audit
//   roofcheck.report/1    report  -> users, CI
// Each has C++ types, a reader that rejects a wrong schema or a missing/ill-typed field with a message
// naming the field, and a writer. docs/schemas/ holds the JSON Schema of each; docs/contracts.md the prose.
#pragma once

#include "roofcheck/Expr.h"
#include "roofcheck/Json.h"
#include "roofcheck/Roofline.h"

#include <array>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace roofcheck {

inline constexpr const char *StaticSchema = "roofcheck.static/1";
inline constexpr const char *MeasuredSchema = "roofcheck.measured/2";
/// Still read: launch records that repeat their kernel's names (MeasuredRecords.h says what /2 changed).
inline constexpr const char *MeasuredSchemaFirst = "roofcheck.measured/1";
inline constexpr const char *CeilingsSchema = "roofcheck.ceilings/1";
inline constexpr const char *ReportSchema = "roofcheck.report/1";

/// Every quantity in a document: the symbolic expression, and its value when everything in it is bound.
struct Quantity {
  std::string expr;                ///< in the expression language; "" when unknown
  std::optional<double> value;     ///< null when unbound or unknown
  /// Where expr holds: "" for every launch; else a test of the launch's parameters (a pointer standing for
  /// whether it is given), 0 where something the estimator cannot count comes in (an index read from a table
  /// the launch passes), and the quantity is unknown at those launches. The kernel's unknowns say what.
  std::string knownWhen;

  static Quantity of(const Expr &e, const Bindings &bindings = {}, const std::optional<Expr> &knownWhen = {});
  static Quantity unknown() { return {}; }
  bool known() const { return !expr.empty(); }
  /// Evaluates expr with bindings (the stored value is ignored). nullopt when expr is unknown, needs a
  /// symbol that is not bound, comes out negative (no count is), or knownWhen is 0 at these bindings.
  std::optional<double> evaluate(const Bindings &bindings) const;
  /// The same, and when there is no value although expr is known, *why says so: the symbols the bindings
  /// lack, a division by zero, an overflow, or a negative count; empty where knownWhen is 0 (the quantity is
  /// unknown there, for the reasons the kernel's unknowns give, not unevaluated).
  std::optional<double> evaluate(const Bindings &bindings, std::string *why) const;
};

using Dim3 = std::array<int64_t, 3>;
std::string dimText(const Dim3 &d); ///< "(128,1,1)"

// ----------------------------------------------------------------------------------- static/1

/// A scalar member of a parameter passed by value (a struct's field, a lambda's capture), named as the
/// kernel reads it: `shape.rows`. Its bytes are those of the argument at `offset`.
struct ParamField {
  std::string name;
  std::string type;   ///< without typedefs: "unsigned int"
  int64_t offset = 0; ///< bytes from the start of the parameter
  int64_t size = 0;   ///< bytes
};

struct KernelParam {
  int index = 0;
  std::string name;
  std::string type;
  int64_t size = 0; ///< bytes
  /// The members the kernel's formulas name (optional in the document: absent means none).
  std::vector<ParamField> fields;
};

/// A division the kernel does by multiplying high and shifting, `(umulhi(n, multiplier) + n) >> shift` (ggml's
/// fastdiv, PyTorch's IntDivider): the formulas write it `n / divisor`, which holds where the two divide by
/// the divisor for every 32-bit n, (2^32 + multiplier) * divisor - 2^(32 + shift) in [0, 2^shift].
struct MagicDivision {
  std::string multiplier, shift, divisor; ///< symbols
  std::string file;
  int line = 0;
  int column = 0;
};

/// Whether multiplier and shift divide every 32-bit dividend by divisor (the condition above).
bool dividesBy(int64_t multiplier, int64_t shift, int64_t divisor);

/// The symbols of each of `divisions` whose three symbols `bindings` binds to values that do not divide as the
/// formulas assume: a formula that names one has no value at these bindings, the others keep theirs (ggml passes
/// an unused divider as zeros). *first, when given, gets the first such division said in one phrase ("m.mul = 7
/// and m.shift = 2 do not divide by m.div = 3"). Empty when every bound division holds.
std::set<std::string> failedDivisionSymbols(const std::vector<MagicDivision> &divisions, const Bindings &bindings,
                                            std::string *first = nullptr);

struct FlopCounts {
  Quantity total, fp64, fp32, fp16, bf16, tensor, special;
  /// `special` by operation (expf, fdiv.f32, sqrt.f64, ...): what each costs in Nsight Compute's FLOPs depends
  /// on how the compiler expands it. Empty where `special` is unknown or zero.
  std::map<std::string, Quantity> specialByOperation;
  /// `tensor` by the MMAs' A/B input type, named as MeasuredFlops.h names the measured ones ("fp16", "bf16",
  /// "tf32", "fp64", "fp8", "int8"): the ceiling of that type is the kernel's roof. MMAs whose type the
  /// estimator cannot tell are in `tensor` only. Optional in the document: absent where `tensor` is unknown or
  /// zero, and in files written before it.
  std::map<std::string, Quantity> tensorByType;
};

struct ByteCounts {
  Quantity read, write, ideal, predicted;
};

struct IntensityPair {
  Quantity ideal, predicted;
};

struct GlobalAccess {
  std::string pointer; ///< parameter name of the base pointer
  std::string file;
  int line = 0;
  int column = 0;
  std::string kind; ///< "load", "store" or "atomic"
  std::optional<int64_t> strideBytes;       ///< between consecutive threadIdx.x; null if unknown
  std::optional<double> sectorsPerRequest;  ///< 32-byte sectors per warp request; null if unknown
  std::optional<bool> coalesced;
};

/// Why a quantity is unknown: the source makes it depend on values in memory (a loop whose trip count is
/// loaded, a branch on loaded values, an index read from memory), or the analyser cannot follow what the
/// source says.
enum class UnknownCause { Analysis, DataDependentLoop, DataDependentBranch, IndirectAccess };

struct Unknown {
  std::string reason; ///< "data-dependent loop", "indirect index", ...
  std::string file;
  int line = 0;
  int column = 0;
  UnknownCause cause = UnknownCause::Analysis;
  /// "FILE:LINE:COLUMN" of the code itself where it was inlined into the kernel from another place than
  /// file:line (a library header's function); empty where it is there.
  std::string origin;
  /// The launches it concerns: "" all of them; else a test of the parameters (Quantity::knownWhen's terms)
  /// where it comes in, the other side of the test being counted.
  std::string when;
};

/// "analysis", "data-dependent-loop", "data-dependent-branch", "indirect-access" (the `cause` of
/// roofcheck.static/1).
std::string unknownCauseName(UnknownCause cause);

/// The unknown's reason, where its code is when that is not where it is named, and the launches it concerns
/// when not all: "REASON (inlined from FILE:LINE:COLUMN), only where WHEN".
std::string describeUnknown(const Unknown &unknown);

/// A claim comment found next to the kernel (parsed and checked by Claims.h).
struct ClaimSource {
  std::string text; ///< what follows the claim marker
  std::string file;
  int line = 0;
  int column = 0; ///< of the first character of text
};

struct StaticKernel {
  std::string name;    ///< unqualified; template arguments may follow '<'
  std::string mangled;
  std::string file;
  int line = 0;
  std::vector<KernelParam> params;
  FlopCounts flops;
  ByteCounts bytes;
  IntensityPair intensity;
  std::vector<GlobalAccess> accesses;
  std::vector<Unknown> unknowns;
  std::vector<ClaimSource> claims; ///< optional in the document: absent means none
  std::vector<MagicDivision> divisions; ///< optional in the document: absent means none
  /// Defined in a system header (CUB, Thrust, the toolkit's own): estimated so that its launches join, and
  /// never the subject of a lint finding. Optional in the document: absent means false.
  bool library = false;
};

/// Every quantity of a kernel: its FLOPs (by source type and special operation too), bytes and intensities.
std::vector<Quantity *> quantitiesOf(StaticKernel &kernel);
std::vector<const Quantity *> quantitiesOf(const StaticKernel &kernel);
/// The free symbols of a kernel's known formulas: the parameters, members and launch sizes a launch binds.
std::set<std::string> namedSymbols(const StaticKernel &kernel);

struct StaticDocument {
  std::string generator;  ///< "roofcheck-lint <version>"
  std::string arch;       ///< e.g. "sm_90"
  std::vector<StaticKernel> kernels;
};

Json toJson(const StaticDocument &doc);
StaticDocument staticFromJson(const Json &json, const std::string &source);
StaticDocument loadStaticFile(const std::string &path);
void saveStaticFile(const std::string &path, const StaticDocument &doc);

// --------------------------------------------------------------------------------- measured/2 (and /1)

struct ClockSample {
  std::optional<double> smMHz;
  std::optional<double> memoryMHz;
};

struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string uuid;
  std::string computeCapability; ///< "9.0"
  int multiprocessors = 0;
  int64_t l2Bytes = 0;
  int64_t memoryBytes = 0;
};

/// A device UUID's 16 bytes as nvidia-smi writes them ("GPU-5f2a0c1e-..."), the form DeviceInfo::uuid holds.
std::string deviceUuidText(const char (&bytes)[16]);

struct MeasuredHeader {
  int64_t pid = 0;
  std::optional<int64_t> rank;
  std::vector<std::string> program; ///< argv
  std::string started;              ///< ISO 8601, UTC
  std::string roofcheckVersion;
  std::string driverVersion;
  std::string cudaVersion;
  std::optional<int64_t> cuptiVersion;
  std::vector<DeviceInfo> devices;
  ClockSample clocks;
  std::optional<int64_t> replayPasses;
  Json options = Json::object(); ///< the options the shim ran with, as given
};

struct KernelArgument {
  int index = 0;
  int64_t offset = 0;
  int64_t size = 0;
  std::string hex;              ///< raw bytes, little-endian order as in memory
  std::optional<int64_t> value; ///< the bytes read as a signed integer, for sizes 1, 2, 4 and 8
  bool operator==(const KernelArgument &) const = default;
};

struct Launch {
  int64_t index = 0;          ///< 0-based, in launch order within the process
  std::string name;           ///< demangled
  std::string mangled;
  int device = 0;
  uint64_t context = 0;
  uint64_t stream = 0;
  Dim3 grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  int64_t sharedDynamic = 0, sharedStatic = 0;
  int registers = 0;
  std::vector<KernelArgument> args;
  std::vector<std::string> nvtx;     ///< NVTX ranges open at the launch, outermost first
  std::optional<int64_t> durationNs;
  bool profiled = false;
  /// Profiled launches: the passes its counter set took (1: counted without kernel replay); null when the
  /// file does not say (before it was recorded per launch, the header's replay_passes applied to all).
  std::optional<int64_t> replayPasses;
  std::map<std::string, double> metrics; ///< Nsight Compute metric name -> value
  /// What PM sampling counted during this launch's kernel (every launch, no replay): Nsight Compute metric
  /// name -> the launch's share of the samples its span overlaps; empty where it was not sampled.
  std::map<std::string, double> sampled;
  /// A sample this launch overlapped also overlapped another launch: its share is split by overlap and
  /// each launch's rate, an estimate rather than a count.
  bool sampledShared = false;
  bool operator==(const Launch &) const = default;
};

struct MeasuredFile {
  MeasuredHeader header;
  std::vector<Launch> launches;
  std::vector<std::string> warnings; ///< e.g. a truncated last line, skipped
};

Json toJson(const MeasuredHeader &header); ///< launches: MeasuredRecordWriter
/// measured/1 repeats the kernel's names in every launch record; measured/2 names it once, in a kernel record.
enum class MeasuredVersion { PerLaunchNames, KernelRecords };
/// Reads a measured file one batch of records at a time, so that a run of millions of launches needs memory
/// for a few batches, not for the file: the header when it opens, then each launch in file order. Batches
/// are parsed on worker threads while the caller takes the launches of the one before.
class MeasuredReader {
public:
  /// Opens the file and reads its header; throws Error for a file without one.
  explicit MeasuredReader(const std::string &path);
  const MeasuredHeader &header() const { return header_; }
  /// Every launch record, in order. Throws Error naming the line of a malformed record (a truncated last
  /// line, a crash mid-write, is a warning instead), or whatever `take` throws.
  void forEachLaunch(const std::function<void(const Launch &)> &take);
  /// After forEachLaunch: the truncated last record, the run's own summary warnings.
  const std::vector<std::string> &warnings() const { return warnings_; }

private:
  std::string path_;
  std::ifstream in_;
  MeasuredVersion version_ = MeasuredVersion::KernelRecords;
  int64_t lineNumber_ = 0;
  MeasuredHeader header_;
  std::vector<std::string> warnings_;
};

/// Reads JSON Lines: the header on the first line, then launch records. A truncated last line
/// (a crash mid-write) is skipped with a warning; any other malformed line is an error naming it.
MeasuredFile loadMeasuredFile(const std::string &path);
/// The same, from text already read; `source` names it in messages.
MeasuredFile parseMeasuredLines(std::string_view text, const std::string &source);

// --------------------------------------------------------------------------------- ceilings/1

/// How a ceiling was measured: every ceiling carries it (DESIGN.md, "Ceilings carry provenance").
struct Provenance {
  std::string kernel;          ///< what ran: "copy_kernel<float4>", "cublasLtMatmul bf16", ...
  Json parameters = Json::object(); ///< grid, block, size, unroll, ... as measured
  int repetitions = 0;
  double median = 0, min = 0, max = 0; ///< of the rate, in the ceiling's unit per second
  ClockSample clocksBefore, clocksDuring, clocksAfter;
};

struct MemoryCeiling {
  std::string level;   ///< "dram", "l2", "shared"
  std::string variant; ///< "copy", "read", "write"
  double bytesPerSecond = 0; ///< the median
  Provenance provenance;
};

struct ComputeCeiling {
  std::string bucket; ///< fp64, fp32, fp16, bf16, tensor
  std::string dtype;  ///< fp64, fp32, fp16, bf16, tf32, fp8
  std::string path;   ///< instruction path: "FFMA", "HFMA2", "DMMA via cuBLASLt", ...
  double flopsPerSecond = 0; ///< the median
  Provenance provenance;
};

struct CeilingsDocument {
  std::string roofcheckVersion;
  std::string measuredAt; ///< ISO 8601, UTC
  DeviceInfo device;
  std::string driverVersion;
  std::string cudaVersion;
  std::vector<MemoryCeiling> memory;
  std::vector<ComputeCeiling> compute;
  Json environment = Json::object(); ///< temperature, power, throttle reasons, spec values (labelled)

  /// The fastest memory ceiling of a level (any variant), or nullptr.
  const MemoryCeiling *bestMemory(const std::string &level) const;
  /// The fastest compute ceiling for a bucket and, when given, a dtype; or nullptr.
  const ComputeCeiling *bestCompute(const std::string &bucket, const std::string &dtype = "") const;
  /// The roofline a kernel of this FLOP bucket (and dtype, where given: the tensor source type its counters
  /// measured) sits under: the fastest such compute ceiling ("fp32", "tensor bf16") over the fastest DRAM
  /// bandwidth; nullopt where the document lacks either.
  std::optional<Roofline> roofline(FlopBucket bucket, const std::string &dtype = "") const;
};

Json toJson(const CeilingsDocument &doc);
CeilingsDocument ceilingsFromJson(const Json &json, const std::string &source);
CeilingsDocument loadCeilingsFile(const std::string &path);
void saveCeilingsFile(const std::string &path, const CeilingsDocument &doc);

// ----------------------------------------------------------------------------------- report/1

struct Explanation {
  std::string kind;    ///< stable id: "traffic-above-predicted", "served-from-l2", ...
  std::string severity; ///< "note", "warning", "error"
  std::string message;
  std::vector<std::string> evidence; ///< "transpose.cu:14 store out stride 32768 B", ...
};

/// Static counts of a kernel evaluated for the launches it stands for (summed over them): expr is the
/// static expression with the launch's bindings substituted where one signature covers them all.
struct PredictedCounts {
  Quantity flops, special, bytesRead, bytesWrite, bytesIdeal, bytesPredicted;
  Quantity intensityIdeal, intensityPredicted; ///< flops over ideal / predicted bytes
};

/// Counter totals over the profiled launches of a kernel (or signature, or rank).
struct MeasuredCounts {
  int64_t profiledLaunches = 0;
  double timeNs = 0;                          ///< duration of those launches
  std::optional<double> flops;                ///< Nsight Compute definition (measuredFlops)
  std::optional<double> dramReadBytes, dramWriteBytes;
  std::optional<double> l2Bytes;              ///< lts__t_bytes.sum
  /// The DRAM and L2 bytes are the mean over this many profiled launches, scaled to profiledLaunches: the ones
  /// counted in one pass where there are any (trafficReplayPasses null), else the replayed ones (their passes).
  int64_t trafficLaunches = 0;
  std::optional<int64_t> trafficReplayPasses;
};

/// What PM sampling counted over every launch of a kernel that has sampled bytes (`roofcheck run`
/// --sampled-traffic; profiled launches have none): sums over those launches, not means.
struct SampledCounts {
  int64_t launches = 0;
  double timeNs = 0;
  double dramReadBytes = 0, dramWriteBytes = 0;
  std::optional<double> idealBytes; ///< the static ideal bytes of the same launches, where every one is known
  bool operator==(const SampledCounts &) const = default;
};

/// Where a group of launches sits on the roofline: a kernel, one of its launch signatures and its launches
/// in one process carry the same fields, written under the same names; what a group cannot say is null.
struct ReportDot {
  std::optional<double> predictedIntensityIdeal, predictedIntensityPredicted, measuredIntensity;
  std::optional<double> flopsPerSecond, bytesPerSecond;
  std::optional<double> fractionOfRoof; ///< of the roof at the measured intensity
  std::optional<double> trafficRatio;   ///< measured DRAM bytes / ideal bytes
};

/// The launches of one kernel that share grid, block and scalar arguments.
struct ReportSignature : ReportDot {
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  std::vector<std::pair<std::string, std::string>> args; ///< parameter name -> value as printed
  int64_t launches = 0;
  double timeNs = 0;
  double timeShare = 0;
  std::optional<double> predictedFlops, predictedBytesIdeal, measuredDramBytes;
};

/// The launches of one kernel in one process of the job.
struct ReportRank : ReportDot {
  std::string label;               ///< "rank 3", or "pid 4242" when the process had no rank
  std::optional<int64_t> rank;
  int64_t pid = 0;
  int64_t launches = 0;
  double timeNs = 0;
};

/// A ceiling the report drew, with the ridge point where the DRAM roof meets it (compute ceilings).
struct ReportCeiling {
  std::string kind;   ///< "memory" or "compute"
  std::string name;   ///< memory level ("dram", "l2") or FLOP bucket ("fp32", "tensor")
  std::string dtype;  ///< compute: fp64, fp32, ...; memory: the variant ("copy", "read")
  double value = 0;   ///< bytes/s or FLOP/s, the measured median
  std::optional<double> ridge; ///< FLOP/byte
};

struct ReportKernel : ReportDot {
  std::string name;      ///< demangled, in full
  std::string mangled;
  std::string shortName; ///< base name, widened only to tell kernels apart (KernelNames.h); "" in old files
  int64_t launches = 0;
  double timeNs = 0;
  double timeShare = 0; ///< of the total GPU time in the measured files, 0..1
  std::optional<double> roof;           ///< attainable FLOP/s at the measured intensity
  std::optional<std::string> boundPredicted, boundMeasured;
  std::vector<Explanation> explanations;
  // Added after the first version of report/1; all optional in the document.
  std::string file;                     ///< static location of the kernel; "" without a static entry
  int line = 0;
  std::optional<std::string> dtype;     ///< FLOP bucket whose ceiling gives the roof
  std::optional<PredictedCounts> predicted;
  std::optional<MeasuredCounts> measured;
  std::optional<SampledCounts> sampled;
  std::vector<ReportSignature> signatures;
  std::vector<ReportRank> ranks;
};

struct ReportDocument {
  std::string generator;
  std::vector<std::string> inputs;
  std::optional<DeviceInfo> device;
  std::vector<ReportKernel> kernels;
  std::vector<Explanation> problems; ///< document-level: device mismatch, clock state moved, ...
  // Added after the first version of report/1; all optional in the document.
  std::string mode = "measured";     ///< "measured", or "static" (static estimate only, no measurement)
  double totalTimeNs = 0;            ///< GPU time of every launch in the measured files
  std::vector<ReportCeiling> ceilings;
};

Json toJson(const ReportDocument &doc);
ReportDocument reportFromJson(const Json &json, const std::string &source);
ReportDocument loadReportFile(const std::string &path);
void saveReportFile(const std::string &path, const ReportDocument &doc);

} // namespace roofcheck
