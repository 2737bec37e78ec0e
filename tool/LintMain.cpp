// roofcheck-lint: estimates ideal FLOPs and bytes of every CUDA kernel from source (`roofcheck lint`).
#include "DeviceCompiler.h"
#include "FindingViews.h"
#include "KernelCounter.h"
#include "LintConfig.h"
#include "LintOutput.h"
#include "NvccArguments.h"
#include "PhaseTimes.h"
#include "Suppressions.h"
#include "rules/RuleEngine.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/Claims.h"
#include "roofcheck/Contracts.h"
#include "roofcheck/Error.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/Json.h"
#include "roofcheck/OptionReader.h"
#include "roofcheck/Version.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char *Usage =
    "usage: roofcheck lint [options] FILE... [-- COMPILER-ARGS...]\n"
    "       roofcheck lint -p BUILD_DIR [-j N] [FILE...]\n"
    "\n"
    "Estimates, for every __global__ kernel of each CUDA file, the FLOPs per bucket, the ideal (unique\n"
    "footprint) and predicted (sector-granular) DRAM bytes and the arithmetic intensity, as expressions in\n"
    "the kernel's parameters and launch dimensions, and reports what the rules find (--list-rules).\n"
    "\n"
    "options:\n"
    "  -p BUILD_DIR          take each file's compile command from BUILD_DIR/compile_commands.json (nvcc or\n"
    "                        clang); without FILE, lint every CUDA file of the database\n"
    "  -- ARGS...            compiler arguments for every file (nvcc flags are translated)\n"
    "  -j N                  lint N files at once, one process each (default 1)\n"
    "  --changed-files       the FILEs are the files a change touched: lint those that are CUDA translation\n"
    "                        units (in the database with -p; *.cu otherwise) and, with -p, the units that\n"
    "                        include a changed header; skip the rest (pre-commit)\n"
    "  --json FILE           write the roofcheck.static/1 document to FILE\n"
    "  --sarif FILE          write the findings as SARIF 2.1.0 to FILE\n"
    "  --quiet               print the findings only, not the estimates\n"
    "  --verbose             also print a note for every unknown (what the estimator could not follow) and the\n"
    "                        kernels instantiated from library headers (CUB, Thrust)\n"
    "  --rules LIST          rule patterns applied after the configuration's: '-*,roofcheck-claim'\n"
    "  --config FILE         the configuration to use instead of the nearest .roofcheck.yaml\n"
    "  --ceilings FILE       roofcheck.ceilings/1, to check `bound` claims (else the configuration's)\n"
    "  --list-rules          print the rules, whether the configuration enables them, and their options\n"
    "  --print-command       print each file's device compilation as a clang command, analyse nothing\n"
    "  --emit-ir FILE        write the device LLVM IR the estimates are counted from (inlined and simplified)\n"
    "                        to FILE; one input file only\n"
    "  --kernel NAME         analyse only kernels with this name (with or without template arguments); repeatable\n"
    "  --grid X[,Y[,Z]]      bind gridDim (missing dimensions are 1)\n"
    "  --block X[,Y[,Z]]     bind blockDim (missing dimensions are 1)\n"
    "  --arg NAME=VALUE      bind a kernel parameter; repeatable\n"
    "  --cuda-gpu-arch ARCH  the one device compilation to analyse (default: the command's first, else the\n"
    "                        configuration's gpu-arch, else sm_90)\n"
    "  --cuda-path DIR       the CUDA installation (default: $CUDA_PATH, else /usr/local/cuda)\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 no findings, 1 findings, 2 error (bad input, nothing written)\n";

