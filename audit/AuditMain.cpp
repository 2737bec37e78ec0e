// roofcheck-audit: checks every claim that `roofcheck lint` found next to a kernel against the static
// estimate and, when given measured files, against the profiled launches of that kernel. One line per
// claim; exit 1 when any claim failed, 2 on bad input (including a claim that does not parse).
#include "roofcheck/Bindings.h"
#include "roofcheck/Claims.h"
#include "roofcheck/Contracts.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/Join.h"
#include "roofcheck/OptionReader.h"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>
#include <vector>

using namespace roofcheck;

namespace {

const char *usage =
    "usage: roofcheck audit --static FILE... [--measured FILE...] [--ceilings FILE]\n"
    "                       [--kernel NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--arg NAME=VALUE]...\n"
    "                       [--tolerance FRACTION]\n\n"
    "Checks the claims written next to kernels (// roofcheck-claim: intensity >= N / 6) against the static\n"
    "estimate (with the given bindings) and against the profiled launches in the measured files.\n"
    "Prints one line per claim: held, failed, or not checkable and why. Exit 1 if any claim failed.\n\n"
    "  --static FILE...   roofcheck.static/1 from `roofcheck lint --json` (repeatable)\n"
    "  --measured FILE... roofcheck.measured/2 (or /1) from `roofcheck run`, one per process (repeatable)\n"
    "  --ceilings FILE    roofcheck.ceilings/1 from `roofcheck probe`, for `bound` claims\n"
    "  --kernel NAME      only kernels of this name (template arguments optional)\n"
    "  --grid, --block    launch dimensions for the static check\n"
    "  --arg NAME=VALUE   a kernel parameter's value for the static check (repeatable)\n"
    "  --tolerance F      relative slack for measured comparisons (default 0.05)\n";

struct Options {
  std::vector<std::string> staticFiles, measuredFiles;
  std::optional<std::string> ceilingsFile, kernel;
  Bindings bindings; ///< --arg, --grid, --block: only what was given

  double tolerance = 0.05;
};

Options parseOptions(int argc, char **argv) {
  Options o;
  OptionReader reader(std::vector<std::string>(argv + 1, argv + argc), "roofcheck audit --help");
  while (reader.next()) {
    if (reader.is("--static")) {
      for (std::string &file : reader.values("--static"))
        o.staticFiles.push_back(std::move(file));
    } else if (reader.is("--measured")) {
      for (std::string &file : reader.values("--measured"))
        o.measuredFiles.push_back(std::move(file));
    }
    else if (reader.is("--ceilings"))
      o.ceilingsFile = reader.value("--ceilings");
    else if (reader.is("--kernel"))
      o.kernel = reader.value("--kernel");
    else if (reader.is("--grid"))
      addDimensionBindings(o.bindings, "gridDim", parseDim3(reader.value("--grid"), "--grid"));
    else if (reader.is("--block"))
      addDimensionBindings(o.bindings, "blockDim", parseDim3(reader.value("--block"), "--block"));
    else if (reader.is("--arg"))
      addArgumentBinding(o.bindings, reader.value("--arg"));
    else if (reader.is("--tolerance")) {
      Number t = parseNumber(reader.value("--tolerance"), "--tolerance");
      if (t.toDouble() < 0 || t.toDouble() >= 1)
        throw Error("--tolerance must be a fraction in [0, 1)");
      o.tolerance = t.toDouble();
    } else
      reader.rejectUnknown();
  }
  if (o.staticFiles.empty())
    throw Error("no static file: give --static FILE (from `roofcheck lint --json`)");
  return o;
}

bool nameMatches(const std::string &kernelName, const std::string &wanted) {
  if (kernelName == wanted)
    return true;
  return wanted.find('<') == std::string::npos && kernelName.rfind(wanted + "<", 0) == 0;
}

/// Ceilings measured on another GPU than a run's make `bound` verdicts on its launches unreliable: said, not
/// refused (the same model in another machine is often what there is).
void warnAboutOtherDevices(const CeilingsDocument &ceilings, const std::string &ceilingsPath,
                           const std::deque<MeasuredHeader> &measured, const std::vector<std::string> &measuredPaths) {
  const DeviceInfo &c = ceilings.device;
  for (size_t i = 0; i < measured.size(); ++i)
    for (const DeviceInfo &d : measured[i].devices) {
      bool same = !d.uuid.empty() && !c.uuid.empty() ? d.uuid == c.uuid : d.name == c.name;
      if (!same)
        std::fprintf(stderr,
                     "roofcheck-audit: warning: %s: measured on %s %s, but %s ran on device %d, %s %s: `bound` "
                     "verdicts on its launches may not hold\n",
                     ceilingsPath.c_str(), c.name.c_str(), c.uuid.c_str(), measuredPaths[i].c_str(), d.index,
                     d.name.c_str(), d.uuid.c_str());
    }
}

/// The estimate at each measured launch signature's grid, block and arguments (the options' bindings win),
/// for a claim the options leave unbound: failed at the first signature where it fails, held where it holds
/// at every one; nullopt where a signature cannot decide it either (an unknown estimate, a pointer's size).
std::optional<ClaimResult> estimateAtSignatures(const Claim &claim, const StaticKernel &kernel, const Bindings &given,
                                                const join::JoinedKernel &joined, const CeilingsDocument *ceilings) {
  std::string last; // where the last signature held, and its evidence
  for (const join::Signature &sig : joined.signatures) {
    Bindings bindings = sig.bindings;
    for (const auto &[name, value] : given)
      bindings[name] = value;
    ClaimResult r = checkAgainstEstimate(claim, kernel, bindings, ceilings);
    std::string where = "grid " + dimText(sig.grid) + " block " + dimText(sig.block);
    for (const auto &[name, value] : sig.args)
      where += " " + name + "=" + value;
    if (r.verdict == Verdict::NotCheckable)
      return std::nullopt;
    if (r.verdict == Verdict::Failed)
      return ClaimResult{Verdict::Failed, "at the measured launch signature " + where + ": " + r.detail};
    last = where + ": " + r.detail;
  }
  size_t n = joined.signatures.size();
  if (n == 0)
    return std::nullopt;
  return ClaimResult{Verdict::Held, n == 1 ? "held at the measured launch signature " + last
                                           : "held at each of the " + std::to_string(n) +
                                                 " measured launch signatures (last, " + last + ")"};
}

} // namespace

