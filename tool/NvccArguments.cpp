#include "NvccArguments.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace roofcheck::lint {
namespace {

bool startsWith(const std::string &s, const std::string &prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

/// nvcc (and host-compiler) flags whose value is the next argument; both are dropped.
const std::set<std::string> droppedWithValue = {
    "-o", "--output-file", "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options",
    "-Xlinker", "--linker-options", "-Xcudafe", "-Xarchive", "--archive-options", "-maxrregcount", "--maxrregcount",
    "-t", "--threads", "-x", "-MF", "-MT", "-MQ", "-code", "--gpu-code", "-gencode", "--generate-code", "-arch",
    "--gpu-architecture", "-diag-suppress", "--diag-suppress", "-diag-error", "--diag-error", "-diag-warn",
    "--diag-warn", "--Werror", "-odir", "--output-directory", "-dlto", "--default-stream", "-default-stream",
    "-lineinfo-level", "-split-compile", "--split-compile", "--keep-dir", "-keep-dir", "-cudart",
    "--cudart", "-cudadevrt", "--cudadevrt", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt",
    "-fmad", "--fmad", "-Xclang-device", "-time", "--time", "-dep-file", "--dependency-output", "-MJ",
    "-relocatable-device-code", "--relocatable-device-code", "--offload-arch", "--cuda-gpu-arch"};

/// Flags without a value that mean nothing to a clang device-side compilation.
const std::set<std::string> droppedAlone = {
    "-c", "--compile", "-lineinfo", "--generate-line-info", "-g", "-G", "--device-debug", "--use_fast_math",
    "-use_fast_math", "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda",
    "-expt-extended-lambda", "--extended-lambda", "-extended-lambda", "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-compiler", "-forward-unknown-to-host-linker", "--keep", "-keep", "-res-usage",
    "--resource-usage", "-v", "--verbose", "-MD", "-MMD", "-M", "-MM", "-MP", "-E", "-S", "-fsyntax-only",
    "-cuda", "--cuda", "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin", "-dw", "-dlink",
    "--device-link", "-lib", "--lib", "-shared", "--shared", "-w", "-Werror", "-pipe", "-nocudalib",
    "--cuda-device-only", "--cuda-host-only", "--no-cuda-version-check", "-restrict", "--restrict",
    "-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations",
    "--display-error-number", "-err-no", "--no-display-error-number", "-no-err-no"};

/// "sm_90" from "sm_90", "compute_90", "sm_90a"; empty when the text names no concrete architecture
/// (native, all, all-major).
std::string archName(const std::string &text) {
  std::string value = text;
  for (const char *prefix : {"compute_", "sm_", "lto_"}) {
    if (startsWith(value, prefix)) {
      std::string digits = value.substr(std::string(prefix).size());
      if (!digits.empty() && std::isdigit(static_cast<unsigned char>(digits[0])))
        return "sm_" + digits;
    }
  }
  return {};
}

/// The architecture of a -gencode value "arch=compute_90,code=[sm_90,compute_90]": the first sm_ in code=,
/// else the arch=.
std::string gencodeArch(const std::string &value) {
  std::string arch, code;
  std::string item;
  std::string cleaned = value;
  cleaned.erase(std::remove_if(cleaned.begin(), cleaned.end(), [](char c) { return c == '[' || c == ']' || c == '"' || c == '\''; }),
                cleaned.end());
  std::stringstream in(cleaned);
  std::string key;
  while (std::getline(in, item, ',')) {
    auto eq = item.find('=');
    if (eq != std::string::npos) {
      key = item.substr(0, eq);
      item = item.substr(eq + 1);
    }
    std::string name = archName(item);
    if (name.empty())
      continue;
    if (key == "code" && code.empty() && startsWith(item, "sm_"))
      code = name;
    if (key == "arch" && arch.empty())
      arch = name;
  }
  return code.empty() ? arch : code;
}

std::string readOptionsFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw Error("cannot read the nvcc options file '" + path + "' named by --options-file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Splits "a,b,c" (the value of -Xcompiler) into host-compiler flags.
std::vector<std::string> splitCommas(const std::string &value) {
  std::vector<std::string> parts;
  std::stringstream in(value);
  std::string part;
  while (std::getline(in, part, ','))
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

/// Host-compiler flags that clang cannot take on a device compilation.
bool hostFlagUnusable(const std::string &flag) {
  return flag == "-c" || startsWith(flag, "-o") || flag == "-MD" || flag == "-MMD" || startsWith(flag, "-Werror") ||
         startsWith(flag, "-march") || startsWith(flag, "-mtune") || flag == "-fopenmp" || startsWith(flag, "-fopenmp=") ||
         startsWith(flag, "-O");
}

void translate(const std::vector<std::string> &args, size_t begin, const std::string &sourceFile,
               std::vector<std::string> &out, std::string *firstArch, int depth) {
  auto noteArch = [&](const std::string &arch) {
    if (firstArch && firstArch->empty() && !arch.empty())
      *firstArch = arch;
  };
  for (size_t i = begin; i < args.size(); ++i) {
    const std::string &arg = args[i];
    const bool hasNext = i + 1 < args.size();
    auto valueOf = [&](const std::string &flag) -> std::string {
      // "-flag=value" or "-flag value"
      if (arg.size() > flag.size() && arg[flag.size()] == '=')
        return arg.substr(flag.size() + 1);
      return hasNext ? args[++i] : std::string();
    };
    auto is = [&](const std::string &flag) {
      return arg == flag || (startsWith(arg, flag) && arg.size() > flag.size() && arg[flag.size()] == '=');
    };

    if (arg == sourceFile)
      continue;
    // nvcc's -Werror takes a kind ("-Werror all-warnings"); clang's takes none. Neither is wanted here.
    if (arg == "-Werror") {
      static const std::set<std::string> nvccKinds = {"all-warnings", "cross-execution-space-call", "reorder",
                                                      "default-stream-launch", "missing-launch-bounds",
                                                      "ext-lambda-captures-this", "deprecated-declarations"};
      if (hasNext && nvccKinds.count(args[i + 1]))
        ++i;
      continue;
    }
    if (is("-gencode") || is("--generate-code")) {
      noteArch(gencodeArch(valueOf(is("-gencode") ? "-gencode" : "--generate-code")));
      continue;
    }
    if (is("-arch") || is("--gpu-architecture") || is("--cuda-gpu-arch") || is("--offload-arch")) {
      for (const char *flag : {"-arch", "--gpu-architecture", "--cuda-gpu-arch", "--offload-arch"})
        if (is(flag)) {
          for (const std::string &a : splitCommas(valueOf(flag)))
            noteArch(archName(a));
          break;
        }
      continue;
    }
    if (is("-code") || is("--gpu-code")) {
      for (const std::string &a : splitCommas(valueOf(is("-code") ? "-code" : "--gpu-code")))
        if (startsWith(a, "sm_"))
          noteArch(archName(a));
      continue;
    }
    if (is("-Xcompiler") || is("--compiler-options")) {
      for (const std::string &flag : splitCommas(valueOf(is("-Xcompiler") ? "-Xcompiler" : "--compiler-options")))
        if (!hostFlagUnusable(flag))
          out.push_back(flag);
      continue;
    }
    if (is("--options-file") || is("-optf")) {
      if (depth > 8)
        throw Error("nvcc options files nest deeper than 8 levels");
      std::string path = valueOf(is("-optf") ? "-optf" : "--options-file");
      for (const std::string &file : splitCommas(path))
        translate(splitOptionsText(readOptionsFile(file)), 0, sourceFile, out, firstArch, depth + 1);
      continue;
    }
    if (arg == "-rdc=true" || arg == "--relocatable-device-code=true" || arg == "-dc" || arg == "--device-c" ||
        arg == "-fgpu-rdc" || (arg == "-rdc" && hasNext && args[i + 1] == "true") ||
        (arg == "--relocatable-device-code" && hasNext && args[i + 1] == "true")) {
      if (arg == "-rdc" || arg == "--relocatable-device-code")
        ++i;
      out.push_back("-fgpu-rdc");
      continue;
    }
    if (startsWith(arg, "-isystem=")) {
      out.push_back("-isystem");
      out.push_back(arg.substr(9));
      continue;
    }
    if (is("--include-path") || is("--system-include") || is("--define-macro") || is("--undefine-macro") ||
        is("--pre-include")) {
      const char *flag = is("--include-path")     ? "--include-path"
                         : is("--system-include") ? "--system-include"
                         : is("--define-macro")   ? "--define-macro"
                         : is("--undefine-macro") ? "--undefine-macro"
                                                  : "--pre-include";
      std::string value = valueOf(flag);
      std::string clangFlag = std::string(flag) == "--include-path"     ? "-I"
                              : std::string(flag) == "--system-include" ? "-isystem"
                              : std::string(flag) == "--define-macro"   ? "-D"
                              : std::string(flag) == "--undefine-macro" ? "-U"
                                                                        : "-include";
      out.push_back(clangFlag);
      out.push_back(value);
      continue;
    }
    if (is("--std") || is("-std")) {
      std::string value = arg.find('=') != std::string::npos ? arg.substr(arg.find('=') + 1) : (hasNext ? args[++i] : "");
      out.push_back("-std=" + value);
      continue;
    }
    if (droppedWithValue.count(arg)) {
      if (hasNext)
        ++i;
      continue;
    }
    if (droppedAlone.count(arg) || startsWith(arg, "-O") || startsWith(arg, "--optimize") ||
        startsWith(arg, "-Werror=") || startsWith(arg, "--Werror=") || (arg.size() > 3 && (startsWith(arg, "-MF") ||
        startsWith(arg, "-MT") || startsWith(arg, "-MQ"))) || startsWith(arg, "--diag") || startsWith(arg, "-diag") ||
        startsWith(arg, "-Xptxas=") || startsWith(arg, "--ptxas-options=") || startsWith(arg, "-maxrregcount=") ||
        startsWith(arg, "--maxrregcount=") || startsWith(arg, "-ccbin=") || startsWith(arg, "--compiler-bindir=") ||
        startsWith(arg, "-o=") || startsWith(arg, "--output-file=") || startsWith(arg, "-rdc=") ||
        startsWith(arg, "--relocatable-device-code=") || startsWith(arg, "--threads=") || startsWith(arg, "-t=") ||
        startsWith(arg, "-ftz=") || startsWith(arg, "--ftz=") || startsWith(arg, "-prec-") ||
        startsWith(arg, "--prec-") || startsWith(arg, "-fmad=") || startsWith(arg, "--fmad=") ||
        startsWith(arg, "--default-stream=") || startsWith(arg, "-default-stream=") ||
        startsWith(arg, "-cudart=") || startsWith(arg, "--cudart=") || startsWith(arg, "--cuda-path=") ||
        startsWith(arg, "-Xnvlink=") || startsWith(arg, "-Xcudafe=") || startsWith(arg, "-Xlinker=") ||
        startsWith(arg, "-march") || startsWith(arg, "-mtune") || startsWith(arg, "-fopenmp")) {
      continue;
    }
    if (startsWith(arg, "-x") && arg.size() > 2) // -xcu, -xcuda
      continue;
    if (startsWith(arg, "-o") && arg.size() > 2 && arg[2] != 'p') // -ofile.o
      continue;
    if (startsWith(arg, "-l") || startsWith(arg, "-L") || startsWith(arg, "-Wl,"))
      continue;
    out.push_back(arg);
  }
}

} // namespace

std::vector<std::string> splitOptionsText(const std::string &text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  return words;
}

std::vector<std::string> translateCompileCommand(const std::vector<std::string> &command,
                                                 const std::string &sourceFile, std::string *firstArch) {
  std::vector<std::string> out;
  if (command.empty())
    return out;
  translate(command, 1, sourceFile, out, firstArch, 0);
  return out;
}

std::vector<std::string> deviceCommandLine(const std::vector<std::string> &userFlags, const std::string &firstArch,
                                           const std::string &sourceFile, const DeviceCompileOptions &options) {
  std::string arch = !options.gpuArch.empty() ? options.gpuArch : !firstArch.empty() ? firstArch : "sm_90";
  std::vector<std::string> line = {"clang++", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch,
                                   "--cuda-path=" + options.cudaPath, "-nocudalib", "-fsyntax-only",
                                   "-Wno-unknown-cuda-version"};
  if (!options.resourceDir.empty())
    line.push_back("-resource-dir=" + options.resourceDir);
  // CUDA 13 keeps thrust/cub/libcu++ under include/cccl; nvcc adds it itself.
  line.push_back("-isystem");
  line.push_back(options.cudaPath + "/include/cccl");
  line.insert(line.end(), userFlags.begin(), userFlags.end());
  // The counting engine's pipeline: O2 simplification (inlining, SROA, mem2reg, instcombine, loop
  // canonicalisation) without unrolling or vectorisation, so loops stay loops; line tables for locations.
  for (const char *flag : {"-O2", "-fno-unroll-loops", "-fno-vectorize", "-fno-slp-vectorize", "-gline-tables-only"})
    line.push_back(flag);
  // Warnings of the user's code are not ours to report; errors still are.
  line.push_back("-w");
  line.push_back("-fno-caret-diagnostics"); // also keeps clang from printing "N errors generated"
  line.push_back(sourceFile);
  return line;
}

} // namespace roofcheck::lint