struct Options {
  std::vector<std::string> files;
  std::optional<std::string> buildDir;
  std::optional<std::vector<std::string>> extraArgs; ///< after --
  std::optional<std::string> jsonPath;
  std::optional<std::string> sarifPath;
  std::optional<std::string> irPath;
  std::optional<std::string> configPath;
  std::optional<std::string> ceilingsPath;
  std::string rulePatterns;
  std::set<std::string> kernels;
  roofcheck::Bindings bindings;
  std::string gpuArch;
  std::string cudaPath;
  int jobs = 1;
  bool quiet = false;
  bool verbose = false;
  bool changedFiles = false;
  bool listRules = false;
  bool printCommand = false;
  std::string program;                ///< argv[0]
  std::vector<std::string> arguments; ///< argv[1..], as given: what a -j worker is started with
  std::optional<size_t> workerFile;   ///< a -j worker: the index of the one file it lints
  std::optional<std::string> workerResult; ///< a -j worker: where its result goes
};

int parseJobs(const std::string &text) {
  char *end = nullptr;
  long jobs = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || jobs < 1 || jobs > 256)
    throw roofcheck::Error("-j needs a number of processes from 1 to 256, not '" + text + "'");
  return static_cast<int>(jobs);
}

Options parseOptions(int argc, char **argv) {
  Options options;
  options.program = argv[0];
  options.arguments.assign(argv + 1, argv + argc);
  roofcheck::OptionReader reader(options.arguments, "roofcheck lint --help");
  while (reader.next()) {
    const std::string &arg = reader.argument();
    if (arg == "--") {
      options.extraArgs = reader.rest();
      break;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(Usage, stdout);
      std::exit(roofcheck::ExitSuccess);
    } else if (arg == "--version") {
      std::printf("roofcheck-lint %s (%s)\n", roofcheck::Version, roofcheck::GitRevision);
      std::exit(roofcheck::ExitSuccess);
    } else if (reader.is("-p")) {
      options.buildDir = reader.value("-p");
    } else if (arg.rfind("-j", 0) == 0 && arg != "-j" && arg.find('=') == std::string::npos) {
      options.jobs = parseJobs(arg.substr(2));
    } else if (reader.is("-j")) {
      options.jobs = parseJobs(reader.value("-j"));
    } else if (arg == "--changed-files") {
      options.changedFiles = true;
    } else if (arg == "--quiet" || arg == "-q") {
      options.quiet = true;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (arg == "--list-rules") {
      options.listRules = true;
    } else if (arg == "--print-command") {
      options.printCommand = true;
    } else if (reader.is("--json")) {
      options.jsonPath = reader.value("--json");
    } else if (reader.is("--sarif")) {
      options.sarifPath = reader.value("--sarif");
    } else if (reader.is("--emit-ir")) {
      options.irPath = reader.value("--emit-ir");
    } else if (reader.is("--config")) {
      options.configPath = reader.value("--config");
    } else if (reader.is("--ceilings")) {
      options.ceilingsPath = reader.value("--ceilings");
    } else if (reader.is("--rules")) {
      options.rulePatterns += (options.rulePatterns.empty() ? "" : ",") + reader.value("--rules");
    } else if (reader.is("--kernel")) {
      options.kernels.insert(reader.value("--kernel"));
    } else if (reader.is("--grid")) {
      roofcheck::addDimensionBindings(options.bindings, "gridDim",
                                      roofcheck::parseDim3(reader.value("--grid"), "--grid"));
    } else if (reader.is("--block")) {
      roofcheck::addDimensionBindings(options.bindings, "blockDim",
                                      roofcheck::parseDim3(reader.value("--block"), "--block"));
    } else if (reader.is("--arg")) {
      roofcheck::addArgumentBinding(options.bindings, reader.value("--arg"));
    } else if (reader.is("--cuda-gpu-arch")) {
      options.gpuArch = reader.value("--cuda-gpu-arch");
    } else if (reader.is("--cuda-path")) {
      options.cudaPath = reader.value("--cuda-path");
    } else if (reader.is("--worker-file")) { // how -j starts its processes; not for users
      std::string index = reader.value("--worker-file");
      char *end = nullptr;
      options.workerFile = std::strtoul(index.c_str(), &end, 10);
      if (index.empty() || *end != '\0')
        throw roofcheck::Error("--worker-file needs a file index, not '" + index + "'");
    } else if (reader.is("--worker-result")) {
      options.workerResult = reader.value("--worker-result");
    } else if (!arg.empty() && arg[0] == '-') {
      reader.rejectUnknown();
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.buildDir && options.extraArgs)
    throw roofcheck::Error("give either -p BUILD_DIR or compiler arguments after --, not both");
  if (options.files.empty() && options.buildDir && !options.changedFiles)
    options.files = roofcheck::lint::cudaSourcesInDatabase(*options.buildDir);
  if (options.files.empty() && !options.listRules && !options.changedFiles)
    throw roofcheck::Error("no input file: give one or more CUDA files, or -p BUILD_DIR (see --help)");
  if (options.irPath && (options.files.size() != 1 || options.changedFiles))
    throw roofcheck::Error("--emit-ir writes the IR of one file: give exactly one input file");
  return options;
}

bool selected(const roofcheck::lint::KernelSource &kernel, const std::set<std::string> &names) {
  if (names.empty())
    return true;
  std::string base = kernel.name.substr(0, kernel.name.find('<'));
  return names.count(kernel.name) || names.count(base) || names.count(kernel.mangled) || names.count(kernel.symbol);
}

roofcheck::lint::LintConfig configFor(const std::string &file, const Options &options) {
  roofcheck::lint::LintConfig config;
  if (options.configPath)
    config = roofcheck::lint::loadConfig(*options.configPath);
  else if (std::optional<std::string> found = roofcheck::lint::findConfig(file))
    config = roofcheck::lint::loadConfig(*found);
  roofcheck::lint::applyRulePatterns(config, options.rulePatterns);
  return config;
}

/// The file whose configuration applies to the run as a whole (--list-rules, the SARIF rule list): the first
/// one given, else a file in the working directory.
std::string runConfigAnchor(const Options &options) {
  return options.files.empty() ? (std::filesystem::current_path() / "any.cu").string() : options.files.front();
}

/// What linting one file produced; crosses the process boundary of -j as JSON.
struct FileResult {
  roofcheck::StaticDocument document; ///< the file's kernels
  std::vector<roofcheck::lint::Finding> findings;
  int suppressed = 0;
  std::vector<std::string> warnings;
  /// What the front end worked around (host code clang rejects, a compiler flag clang does not know).
  std::vector<std::string> notes;
  std::string skipped; ///< why a changed file is not linted; "" when it is
  std::string ir;      ///< the device IR counted from, with --emit-ir (never crosses to a -j parent)
};

roofcheck::Json toJson(const FileResult &r) {
  roofcheck::Json findings = roofcheck::Json::array();
  for (const roofcheck::lint::Finding &f : r.findings)
    findings.push_back(roofcheck::lint::toJson(f));
  return {{"document", roofcheck::toJson(r.document)},
          {"findings", findings},
          {"suppressed", r.suppressed},
          {"warnings", r.warnings},
          {"notes", r.notes},
          {"skipped", r.skipped}};
}

FileResult fileResultFromJson(const roofcheck::Json &json, const std::string &file) {
  FileResult r;
  r.document = roofcheck::staticFromJson(json.at("document"), file);
  for (const roofcheck::Json &f : json.at("findings"))
    r.findings.push_back(roofcheck::lint::findingFromJson(f));
  r.suppressed = json.at("suppressed").get<int>();
  r.warnings = json.at("warnings").get<std::vector<std::string>>();
  r.notes = json.at("notes").get<std::vector<std::string>>();
  r.skipped = json.at("skipped").get<std::string>();
  return r;
}

/// The whole file; nullopt when it cannot be opened or a read fails.
std::optional<std::string> readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  if (in)
    buffer << in.rdbuf();
  if (!in || in.bad())
    return std::nullopt;
  return buffer.str();
}

/// The suppression comments of a file; a file that cannot be read is a warning, as its suppressions are lost.
std::vector<roofcheck::lint::Suppression> suppressionsIn(const std::string &path, const std::string &name,
                                                         std::vector<std::string> &warnings) {
  std::optional<std::string> text = readText(path);
  if (!text) {
    warnings.push_back("cannot read " + name + " for its suppression comments: its findings are all reported");
    return {};
  }
  return roofcheck::lint::findSuppressions(*text, name, warnings);
}

/// How the device compilation names the file: absolutely for a database command, which runs in its entry's
/// directory (-working-directory); as given otherwise.
std::string sourceName(const std::string &file, const Options &options) {
  return options.buildDir ? std::filesystem::absolute(file).lexically_normal().string() : file;
}

/// The clang command line of the file's device compilation: the database's command or the arguments after
/// --, translated. When the database has no command for the file: empty with --changed-files (the file is
/// skipped), roofcheck::Error otherwise.
std::vector<std::string> deviceCommandFor(const std::string &source, const Options &options,
                                          const roofcheck::lint::DeviceCompileOptions &compile,
                                          const roofcheck::lint::LintConfig &config) {
  std::vector<std::string> userFlags;
  std::string firstArch;
  if (options.buildDir) {
    // A database that cannot be read is an error even for --changed-files; a file it does not compile is
    // skipped there (a header, a script in the same commit).
    std::vector<std::string> command = roofcheck::lint::compileCommandFromDatabase(*options.buildDir, source);
    if (command.empty() && options.changedFiles)
      return {};
    if (command.empty())
      throw roofcheck::Error("no compile command for " + source + " in " + *options.buildDir +
                             "/compile_commands.json: build the file there first or pass compiler arguments after --");
    userFlags = roofcheck::lint::translateCompileCommand(command, source, &firstArch);
  } else if (options.extraArgs) {
    std::vector<std::string> command = {"clang++"};
    command.insert(command.end(), options.extraArgs->begin(), options.extraArgs->end());
    userFlags = roofcheck::lint::translateCompileCommand(command, source, &firstArch);
  }
  return roofcheck::lint::deviceCommandLine(userFlags, firstArch.empty() ? config.gpuArch : firstArch, source,
                                            compile);
}

/// --print-command: each file's device compilation as a shell command (the tool's own header, which lives in
/// memory, left out), for reproducing what the front end sees with clang itself.
void printCommands(const Options &options, const roofcheck::lint::DeviceCompileOptions &compile) {
  for (const std::string &file : options.files) {
    std::string line;
    for (const std::string &word : deviceCommandFor(sourceName(file, options), options, compile,
                                                    configFor(file, options))) {
      bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_=+./,:@%") == std::string::npos;
      std::string quoted = "'";
      for (char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += (line.empty() ? "" : " ") + (plain ? word : quoted + "'");
    }
    std::printf("%s\n", line.c_str());
  }
}

FileResult lintFile(const std::string &file, const Options &options,
                    const roofcheck::lint::DeviceCompileOptions &compile) {
  FileResult result;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw roofcheck::Error("cannot read " + file + ": no such file");
  if (!std::filesystem::is_regular_file(file, ec))
    throw roofcheck::Error("cannot read " + file + ": not a regular file");
  bool isCudaSource = std::filesystem::path(file).extension() == ".cu";
  if (options.changedFiles && !options.buildDir && !isCudaSource) {
    result.skipped = "not a .cu file";
    return result;
  }
  roofcheck::lint::LintConfig config = configFor(file, options);
  // A database command runs in its entry's directory (-working-directory): the file is named absolutely.
  const std::string source = sourceName(file, options);
  std::vector<std::string> line = deviceCommandFor(source, options, compile, config);
  if (line.empty()) {
    result.skipped = "no compile command in " + *options.buildDir;
    return result;
  }
  roofcheck::lint::PhaseReport timeReport(roofcheck::lint::reportsTimes(line));
  std::string arch;
  for (const std::string &a : line)
    if (a.rfind("--cuda-gpu-arch=", 0) == 0)
      arch = a.substr(16);
  roofcheck::lint::DeviceModule device = roofcheck::lint::compileDevice(line, source);
  if (options.irPath) {
    llvm::raw_string_ostream stream(result.ir);
    device.module->print(stream, nullptr);
  }
  // Host code left out can take kernel launches with it (their templates are then never instantiated): say
  // what was left out, so that a file that loses its kernels says why.
  for (const std::string &worked : device.recoveredErrors)
    result.notes.push_back(worked.find("dropped '") != std::string::npos
                               ? worked
                               : "left out the host code clang rejects: " + worked);
  if (device.kernels.empty()) {
    // `roofcheck lint src/*.cu` meets host-only files: nothing to estimate there is not an error.
    result.skipped = "no __global__ kernel";
    return result;
  }
  std::vector<roofcheck::lint::KernelSource> chosen;
  for (const roofcheck::lint::KernelSource &k : device.kernels)
    if (selected(k, options.kernels))
      chosen.push_back(k);
  device.kernels = chosen;
  std::vector<roofcheck::lint::KernelEstimate> estimates;
  {
    roofcheck::lint::PhaseTimer timer("counting", "counting FLOPs and bytes of each kernel", timeReport.enabled());
    estimates = roofcheck::lint::countKernels(device);
  }
  result.document = roofcheck::lint::buildStaticDocument(estimates, options.bindings, arch, &result.warnings);
  for (const std::string &unread : roofcheck::attachClaimComments(result.document))
    result.warnings.push_back("cannot read " + unread + ", where kernels are defined: their claim comments are "
                              "not checked");

  std::optional<roofcheck::CeilingsDocument> ceilings;
  if (options.ceilingsPath || !config.ceilings.empty())
    ceilings = roofcheck::loadCeilingsFile(options.ceilingsPath ? *options.ceilingsPath : config.ceilings);
  roofcheck::lint::PhaseTimer rulesTimer("rules", "rules, suppressions", timeReport.enabled());
  result.findings = roofcheck::lint::runRules(estimates, result.document, options.bindings, config,
                                              ceilings ? &*ceilings : nullptr);
  // Suppression comments count where the findings are: in the linted file and in the headers that hold
  // the code a finding is about.
  std::vector<roofcheck::lint::Suppression> suppressions = suppressionsIn(file, source, result.warnings);
  std::set<std::string> headers;
  for (const roofcheck::lint::Finding &f : result.findings)
    if (!f.where.file.empty() && f.where.file != source && std::filesystem::is_regular_file(f.where.file, ec))
      headers.insert(f.where.file);
  for (const std::string &header : headers) {
    std::vector<roofcheck::lint::Suppression> more = suppressionsIn(header, header, result.warnings);
    suppressions.insert(suppressions.end(), more.begin(), more.end());
  }
  result.suppressed = roofcheck::lint::applySuppressions(result.findings, suppressions, result.document.kernels);
  return result;
}

/// --changed-files with a database: a changed header stands for the database's CUDA units that include it
/// (a header none includes stays, to be skipped with its reason). Each unit once, however it was named.
std::vector<std::string> unitsForChangedFiles(const std::string &buildDir, const std::vector<std::string> &files) {
  static const std::set<std::string> headerExtensions = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc"};
  std::vector<std::string> units;
  std::set<std::string> seen;
  auto add = [&](const std::string &file) {
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(file, ec);
    if (seen.insert((ec ? std::filesystem::path(file) : absolute).lexically_normal().string()).second)
      units.push_back(file);
  };
  std::vector<std::string> headers;
  for (const std::string &file : files)
    if (headerExtensions.count(std::filesystem::path(file).extension().string()))
      headers.push_back(file);
  std::set<std::string> unreadable;
  std::map<std::string, std::vector<std::string>> including =
      roofcheck::lint::cudaSourcesIncluding(buildDir, headers, unreadable);
  for (const std::string &file : unreadable)
    std::fprintf(stderr,
                 "roofcheck-lint: warning: cannot read %s; a changed header included only through it is not "
                 "traced to its units\n",
                 file.c_str());
  for (const std::string &file : files) {
    auto it = including.find(file);
    if (it == including.end() || it->second.empty())
      add(file);
    else
      for (const std::string &unit : it->second)
        add(unit);
  }
  return units;
}

/// The worker processes of -j and their scratch folder. However the run ends (an error included), the
/// workers still running are stopped and waited for, and the folder goes.
class LintWorkers {
public:
  struct Running {
    llvm::sys::ProcessInfo process;
    size_t file;
  };

  LintWorkers() {
    llvm::SmallString<128> dir;
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("roofcheck-lint", dir))
      throw roofcheck::Error("cannot make a temporary directory for -j: " + ec.message());
    dir_ = std::string(dir);
  }
  ~LintWorkers() {
    for (const Running &r : running)
      ::kill(r.process.Pid, SIGTERM);
    for (const Running &r : running)
      llvm::sys::Wait(r.process, std::nullopt);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  LintWorkers(const LintWorkers &) = delete;
  LintWorkers &operator=(const LintWorkers &) = delete;

  std::string resultPath(size_t file) const { return dir_ + "/" + std::to_string(file) + ".json"; }

  std::vector<Running> running;

private:
  std::string dir_;
};

/// Lints the files in `jobs` processes at once, each this program run again on one file of the same
/// command line (a fresh process: no fork of a running LLVM); results in the order of the files. The first
/// error, in file order, is thrown once every process has ended.
std::vector<FileResult> lintInParallel(const Options &options) {
  std::string self = llvm::sys::fs::getMainExecutable(options.program.c_str(), reinterpret_cast<void *>(&readText));
  if (self.empty())
    throw roofcheck::Error("cannot find this program's own path to start the -j processes");
  LintWorkers workers;

  // Largest files first, so that a big file does not start last and leave the other processes idle.
  std::vector<size_t> order(options.files.size());
  std::vector<uintmax_t> sizes(options.files.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    std::error_code ec;
    sizes[i] = std::filesystem::file_size(options.files[i], ec);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });

  std::vector<std::string> ended(options.files.size()); // how a process ended that wrote no result
  size_t started = 0;
  while (started < order.size() || !workers.running.empty()) {
    while (started < order.size() && static_cast<int>(workers.running.size()) < options.jobs) {
      size_t next = order[started++];
      std::vector<std::string> args = {self, "--worker-file", std::to_string(next), "--worker-result",
                                       workers.resultPath(next)};
      args.insert(args.end(), options.arguments.begin(), options.arguments.end());
      std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
      std::string error;
      bool failed = false;
      llvm::sys::ProcessInfo process =
          llvm::sys::ExecuteNoWait(self, argRefs, std::nullopt, {}, 0, &error, &failed);
      if (failed)
        throw roofcheck::Error("cannot start a lint process: " + error);
      workers.running.push_back({process, next});
    }
    bool anyEnded = false;
    for (auto it = workers.running.begin(); it != workers.running.end();) {
      std::string error;
      llvm::sys::ProcessInfo done = llvm::sys::Wait(it->process, 0, &error);
      if (done.Pid == 0) { // still running
        ++it;
        continue;
      }
      if (done.ReturnCode < 0)
        ended[it->file] = error.empty() ? "it ended abnormally" : error;
      it = workers.running.erase(it);
      anyEnded = true;
    }
    if (!anyEnded)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  std::vector<FileResult> results;
  for (size_t i = 0; i < options.files.size(); ++i) {
    const std::string &file = options.files[i];
    if (!ended[i].empty())
      throw roofcheck::Error("linting " + file + " crashed (" + ended[i] + ")");
    roofcheck::Json json =
        roofcheck::Json::parse(readText(workers.resultPath(i)).value_or(""), nullptr, false);
    if (json.is_discarded() || (json.contains("error") && !json.at("error").is_string()))
      throw roofcheck::Error("linting " + file + " ended without a result");
    if (json.contains("error"))
      throw roofcheck::Error(json.at("error").get<std::string>());
    results.push_back(fileResultFromJson(json, file));
  }
  return results;
}

/// A -j worker: lints one file of the command line and writes what it found, or its error, as JSON.
int lintOneFileForTheParent(const Options &options, const roofcheck::lint::DeviceCompileOptions &compile) {
  roofcheck::Json out;
  int code = roofcheck::ExitSuccess;
  try {
    if (*options.workerFile >= options.files.size())
      throw roofcheck::Error("--worker-file " + std::to_string(*options.workerFile) + ": there are only " +
                             std::to_string(options.files.size()) + " files");
    out = toJson(lintFile(options.files[*options.workerFile], options, compile));
  } catch (const std::exception &e) {
    out = {{"error", e.what()}};
    code = roofcheck::ExitBadInput;
  }
  roofcheck::writeJsonFile(*options.workerResult, out);
  return code;
}

void listRules(const Options &options) {
  roofcheck::lint::LintConfig config = configFor(runConfigAnchor(options), options);
  for (const auto &rule : roofcheck::lint::allRules()) {
    std::printf("%-32s %-8s %s\n", rule->id().c_str(), config.enabled(rule->id()) ? "enabled" : "disabled",
                rule->summary().c_str());
    roofcheck::lint::RuleSettings settings(config.options);
    for (const roofcheck::lint::RuleOption &option : rule->options())
      std::printf("%-32s   %s.%s = %s: %s\n", "", rule->id().c_str(), option.name.c_str(),
                  roofcheck::lint::formatNumber(settings.option(rule->id(), option)).c_str(),
                  option.description.c_str());
  }
  if (!config.path.empty())
    std::printf("configuration: %s\n", config.path.c_str());
}

int lint(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  if (options.listRules) {
    listRules(options);
    return roofcheck::ExitSuccess;
  }
  roofcheck::lint::DeviceCompileOptions compile;
  compile.gpuArch = options.gpuArch;
  compile.cudaPath = !options.cudaPath.empty()                      ? options.cudaPath
                     : std::getenv("CUDA_PATH") && *std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH")
                                                                            : "/usr/local/cuda";
  compile.resourceDir = ROOFCHECK_CLANG_RESOURCE_DIR;
  // nvcc's default host compiler on Linux; CUDAHOSTCXX names another, as CMake's CUDA support reads it.
  const char *hostCompilerVariable = std::getenv("CUDAHOSTCXX");
  const std::string hostCompiler =
      hostCompilerVariable && *hostCompilerVariable ? hostCompilerVariable : "g++";
  std::string noHostHeaders;
  compile.hostIncludeDirs = roofcheck::lint::hostCompilerIncludeDirectories(hostCompiler, noHostHeaders);
  const bool worker = options.workerFile && options.workerResult;
  if (!noHostHeaders.empty() && !worker) // the parent has said it
    std::fprintf(stderr,
                 "roofcheck-lint: warning: host compiler %s%s: %s; its own headers (omp.h, the x86 intrinsics) are "
                 "not searched\n",
                 hostCompiler.c_str(), hostCompilerVariable && *hostCompilerVariable ? " (CUDAHOSTCXX)" : "",
                 noHostHeaders.c_str());
  if (!std::filesystem::exists(compile.cudaPath + "/include/cuda_runtime.h"))
    throw roofcheck::Error("no CUDA installation at " + compile.cudaPath +
                           " (include/cuda_runtime.h is missing): pass --cuda-path DIR or set CUDA_PATH");

  if (options.printCommand) {
    printCommands(options, compile);
    return roofcheck::ExitSuccess;
  }
  if (options.changedFiles && options.buildDir)
    options.files = unitsForChangedFiles(*options.buildDir, options.files);
  if (worker)
    return lintOneFileForTheParent(options, compile);
  std::vector<FileResult> results;
  if (options.jobs > 1 && options.files.size() > 1)
    results = lintInParallel(options);
  else
    for (const std::string &file : options.files)
      results.push_back(lintFile(file, options, compile));

  // One document and one list of findings; a kernel defined in a header shared by two files counts once.
  roofcheck::StaticDocument document = roofcheck::lint::buildStaticDocument({}, options.bindings, "");
  std::vector<roofcheck::lint::Finding> findings;
  std::set<std::string> seenKernels;
  std::set<std::string> seenFindings;
  int suppressed = 0, linted = 0, skipped = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    FileResult &r = results[i];
    for (const std::string &n : r.notes)
      std::fprintf(stderr, "roofcheck-lint: note: %s\n", n.c_str());
    if (!r.skipped.empty()) {
      ++skipped;
      if (!options.changedFiles)
        std::fprintf(stderr, "roofcheck-lint: note: %s: %s, nothing to estimate\n", options.files[i].c_str(),
                     r.skipped.c_str());
      continue;
    }
    ++linted;
    if (!r.document.arch.empty())
      document.arch = r.document.arch;
    for (roofcheck::StaticKernel &k : r.document.kernels)
      if (seenKernels.insert(k.mangled).second)
        document.kernels.push_back(std::move(k));
    for (roofcheck::lint::Finding &f : r.findings)
      if (seenFindings.insert(roofcheck::lint::toJson(f).dump()).second)
        findings.push_back(std::move(f));
    suppressed += r.suppressed;
    for (const std::string &w : r.warnings)
      std::fprintf(stderr, "roofcheck-lint: warning: %s\n", w.c_str());
  }
  roofcheck::lint::sortFindings(findings);
  if (document.kernels.empty() && !options.kernels.empty()) {
    std::string names;
    for (const std::string &n : options.kernels)
      names += (names.empty() ? "" : ", ") + n;
    throw roofcheck::Error("no kernel named " + names + " in the given files");
  }

  roofcheck::lint::SourceLines sources;
  if (options.sarifPath) {
    std::vector<const roofcheck::lint::Rule *> ran;
    roofcheck::lint::LintConfig config = configFor(runConfigAnchor(options), options);
    for (const auto &rule : roofcheck::lint::allRules())
      if (config.enabled(rule->id()))
        ran.push_back(rule.get());
    roofcheck::writeJsonFile(*options.sarifPath,
                             roofcheck::lint::sarifLog(findings, ran, std::filesystem::current_path().string(), sources));
  }
  if (options.jsonPath)
    roofcheck::saveStaticFile(*options.jsonPath, document);
  if (options.irPath && !results.empty())
    roofcheck::writeFileAtomically(*options.irPath, results.front().ir);
  if (!options.quiet) {
    std::cout << roofcheck::lint::renderText(document, options.verbose);
    long library = std::count_if(document.kernels.begin(), document.kernels.end(),
                                 [](const roofcheck::StaticKernel &k) { return k.library; });
    if (library > 0 && !options.verbose)
      std::fprintf(stderr,
                   "roofcheck-lint: note: %ld kernel%s from library headers (CUB, Thrust) estimated, not linted: "
                   "--verbose prints %s, --json writes %s\n",
                   library, library == 1 ? "" : "s", library == 1 ? "it" : "them", library == 1 ? "it" : "them");
  }
  std::cout << roofcheck::lint::renderDiagnostics(findings, sources);
  if (options.verbose)
    std::cout << roofcheck::lint::renderUnknownNotes(document);
  std::cout << std::flush;
  if (!findings.empty() || suppressed > 0 || (skipped > 0 && options.changedFiles)) {
    int errors = 0;
    for (const roofcheck::lint::Finding &f : findings)
      errors += f.severity == roofcheck::lint::Severity::Error;
    std::fprintf(stderr, "roofcheck-lint: %zu finding%s (%d error%s), %d suppressed, in %d file%s linted, %d skipped\n",
                 findings.size(), findings.size() == 1 ? "" : "s", errors, errors == 1 ? "" : "s", suppressed, linted,
                 linted == 1 ? "" : "s", skipped);
  }
  return findings.empty() ? roofcheck::ExitSuccess : roofcheck::ExitFindings;
}

} // namespace

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck-lint", [&] { return lint(argc, argv); });
}
