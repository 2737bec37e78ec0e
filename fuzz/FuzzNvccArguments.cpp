// The nvcc -> clang argument translator of roofcheck-lint. The input's first line is a compile command
// (split the way nvcc splits an options file); the rest is the text of an options file, which the command
// names as OPTIONS_FILE. Properties beyond "never crashes":
//  - translation is deterministic, and translating its own output again changes nothing;
//  - no nvcc-only flag, and none of the flags that would stop a syntax-only device compilation (-c, -o,
//    -M..., -E), reaches clang, except as the value of a clang flag that takes one (-D, -I, ...);
//  - the source file is not among the flags; the architecture is a plain sm_NN[a-z] name;
//  - the device command line names exactly one architecture and ends with the source file.
#include "NvccArguments.h"

#include "roofcheck/Error.h"

#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace roofcheck;
using Args = std::vector<std::string>;

namespace {

constexpr const char *SourceFile = "k.cu";

/// nvcc's own switches (clang has none of these spellings) and the compile-mode switches a device-only
/// syntax check must not get. Listed here, apart from the translator's tables, as the oracle.
const std::set<std::string> switchesNotForClang = {
    "-dc", "--device-c", "-dlink", "--device-link", "-lineinfo", "--generate-line-info", "-G", "--device-debug",
    "--use_fast_math", "-use_fast_math", "--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
    "--extended-lambda", "-extended-lambda", "--expt-extended-lambda", "-forward-unknown-to-host-compiler",
    "-res-usage", "--resource-usage", "--keep", "-keep", "-c", "-E", "-S", "-M", "-MM", "-MD", "-MMD", "-ptx",
    "-cubin", "-fatbin", "-lib", "-shared", "-allow-unsupported-compiler", "--allow-unsupported-compiler",
    "-keep-device-functions", "-src-in-ptx", "-dlto", "-noeh", "-nohdinitlist", "-ewp", "-Wreorder", "-jobserver"};

/// nvcc's flags that take a value ("-flag=value" or "-flag value"), and clang's output and dependency-file
/// flags: neither the flag nor its value may reach clang.
const std::set<std::string> valueFlagsNotForClang = {
    "-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code", "-ccbin",
    "--compiler-bindir", "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xnvlink",
    "--nvlink-options", "-Xcudafe", "-Xarchive", "--options-file", "-optf", "-rdc", "--relocatable-device-code",
    "-maxrregcount", "--maxrregcount", "-cudart", "--cudart", "--default-stream", "-default-stream",
    "-diag-suppress", "--diag-suppress", "-odir", "--output-directory", "--keep-dir", "-ftz", "--ftz",
    "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt", "-fmad", "--fmad", "--threads", "-t",
    "--cuda-gpu-arch", "--offload-arch", "-o", "--output-file", "-MF", "-MT", "-MQ", "-static-global-template-stub",
    "-opt-info", "-Ofc", "-jtd", "-compress-mode", "-split-compile", "-Xfatbin"};

/// clang flags whose value is the next argument: that value may look like anything.
const std::set<std::string> takesValue = {"-I", "-D", "-U", "-isystem", "-include", "-idirafter", "-iquote",
                                          "-imacros", "-Xclang", "-isysroot", "--sysroot", "-iprefix"};

std::string flagName(const std::string &arg) {
  if (arg.size() < 2 || arg[0] != '-')
    return arg;
  auto eq = arg.find('=');
  return eq == std::string::npos ? arg : arg.substr(0, eq);
}

void check(bool property, const char *what) {
  if (property)
    return;
  std::fprintf(stderr, "property violated: %s\n", what);
  std::abort();
}

void checkFlags(const Args &flags) {
  for (size_t i = 0; i < flags.size(); ++i) {
    if (i > 0 && takesValue.count(flags[i - 1]))
      continue;
    check(!switchesNotForClang.count(flags[i]) && !valueFlagsNotForClang.count(flagName(flags[i])),
          "an nvcc-only or compile-mode flag reaches clang");
    check(flags[i] != SourceFile, "the source file is among the flags");
  }
}

/// sm_NN or sm_NNx
bool plainArchitecture(const std::string &arch) {
  if (arch.rfind("sm_", 0) != 0)
    return false;
  size_t end = 3;
  while (end < arch.size() && std::isdigit(static_cast<unsigned char>(arch[end])))
    ++end;
  return end > 3 && (end == arch.size() || (end + 1 == arch.size() && std::islower(static_cast<unsigned char>(arch[end]))));
}

struct Translation {
  Args flags;
  std::string arch;
  bool failed = false;
  bool operator==(const Translation &) const = default;
};

Translation translate(const Args &command) {
  Translation t;
  try {
    t.flags = lint::translateCompileCommand(command, SourceFile, &t.arch);
  } catch (const Error &) {
    t.failed = true;
  }
  return t;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  size_t newline = text.find('\n');
  std::string commandText = text.substr(0, newline);
  // One options file per fuzzing process, removed when it exits.
  static const struct OptionsFile {
    std::string path = "/tmp/roofcheck-fuzz-nvcc-" + std::to_string(getpid()) + ".optf";
    ~OptionsFile() { std::remove(path.c_str()); }
  } optionsFile;
  const std::string &optionsPath = optionsFile.path;
  bool usesOptionsFile = false;
  Args command = {"nvcc"};
  Args words;
  try {
    words = lint::splitOptionsText(commandText);
  } catch (const Error &) {
    return 0;
  }
  for (std::string &word : words) {
    for (size_t at; (at = word.find("OPTIONS_FILE")) != std::string::npos;) {
      word.replace(at, 12, optionsPath);
      usesOptionsFile = true;
    }
    command.push_back(word);
  }
  if (usesOptionsFile) {
    std::string optionsText = newline == std::string::npos ? std::string() : text.substr(newline + 1);
    for (size_t at; (at = optionsText.find("OPTIONS_FILE")) != std::string::npos;)
      optionsText.replace(at, 12, optionsPath);
    std::ofstream(optionsPath, std::ios::binary | std::ios::trunc) << optionsText;
  }

  Translation first = translate(command);
  check(translate(command) == first, "translation is deterministic");
  if (first.failed)
    return 0;
  checkFlags(first.flags);
  check(first.arch.empty() || plainArchitecture(first.arch), "the architecture is sm_NN[a-z]");

  // The output is a clang command line already: translating it again is the identity.
  Args again = {"clang++"};
  again.insert(again.end(), first.flags.begin(), first.flags.end());
  Translation second = translate(again);
  check(!second.failed && second.flags == first.flags, "translating the output again changes nothing");

  lint::DeviceCompileOptions options;
  options.cudaPath = "/usr/local/cuda";
  Args line = lint::deviceCommandLine(first.flags, first.arch, SourceFile, options);
  int archFlags = 0;
  for (size_t i = 0; i < line.size(); ++i)
    archFlags += line[i].rfind("--cuda-gpu-arch=", 0) == 0 && !(i > 0 && takesValue.count(line[i - 1]));
  check(archFlags == 1 && line.back() == SourceFile, "one architecture, the source file last");
  return 0;
}