int main(int argc, char **argv) {
  return runGuarded("roofcheck-audit", [&]() -> int {
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
        std::fputs(usage, stdout);
        return ExitSuccess;
      }
    Options options = parseOptions(argc, argv);
    std::vector<StaticDocument> statics;
    for (const std::string &f : options.staticFiles)
      statics.push_back(loadStaticFile(f));
    std::vector<std::pair<std::string, const StaticDocument *>> staticRefs;
    for (size_t i = 0; i < statics.size(); ++i)
      staticRefs.emplace_back(options.staticFiles[i], &statics[i]);
    // The report's join: the same launches, signatures and counter readings behind both tools' numbers.
    join::LaunchJoin launches(staticRefs);
    for (const std::string &f : options.measuredFiles)
      launches.addMeasuredFile(f);
    for (const std::string &w : launches.warnings())
      std::fprintf(stderr, "roofcheck-audit: warning: %s\n", w.c_str());
    launches.requireCommonKernels();
    std::optional<CeilingsDocument> ceilings;
    if (options.ceilingsFile) {
      ceilings = loadCeilingsFile(*options.ceilingsFile);
      warnAboutOtherDevices(*ceilings, *options.ceilingsFile, launches.headers(), options.measuredFiles);
    }

    if (options.kernel) {
      bool named = false;
      for (const StaticDocument &doc : statics)
        for (const StaticKernel &kernel : doc.kernels)
          named = named || nameMatches(kernel.name, *options.kernel);
      if (!named)
        throw Error("no kernel named " + *options.kernel + " in the static files");
    }
    const Bindings &given = options.bindings;
    int counts[3] = {0, 0, 0};
    int malformed = 0;
    for (const StaticDocument &doc : statics)
      for (const StaticKernel &kernel : doc.kernels) {
        if (options.kernel && !nameMatches(kernel.name, *options.kernel))
          continue;
        const join::JoinedKernel *joined = launches.find(kernel.mangled);
        for (const ClaimSource &source : kernel.claims) {
          std::vector<Claim> claims;
          try {
            claims = parseClaims(source.text, source);
          } catch (const ClaimError &e) {
            std::fprintf(stderr, "%s: error: %s\n", kernel.name.c_str(), e.what());
            ++malformed;
            continue;
          }
          for (const Claim &claim : claims) {
            const CeilingsDocument *c = ceilings ? &*ceilings : nullptr;
            ClaimResult estimate = checkAgainstEstimate(claim, kernel, given, c);
            if (estimate.verdict == Verdict::NotCheckable && joined)
              estimate = estimateAtSignatures(claim, kernel, given, *joined, c).value_or(estimate);
            std::optional<ClaimResult> run;
            if (!options.measuredFiles.empty())
              run = joined ? checkAgainstMeasurement(claim, *joined, c, options.tolerance)
                           : ClaimResult{Verdict::NotCheckable,
                                         "no profiled launch of " + kernel.name + " in the measured files"};
            Verdict verdict = estimate.verdict;
            if (run) {
              if (run->verdict == Verdict::Failed || (run->verdict == Verdict::Held && verdict != Verdict::Failed))
                verdict = run->verdict;
            }
            std::string detail = "estimate: " + estimate.detail;
            if (run)
              detail += "; measured: " + run->detail;
            std::printf("%s:%d:%d: %s: %s: %s: %s\n", claim.source.file.c_str(), claim.source.line,
                        claim.source.column, toString(verdict), kernel.name.c_str(), claim.text.c_str(),
                        detail.c_str());
            ++counts[static_cast<int>(verdict)];
          }
        }
      }
    int total = counts[0] + counts[1] + counts[2];
    std::printf("audit: %d claim%s: %d held, %d failed, %d not checkable\n", total, total == 1 ? "" : "s", counts[0],
                counts[1], counts[2]);
    if (malformed)
      throw Error(std::to_string(malformed) + " claim comment" + (malformed == 1 ? "" : "s") +
                  " did not parse (see above)");
    return counts[static_cast<int>(Verdict::Failed)] ? ExitFindings : ExitSuccess;
  });
}
