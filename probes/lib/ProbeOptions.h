// Command-line options of roofcheck-probe. Parsed before any GPU call, so that a bad option is reported
// the same way on a machine without a GPU.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace roofcheck::probe {

/// One selectable group of probes (`--only`). Tensor covers every dtype measured through cuBLASLt.
enum class ProbeGroup { Dram, L2, Shared, FP64, FP32, FP16, BF16, Tensor };

const char *toString(ProbeGroup group);
/// All groups in the order the suite runs them.
const std::vector<ProbeGroup> &allProbeGroups();

struct ProbeOptions {
  std::string outPath = "ceilings.json";
  std::set<ProbeGroup> groups; ///< what to run; all groups unless --only narrows it
  bool quick = false;          ///< smaller problems and fewer repetitions (a smoke run, not a ceiling to keep)
  bool help = false;
  bool version = false;

  bool runs(ProbeGroup group) const { return groups.count(group) != 0; }
};

/// Parses argv[1..]. Throws roofcheck::Error naming the offending argument and what is accepted.
ProbeOptions parseProbeOptions(const std::vector<std::string> &args);

/// The --help text.
std::string probeUsage();

} // namespace roofcheck::probe
