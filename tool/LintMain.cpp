// roofcheck-lint: estimates ideal FLOPs and bytes of every CUDA kernel from source (`roofcheck lint`).
#include "DeviceCompiler.h"
#include "KernelCounter.h"
#include "LintOutput.h"
#include "NvccArguments.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/Claims.h"
#include "roofcheck/Contracts.h"
#include "roofcheck/Error.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/Version.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr const char *Usage =
    "usage: roofcheck lint [options] FILE... [-- COMPILER-ARGS...]\n"
    "\n"
    "Estimates, for every __global__ kernel of each CUDA file, the FLOPs per bucket, the ideal (unique\n"
    "footprint) and predicted (sector-granular) DRAM bytes and the arithmetic intensity, as expressions in\n"
    "the kernel's parameters and launch dimensions.\n"
    "\n"
    "options:\n"
    "  -p BUILD_DIR          take each file's compile command from BUILD_DIR/compile_commands.json (nvcc or clang)\n"
    "  -- ARGS...            compiler arguments for every file (nvcc flags are translated)\n"
    "  --json FILE           write the roofcheck.static/1 document to FILE\n"
    "  --kernel NAME         analyse only kernels with this name (with or without template arguments); repeatable\n"
    "  --grid X[,Y[,Z]]      bind gridDim (missing dimensions are 1)\n"
    "  --block X[,Y[,Z]]     bind blockDim (missing dimensions are 1)\n"
    "  --arg NAME=VALUE      bind a kernel parameter; repeatable\n"
    "  --cuda-gpu-arch ARCH  the one device compilation to analyse (default: the command's first, else sm_90)\n"
    "  --cuda-path DIR       the CUDA installation (default: $CUDA_PATH, else /usr/local/cuda)\n"
    "  --help, --version\n";

struct Options {
  std::vector<std::string> files;
  std::optional<std::string> buildDir;
  std::optional<std::vector<std::string>> extraArgs; ///< after --
  std::optional<std::string> jsonPath;
  std::set<std::string> kernels;
  roofcheck::Bindings bindings;
  std::string gpuArch;
  std::string cudaPath;
};

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &flag) -> std::string {
      if (arg.size() > flag.size() && arg.compare(0, flag.size() + 1, flag + "=") == 0)
        return arg.substr(flag.size() + 1);
      if (i + 1 >= argc)
        throw roofcheck::Error(flag + " needs a value (see --help)");
      return argv[++i];
    };
    auto is = [&](const std::string &flag) { return arg == flag || arg.rfind(flag + "=", 0) == 0; };
    if (arg == "--") {
      options.extraArgs = std::vector<std::string>(argv + i + 1, argv + argc);
      break;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(Usage, stdout);
      std::exit(roofcheck::ExitSuccess);
    } else if (arg == "--version") {
      std::printf("roofcheck-lint %s (%s)\n", roofcheck::Version, roofcheck::GitRevision);
      std::exit(roofcheck::ExitSuccess);
    } else if (arg == "-p" || is("-p")) {
      options.buildDir = value("-p");
    } else if (is("--json")) {
      options.jsonPath = value("--json");
    } else if (is("--kernel")) {
      options.kernels.insert(value("--kernel"));
    } else if (is("--grid")) {
      roofcheck::addDimensionBindings(options.bindings, "gridDim", roofcheck::parseDim3(value("--grid"), "--grid"));
    } else if (is("--block")) {
      roofcheck::addDimensionBindings(options.bindings, "blockDim", roofcheck::parseDim3(value("--block"), "--block"));
    } else if (is("--arg")) {
      roofcheck::addArgumentBinding(options.bindings, value("--arg"));
    } else if (is("--cuda-gpu-arch")) {
      options.gpuArch = value("--cuda-gpu-arch");
    } else if (is("--cuda-path")) {
      options.cudaPath = value("--cuda-path");
    } else if (!arg.empty() && arg[0] == '-') {
      throw roofcheck::Error("unknown option '" + arg + "' (see --help)");
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.files.empty())
    throw roofcheck::Error("no input file: give one or more CUDA files (see --help)");
  if (options.buildDir && options.extraArgs)
    throw roofcheck::Error("give either -p BUILD_DIR or compiler arguments after --, not both");
  return options;
}

bool selected(const roofcheck::lint::KernelSource &kernel, const std::set<std::string> &names) {
  if (names.empty())
    return true;
  std::string base = kernel.name.substr(0, kernel.name.find('<'));
  return names.count(kernel.name) || names.count(base) || names.count(kernel.mangled);
}

int lint(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  roofcheck::lint::DeviceCompileOptions compile;
  compile.gpuArch = options.gpuArch;
  compile.cudaPath = !options.cudaPath.empty()                      ? options.cudaPath
                     : std::getenv("CUDA_PATH") && *std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH")
                                                                            : "/usr/local/cuda";
  compile.resourceDir = ROOFCHECK_CLANG_RESOURCE_DIR;
  if (!std::filesystem::exists(compile.cudaPath + "/include/cuda_runtime.h"))
    throw roofcheck::Error("no CUDA installation at " + compile.cudaPath +
                           " (include/cuda_runtime.h is missing): pass --cuda-path DIR or set CUDA_PATH");

  std::vector<roofcheck::lint::KernelEstimate> estimates;
  std::string arch;
  std::set<std::string> seen;
  for (const std::string &file : options.files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      throw roofcheck::Error("cannot read " + file + ": no such file");
    std::vector<std::string> userFlags;
    std::string firstArch;
    if (options.buildDir)
      userFlags = roofcheck::lint::translateCompileCommand(
          roofcheck::lint::compileCommandFromDatabase(*options.buildDir, file), file, &firstArch);
    else if (options.extraArgs) {
      std::vector<std::string> command = {"clang++"};
      command.insert(command.end(), options.extraArgs->begin(), options.extraArgs->end());
      userFlags = roofcheck::lint::translateCompileCommand(command, file, &firstArch);
    }
    std::vector<std::string> line = roofcheck::lint::deviceCommandLine(userFlags, firstArch, file, compile);
    for (const std::string &a : line)
      if (a.rfind("--cuda-gpu-arch=", 0) == 0)
        arch = a.substr(16);
    roofcheck::lint::DeviceModule device = roofcheck::lint::compileDevice(line, file);
    if (device.kernels.empty())
      throw roofcheck::Error("no __global__ kernel in " + file + ": nothing to estimate");
    std::vector<roofcheck::lint::KernelSource> chosen;
    for (const roofcheck::lint::KernelSource &k : device.kernels)
      if (selected(k, options.kernels) && seen.insert(k.mangled).second)
        chosen.push_back(k);
    device.kernels = chosen;
    for (roofcheck::lint::KernelEstimate &e : roofcheck::lint::countKernels(device))
      estimates.push_back(std::move(e));
  }
  if (estimates.empty()) {
    std::string names;
    for (const std::string &n : options.kernels)
      names += (names.empty() ? "" : ", ") + n;
    throw roofcheck::Error("no kernel named " + names + " in the given files");
  }
  roofcheck::StaticDocument document = roofcheck::lint::buildStaticDocument(estimates, options.bindings, arch);
  roofcheck::attachClaimComments(document);
  if (options.jsonPath)
    roofcheck::saveStaticFile(*options.jsonPath, document);
  std::cout << roofcheck::lint::renderText(document);
  return roofcheck::ExitSuccess;
}

} // namespace

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck-lint", [&] { return lint(argc, argv); });
}
