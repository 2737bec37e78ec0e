#include "ProbeOptions.h"

#include "roofcheck/Error.h"
#include "roofcheck/OptionReader.h"

#include <sstream>

namespace roofcheck::probe {

const char *toString(ProbeGroup group) {
  switch (group) {
  case ProbeGroup::Dram: return "dram";
  case ProbeGroup::L2: return "l2";
  case ProbeGroup::Shared: return "shared";
  case ProbeGroup::FP64: return "fp64";
  case ProbeGroup::FP32: return "fp32";
  case ProbeGroup::FP16: return "fp16";
  case ProbeGroup::BF16: return "bf16";
  case ProbeGroup::Tensor: return "tensor";
  }
  return "?";
}

const std::vector<ProbeGroup> &allProbeGroups() {
  static const std::vector<ProbeGroup> groups = {ProbeGroup::Dram, ProbeGroup::L2,   ProbeGroup::Shared,
                                                 ProbeGroup::FP64, ProbeGroup::FP32, ProbeGroup::FP16,
                                                 ProbeGroup::BF16, ProbeGroup::Tensor};
  return groups;
}

namespace {

std::string groupNames() {
  std::string names;
  for (ProbeGroup g : allProbeGroups())
    names += (names.empty() ? "" : ",") + std::string(toString(g));
  return names;
}

std::set<ProbeGroup> parseGroups(const std::string &list) {
  std::set<ProbeGroup> groups;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    bool found = false;
    for (ProbeGroup g : allProbeGroups())
      if (name == toString(g)) {
        groups.insert(g);
        found = true;
      }
    if (!found)
      throw Error("--only: unknown probe \"" + name + "\" (choose from " + groupNames() + ")");
  }
  if (groups.empty())
    throw Error("--only: empty list (choose from " + groupNames() + ")");
  return groups;
}

} // namespace

ProbeOptions parseProbeOptions(const std::vector<std::string> &args) {
  ProbeOptions options;
  options.groups = {allProbeGroups().begin(), allProbeGroups().end()};
  bool sawOnly = false;
  OptionReader reader(args, "roofcheck probe --help");
  while (reader.next()) {
    const std::string &arg = reader.argument();
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--version") {
      options.version = true;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (reader.is("--out") || arg == "-o") {
      options.outPath = reader.value(arg == "-o" ? "-o" : "--out");
      if (options.outPath.empty())
        throw Error("--out: empty file name");
    } else if (reader.is("--only")) {
      if (sawOnly)
        throw Error("--only given twice; list every probe in one --only");
      sawOnly = true;
      options.groups = parseGroups(reader.value("--only"));
    } else {
      reader.rejectUnknown();
    }
  }
  return options;
}

std::string probeUsage() {
  return "usage: roofcheck-probe [--out FILE] [--only LIST] [--quick]\n"
         "\n"
         "Measures the memory and compute ceilings of the GPU it runs on (CUDA device 0; choose another with\n"
         "CUDA_VISIBLE_DEVICES) and writes them as roofcheck.ceilings/1. No ceiling comes from a spec sheet.\n"
         "\n"
         "options:\n"
         "  --out FILE    where to write the ceilings (default: ceilings.json)\n"
         "  --only LIST   comma-separated subset of: " +
         groupNames() +
         "\n"
         "                (tensor = fp16, bf16, tf32, fp8 and fp64 matrix products through cuBLASLt)\n"
         "  --quick       smaller problems and fewer repetitions: a smoke run, not ceilings to keep\n"
         "  --help        this text\n"
         "  --version     the roofcheck version\n"
         "\n"
         "exit status: 0 ceilings written; 2 bad option, no GPU or driver, unsupported device, CUDA failure\n";
}

} // namespace roofcheck::probe
