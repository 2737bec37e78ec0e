// Claims: what an author states about a kernel, next to it in the source, in a comment that nvcc and clang
// both ignore:
//
//   // roofcheck-claim: intensity >= N / 6; flops == 2 * N * N * N; bound == compute
//   __global__ void matmul_tiled(const float *A, const float *B, float *C, int N) { ... }
//
// `roofcheck lint` attaches the claims to the kernel in roofcheck.static/1; `roofcheck audit` checks them
// against the static estimate and against measured launches. The grammar is in docs/claims.md.
#pragma once

#include "roofcheck/Contracts.h"
#include "roofcheck/Expr.h"
#include "roofcheck/Join.h"
#include "roofcheck/Roofline.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofcheck {

/// The marker that starts a claim comment.
inline constexpr std::string_view ClaimMarker = "roofcheck-claim:";

enum class Relation { Equal, AtLeast, AtMost, Greater, Less };
const char *toString(Relation relation);

struct Claim {
  std::string text;    ///< the claim as written, trimmed
  std::string subject; ///< canonical: "intensity.ideal", "flops.total", "bytes.read", "bound", ...
  Relation relation = Relation::Equal;
  std::optional<Expr> expected;    ///< numeric subjects
  std::optional<Bound> boundClass; ///< subject "bound"
  ClaimSource source;              ///< where the claim stands (column of its first character)
};

/// A claim that does not parse; the message starts with "file:line:column: ".
class ClaimError : public Error {
public:
  using Error::Error;
};

/// Parses the text of one claim comment after the marker: claims separated by ';'. `source` locates the
/// first character of `text`; a ClaimError names the file, line and column of the fault.
std::vector<Claim> parseClaims(std::string_view text, const ClaimSource &source);

/// Every claim comment in a source text, each located in it. Used by lint to find the claims that precede
/// a kernel, and by tests.
std::vector<ClaimSource> findClaimComments(std::string_view sourceText, const std::string &file);

/// Attaches to each kernel of doc the claim comments that stand above it in its file, after the previous
/// kernel of that file (template instantiations on one line share them), and parses each: a claim that
/// does not parse throws ClaimError with its location. Returns the files that cannot be read (a #line name
/// that is not a file, one removed since): their kernels' claims are not known.
std::vector<std::string> attachClaimComments(StaticDocument &doc);

enum class Verdict { Held, Failed, NotCheckable };
const char *toString(Verdict verdict);

struct ClaimResult {
  Verdict verdict = Verdict::NotCheckable;
  std::string detail; ///< the evidence, or why it cannot be checked
};

/// Checks a claim against the static estimate, with the symbols bound by `bindings`. Equalities of
/// polynomials are decided symbolically when possible; everything else needs every symbol bound.
/// `ceilings` is needed for `bound` claims only.
ClaimResult checkAgainstEstimate(const Claim &claim, const StaticKernel &kernel, const Bindings &bindings,
                                 const CeilingsDocument *ceilings);

/// Checks a claim against the kernel's profiled launches as the join groups them, so that it reads the
/// numbers the report shows: each launch signature's counters as a mean a launch (a counter only some
/// launches carry, over those; one-pass DRAM bytes before replayed ones; fp16 register moves left out), its
/// DRAM bytes as the traffic the launches cause (join::causedTraffic: write-back and L2 residency taken into
/// account, and said). The claim's expression is evaluated with each signature's bindings; `tolerance` is the
/// relative slack allowed for measurement noise (0.05 = 5%).
ClaimResult checkAgainstMeasurement(const Claim &claim, const join::JoinedKernel &kernel,
                                    const CeilingsDocument *ceilings, double tolerance);

} // namespace roofcheck
