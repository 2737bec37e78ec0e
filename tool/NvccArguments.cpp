#include "NvccArguments.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace roofcheck::lint {
namespace {

bool startsWith(const std::string &s, const std::string &prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// The tables hold every option of nvcc 13 (`nvcc --help`), in both spellings, that a clang device-side
// syntax check has no use for, plus the clang and host-compiler flags of the same kind. An nvcc option
// missing here would reach clang and stop the file with "unknown argument".

/// Flags whose value is the next argument ("-flag value") or follows '=' ("-flag=value"); dropped with it.
const std::set<std::string> droppedWithValue = {
    // nvcc 13
    "--output-file", "-o", "--library", "-l", "--library-path", "-L", "--output-directory", "-odir",
    "--compiler-bindir", "-ccbin", "--archiver-binary", "-arbin", "--cudart", "-cudart", "--cudadevrt", "-cudadevrt",
    "--libdevice-directory", "-ldir", "--target-directory", "-target-dir", "--optimization-info", "-opt-info",
    "--optimize", "--Ofast-compile", "-Ofc", "--dopt", "-dopt", "--machine", "-m", "--linker-options", "-Xlinker",
    "--archive-options", "-Xarchive", "--ptxas-options", "-Xptxas", "--nvlink-options", "-Xnvlink",
    "--static-global-template-stub", "-static-global-template-stub", "--device-entity-has-hidden-visibility",
    "-device-entity-has-hidden-visibility", "--threads", "-t", "--split-compile", "-split-compile",
    "--split-compile-extended", "-split-compile-extended", "--fdevice-time-trace", "-fdevice-time-trace",
    "--keep-dir", "-keep-dir", "--time", "-time", "--run-args", "-run-args", "--input-drive-prefix", "-idp",
    "--dependency-drive-prefix", "-ddp", "--drive-prefix", "-dp", "--dependency-target-name", "-MT",
    "--dependency-output", "-MF", "--gpu-architecture", "-arch", "--gpu-code", "-code", "--generate-code",
    "-gencode", "--relocatable-device-code", "-rdc", "--entries", "-e", "--maxrregcount", "-maxrregcount", "--ftz",
    "-ftz", "--prec-div", "-prec-div", "--prec-sqrt", "-prec-sqrt", "--fmad", "-fmad", "--default-stream",
    "-default-stream", "--Werror", "--diag-error", "-diag-error", "--diag-suppress", "-diag-suppress",
    "--diag-warn", "-diag-warn", "--host-linker-script", "-hls", "--brief-diagnostics", "-brief-diag",
    "--jump-table-density", "-jtd", "--device-stack-protector", "-device-stack-protector", "--compress-mode",
    "-compress-mode", "--frandom-seed", "-frandom-seed", "--sanitize", "-sanitize", "--x", "-x", "-Xcudafe",
    "-Xfatbin", "--fatbin-options", "-lineinfo-level", "--qpp-config", "-qpp-config",
    // clang and host compilers
    "-MQ", "-MJ", "-dep-file", "--offload-arch", "--cuda-gpu-arch", "--cuda-path", "-Xclang-device"};

/// Flags without a value that mean nothing to a clang device-side syntax check.
const std::set<std::string> droppedAlone = {
    // nvcc 13
    "--cuda", "-cuda", "--cubin", "-cubin", "--fatbin", "-fatbin", "--ptx", "-ptx", "--optix-ir", "-optix-ir",
    "--ltoir", "-ltoir", "--preprocess", "-E", "--generate-dependencies", "-M", "--generate-nonsystem-dependencies",
    "-MM", "--generate-dependencies-with-compile", "-MD", "--generate-nonsystem-dependencies-with-compile", "-MMD",
    "--generate-dependency-targets", "-MP", "--compile", "-c", "--device-w", "-dw", "--device-link", "-dlink",
    "--link", "-link", "--lib", "-lib", "--run", "-run", "--objdir-as-tempdir", "-objtemp",
    "--allow-unsupported-compiler", "-allow-unsupported-compiler", "--use-local-env", "-use-local-env",
    "--force-cl-env-setup", "-force-cl-env-setup", "--profile", "-pg", "--debug", "-g", "--device-debug", "-G",
    "--generate-line-info", "-lineinfo", "--dlink-time-opt", "-dlto", "--lto", "-lto", "--gen-opt-lto",
    "-gen-opt-lto", "--no-exceptions", "-noeh", "--shared", "-shared", "--no-host-device-initializer-list",
    "-nohdinitlist", "--no-host-device-move-forward", "-nohdmoveforward", "--expt-relaxed-constexpr",
    "-expt-relaxed-constexpr", "--extended-lambda", "-extended-lambda", "--expt-extended-lambda",
    "-expt-extended-lambda", "--m64", "-m64", "--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", "--forward-unknown-opts",
    "-forward-unknown-opts", "--dont-use-profile", "-noprof", "--dryrun", "-dryrun", "--verbose", "-v",
    "--fdevice-syntax-only", "-fdevice-syntax-only", "--keep", "-keep", "--save-temps", "-save-temps",
    "--clean-targets", "-clean", "--no-align-double", "--no-device-link", "-nodlink", "--use_fast_math",
    "-use_fast_math", "--extra-device-vectorization", "-extra-device-vectorization", "--disable-warnings", "-w",
    "--keep-device-functions", "-keep-device-functions", "--source-in-ptx", "-src-in-ptx", "--restrict",
    "-restrict", "--Wreorder", "-Wreorder", "--Wdefault-stream-launch", "-Wdefault-stream-launch",
    "--Wmissing-launch-bounds", "-Wmissing-launch-bounds", "--Wext-lambda-captures-this",
    "-Wext-lambda-captures-this", "--Wno-deprecated-declarations", "-Wno-deprecated-declarations",
    "--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", "--resource-usage", "-res-usage",
    "--extensible-whole-program", "-ewp", "--no-compress", "-no-compress", "--compile-as-tools-patch",
    "-astoolspatch", "--list-gpu-code", "-code-ls", "--list-gpu-arch", "-arch-ls", "--display-error-number",
    "-err-no", "--no-display-error-number", "-no-err-no", "--augment-host-linker-script", "-aug-hls",
    "--relocatable-link", "-r", "--relocatable-ptx", "-reloc-ptx", "--jobserver", "-jobserver", "--help", "-h",
    "--version", "-V",
    // clang and host compilers
    "-S", "-fsyntax-only", "-Werror", "-pipe", "-nocudalib", "--cuda-device-only", "--cuda-host-only",
    "--no-cuda-version-check"};

/// Flags of both compilers whose value is the next argument: kept, with the value as it is, whatever it
/// looks like ("-D" "-x" defines a macro named -x; it is not the language flag).
const std::set<std::string> keptWithValue = {"-I", "-D", "-U", "-isystem", "-include", "-idirafter", "-iquote",
                                             "-imacros", "-Xclang", "-isysroot", "--sysroot", "-iprefix"};

/// "sm_90" from "sm_90", "compute_90", "sm_90a"; empty when the text names no concrete architecture
/// (native, all, all-major) or is not an architecture name at all.
std::string archName(const std::string &text) {
  for (const char *prefix : {"compute_", "sm_", "lto_"}) {
    if (!startsWith(text, prefix))
      continue;
    std::string number = text.substr(std::string(prefix).size());
    size_t digits = 0;
    while (digits < number.size() && std::isdigit(static_cast<unsigned char>(number[digits])))
      ++digits;
    // a family suffix at most: sm_90a, sm_100f
    bool suffixOk = number.size() == digits || (number.size() == digits + 1 && std::islower(static_cast<unsigned char>(number[digits])));
    if (digits > 0 && suffixOk)
      return "sm_" + number;
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
    throw Error("cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Splits "a,b,c" (the value of -arch, -code, --options-file) into its items.
std::vector<std::string> splitCommas(const std::string &value) {
  std::vector<std::string> parts;
  std::stringstream in(value);
  std::string part;
  while (std::getline(in, part, ','))
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

/// The options files being expanded, outermost first, and how many were read in all: a file that names
/// itself, directly or through others, is an error, not an endless (or exponential) expansion.
struct OptionsFiles {
  std::vector<std::string> open;
  int read = 0;
};

void translate(const std::vector<std::string> &args, size_t begin, const std::string &sourceFile,
               std::vector<std::string> &out, std::string *firstArch, OptionsFiles &optionsFiles) {
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

    if (keptWithValue.count(arg)) {
      out.push_back(arg);
      if (hasNext)
        out.push_back(args[++i]);
      continue;
    }
    if (arg == sourceFile)
      continue;
    // nvcc's -Werror takes a kind ("-Werror all-warnings"); clang's takes none. Neither is wanted here.
    if (arg == "-Werror") {
      static const std::set<std::string> nvccKinds = {"all-warnings", "cross-execution-space-call", "reorder",
                                                      "default-stream-launch", "missing-launch-bounds",
                                                      "ext-lambda-captures-this", "deprecated-declarations"};
      bool nvccKindsNext = hasNext && !splitCommas(args[i + 1]).empty();
      for (const std::string &kind : hasNext ? splitCommas(args[i + 1]) : std::vector<std::string>())
        nvccKindsNext = nvccKindsNext && nvccKinds.count(kind);
      if (nvccKindsNext)
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
      // Host-compiler flags, split at commas, and at spaces as nvcc's own host command line splits them, follow
      // the rules of the command's own flags: what a device-side syntax check cannot take is dropped.
      std::vector<std::string> hostFlags;
      for (const std::string &part : splitCommas(valueOf(is("-Xcompiler") ? "-Xcompiler" : "--compiler-options"))) {
        std::istringstream words(part);
        for (std::string word; words >> word;)
          hostFlags.push_back(word);
      }
      translate(hostFlags, 0, sourceFile, out, nullptr, optionsFiles);
      continue;
    }
    if (is("--options-file") || is("-optf")) {
      std::string path = valueOf(is("-optf") ? "-optf" : "--options-file");
      for (const std::string &file : splitCommas(path)) {
        if (std::find(optionsFiles.open.begin(), optionsFiles.open.end(), file) != optionsFiles.open.end())
          throw Error("the nvcc options file '" + file + "' names itself through --options-file");
        if (optionsFiles.open.size() >= 8 || ++optionsFiles.read > 64)
          throw Error("nvcc options files nest deeper than 8 levels or number more than 64");
        std::vector<std::string> words;
        try {
          words = splitOptionsText(readOptionsFile(file));
        } catch (const Error &e) {
          throw Error("the nvcc options file '" + file + "': " + e.what());
        }
        optionsFiles.open.push_back(file);
        translate(words, 0, sourceFile, out, firstArch, optionsFiles);
        optionsFiles.open.pop_back();
      }
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
    if (is("-ftemplate-depth") || is("--ftemplate-depth") || is("-ftemplate-backtrace-limit") ||
        is("--ftemplate-backtrace-limit")) {
      std::string name = arg.substr(startsWith(arg, "--") ? 1 : 0, arg.find('=') - (startsWith(arg, "--") ? 1 : 0));
      std::string value = arg.find('=') != std::string::npos ? arg.substr(arg.find('=') + 1) : (hasNext ? args[++i] : "");
      out.push_back(name + "=" + value);
      continue;
    }
    if (is("--std") || is("-std")) {
      std::string value = arg.find('=') != std::string::npos ? arg.substr(arg.find('=') + 1) : (hasNext ? args[++i] : "");
      out.push_back("-std=" + value);
      continue;
    }
    if (droppedWithValue.count(arg) || (arg == "-O" && hasNext && args[i + 1].size() == 1 && std::isdigit(
                                                                  static_cast<unsigned char>(args[i + 1][0])))) {
      if (hasNext)
        ++i;
      continue;
    }
    // The macros nvcc defines for these switches; code tests them to pick its lambda and constexpr forms.
    if (arg == "--extended-lambda" || arg == "-extended-lambda" || arg == "--expt-extended-lambda" ||
        arg == "-expt-extended-lambda") {
      out.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
      continue;
    }
    if (arg == "--expt-relaxed-constexpr" || arg == "-expt-relaxed-constexpr") {
      out.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
      continue;
    }
    // Without contraction no product is fused into an add (the FLOP count follows the FMAs formed).
    if (is("--fmad") || is("-fmad")) {
      if (valueOf(startsWith(arg, "--") ? "--fmad" : "-fmad") == "false")
        out.push_back("-ffp-contract=off");
      continue;
    }
    if (arg == "--use_fast_math" || arg == "-use_fast_math") {
      out.push_back("-D__USE_FAST_MATH__");
      continue;
    }
    if (droppedAlone.count(arg) || droppedWithValue.count(arg.substr(0, arg.find('='))))
      continue;
    // Attached values: -O3, -Werror=..., -MFdeps.d, -march=..., -fopenmp, -xcu, -ofile.o.
    if (startsWith(arg, "-O") || startsWith(arg, "-Werror=") || startsWith(arg, "-MF") || startsWith(arg, "-MT") ||
        startsWith(arg, "-MQ") || startsWith(arg, "-march") || startsWith(arg, "-mtune") ||
        startsWith(arg, "-fopenmp") || startsWith(arg, "-x") || startsWith(arg, "-o"))
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
  if (quote)
    throw Error(std::string("a ") + quote + " quote is not closed");
  if (inWord)
    words.push_back(word);
  return words;
}

std::vector<std::string> translateCompileCommand(const std::vector<std::string> &command,
                                                 const std::string &sourceFile, std::string *firstArch) {
  std::vector<std::string> out;
  if (command.empty())
    return out;
  OptionsFiles optionsFiles;
  translate(command, 1, sourceFile, out, firstArch, optionsFiles);
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
  // nvcc names the architectures it compiles for in __CUDA_ARCH_LIST__ (900 for sm_90, sm_90a); the one
  // compilation analysed here is for one of them.
  std::string digits;
  for (char c : arch.substr(3))
    if (std::isdigit(static_cast<unsigned char>(c)))
      digits += c;
  if (!digits.empty())
    line.push_back("-D__CUDA_ARCH_LIST__=" + digits + "0");
  line.insert(line.end(), userFlags.begin(), userFlags.end());
  for (const std::string &dir : options.hostIncludeDirs) {
    line.push_back("-idirafter");
    line.push_back(dir);
  }
  // Host code is checked only when it is emitted, as nvcc does: a host template that calls a host-only
  // overload, or clock() in a host function, is not an error of the device compilation.
  line.push_back("-fgpu-defer-diag");
  // O2 code generation (TBAA, lifetime markers, no optnone) without clang's optimisation pipeline: the
  // counting engine runs its own, lighter one (DeviceCompiler.cpp); line tables for locations.
  for (const char *flag : {"-O2", "-Xclang", "-disable-llvm-passes", "-gline-tables-only"})
    line.push_back(flag);
  // Warnings of the user's code are not ours to report; errors still are.
  line.push_back("-w");
  line.push_back("-fno-caret-diagnostics"); // also keeps clang from printing "N errors generated"
  line.push_back(sourceFile);
  return line;
}

} // namespace roofcheck::lint
