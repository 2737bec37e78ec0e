// roofcheck-run: runs a program with the CUPTI shim injected, passes its standard streams, signals and exit
// status through, and prints one summary line on stderr at the end.
#include "ChildEnvironment.h"
#include "MeasuredOutput.h"
#include "RunOptions.h"

#include "roofcheck/Error.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

using namespace roofcheck;
using namespace roofcheck::runtime;

volatile sig_atomic_t childPid = 0;

constexpr int forwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

// A signal sent to the launcher by another process goes on to the program. One the terminal sends to the
// whole foreground group already reached the program, so it is not sent twice.
void forwardSignal(int signal, siginfo_t *info, void *) {
  pid_t child = childPid;
  if (child <= 0 || !info)
    return;
  bool fromProcess = info->si_code == SI_USER || info->si_code == SI_QUEUE || info->si_code == SI_TKILL;
  if (fromProcess && info->si_pid != child)
    ::kill(child, signal);
}

std::string injectLibraryPath() {
  if (const char *explicitPath = std::getenv("ROOFCHECK_INJECT_LIBRARY"); explicitPath && *explicitPath)
    return explicitPath;
  std::error_code ec;
  auto path = std::filesystem::weakly_canonical(
      roofcheck::executableDirectory() + "/../lib/roofcheck/libroofcheck-inject.so", ec);
  return path.string();
}

/// Where CUDA_HOME's toolkit keeps a CUPTI library the loader did not find ("libcupti.so.13"); "" when
/// CUDA_HOME is unset or has none. The library is loaded here, so that the shim's own load finds it.
std::string cuptiFolderFromCudaHome(const std::string &library) {
  const char *home = std::getenv("CUDA_HOME");
  if (!home || !*home)
    return "";
  for (const char *folder : {"/extras/CUPTI/lib64", "/lib64"}) {
    std::string dir = std::string(home) + folder;
    if (::dlopen((dir + "/" + library).c_str(), RTLD_NOW | RTLD_GLOBAL))
      return dir;
  }
  return "";
}

/// Loads the shim in the launcher without starting it (CUDA calls its InitializeInjection, the loader does
/// not), so that a CUPTI the loader cannot find is one line here rather than a program that runs
/// unmeasured. A CUPTI outside the library path is looked for in CUDA_HOME; its folder then goes into
/// cuptiFolder, for the program's library path. Returns the CUPTI the loader resolved for the shim, which
/// NVTX's injection then uses too; "" when there is no CUDA driver (libcuda.so.1), where the program fails
/// on its own as it always does.
std::string cuptiOfShim(const std::string &inject, std::string &warning, std::string &cuptiFolder) {
  void *handle = ::dlopen(inject.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!handle) {
    std::string why = ::dlerror();
    if (why.find("libcuda.so") != std::string::npos) {
      warning = "no CUDA driver (" + why + "): nothing can be measured";
      return "";
    }
    bool cupti = why.rfind("libcupti", 0) == 0;
    if (cupti)
      cuptiFolder = cuptiFolderFromCudaHome(why.substr(0, why.find(':')));
    if (!cuptiFolder.empty())
      handle = ::dlopen(inject.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle)
      throw Error("cannot load the shim: " + why +
                  (cupti ? "; CUPTI comes with the CUDA toolkit (extras/CUPTI/lib64): set CUDA_HOME to the "
                           "toolkit, or add that folder to LD_LIBRARY_PATH"
                         : ""));
  }
  std::string cupti;
  struct link_map *loaded = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &loaded) == 0) {
    while (loaded && loaded->l_prev)
      loaded = loaded->l_prev;
    for (; loaded; loaded = loaded->l_next)
      if (loaded->l_name && std::strstr(loaded->l_name, "/libcupti.so"))
        cupti = loaded->l_name;
  }
  ::dlclose(handle);
  return cupti;
}

std::string checkedOutputDir(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Error("output directory '" + dir + "' does not exist: create it or pass another --output-dir");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw Error("output directory '" + dir + "' is not writable: pass another --output-dir");
  std::error_code ec;
  auto absolute = std::filesystem::canonical(dir, ec);
  return ec ? dir : absolute.string();
}

/// The wait status of child `pid`. A wait that fails for another reason than a signal (ECHILD where the
/// launcher was started with SIGCHLD ignored) is an error: a status of 0 would read as success.
int waitForChild(pid_t pid, const std::string &what) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw Error("cannot wait for " + what + ": " + std::strerror(errno) +
                  (errno == ECHILD ? " (was roofcheck started with SIGCHLD ignored?)" : ""));
  return status;
}

std::string reportProgram() { return roofcheck::executableDirectory() + "/roofcheck-report"; }

// Before the program runs, so that a typo costs no run.
void checkReportInputs(const ReportRequest &report) {
  if (::access(reportProgram().c_str(), X_OK) != 0)
    throw Error("--report: roofcheck report is not part of this build (" + reportProgram() + " is missing)");
  auto readable = [](const std::string &option, const std::string &path) {
    if (::access(path.c_str(), R_OK) != 0)
      throw Error(option + " " + path + ": cannot read: " + std::strerror(errno));
  };
  for (const std::string &path : report.staticFiles)
    readable("--static", path);
  if (report.ceilings)
    readable("--ceilings", *report.ceilings);
}

// `roofcheck report` on what the run wrote; its output follows the program's. A report that fails is
// one warning: the run itself went through.
void runReport(const ReportRequest &report, const std::vector<FileSummary> &files) {
  if (files.empty()) {
    std::fprintf(stderr, "roofcheck-run: warning: --report: no measured file was written, so there is no report\n");
    return;
  }
  std::vector<std::string> args{reportProgram()};
  if (!report.staticFiles.empty()) {
    args.push_back("--static");
    args.insert(args.end(), report.staticFiles.begin(), report.staticFiles.end());
  }
  args.push_back("--measured");
  for (const FileSummary &f : files)
    args.push_back(f.path);
  if (report.ceilings) {
    args.push_back("--ceilings");
    args.push_back(*report.ceilings);
  }
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "roofcheck-run: warning: --report: cannot fork: %s\n", std::strerror(errno));
    return;
  }
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    std::fprintf(stderr, "roofcheck-run: warning: --report: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  try {
    status = waitForChild(pid, "roofcheck report");
  } catch (const Error &e) {
    std::fprintf(stderr, "roofcheck-run: warning: --report: %s\n", e.what());
    return;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    std::fprintf(stderr, "roofcheck-run: warning: --report: roofcheck report exited with %d; the measured files stay\n",
                 WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    std::fprintf(stderr, "roofcheck-run: warning: --report: roofcheck report ended by signal %d\n", WTERMSIG(status));
}

int run(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  RunCommandLine line = parseRunCommandLine(args);
  if (line.help) {
    std::fputs(runUsage().c_str(), stdout);
    return ExitSuccess;
  }
  if (line.version) {
    std::printf("roofcheck-run %s (%s)\n", roofcheck::Version, roofcheck::GitRevision);
    return ExitSuccess;
  }
  RunOptions options = line.options;
  options.outputDir = checkedOutputDir(options.outputDir);
  if (line.report.wanted)
    checkReportInputs(line.report);
  std::string inject = injectLibraryPath();
  if (::access(inject.c_str(), R_OK) != 0)
    throw Error("the shim " + inject + " is missing: build the roofcheck-inject target (or set ROOFCHECK_INJECT_LIBRARY)");
  options.session = std::to_string(::getpid()) + "-" +
                    std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());

  std::string noDriver, cuptiFolder;
  std::string cupti = cuptiOfShim(inject, noDriver, cuptiFolder);
  if (!noDriver.empty())
    std::fprintf(stderr, "roofcheck-run: warning: %s\n", noDriver.c_str());

  std::vector<std::string> parentEnv;
  for (char **e = environ; *e; ++e)
    parentEnv.emplace_back(*e);
  ChildEnvironment env = buildChildEnvironment(parentEnv, options, inject, cupti);
  if (!cuptiFolder.empty())
    appendLibraryFolder(env.variables, cuptiFolder);
  if (env.warning)
    std::fprintf(stderr, "roofcheck-run: warning: %s\n", env.warning->c_str());

  std::vector<char *> childArgv, childEnv;
  for (std::string &a : line.program)
    childArgv.push_back(a.data());
  childArgv.push_back(nullptr);
  for (std::string &v : env.variables)
    childEnv.push_back(v.data());
  childEnv.push_back(nullptr);

  struct sigaction forward {};
  forward.sa_sigaction = forwardSignal;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  std::vector<int> forwarded;
  for (int s : forwardedSignals) {
    struct sigaction current {};
    if (::sigaction(s, nullptr, &current) == 0 && current.sa_handler == SIG_IGN)
      continue; // ignored where roofcheck was started (nohup): the program inherits that, as without us
    ::sigaction(s, &forward, nullptr);
    forwarded.push_back(s);
  }

  int execPipe[2];
  if (::pipe2(execPipe, O_CLOEXEC) != 0)
    throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t launcher = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    throw Error(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(execPipe[0]);
    // Until exec the forwarding handlers would swallow the program's signals.
    for (int s : forwarded)
      ::signal(s, SIG_DFL);
    // The program must not outlive a launcher that is killed (SIGKILL cannot be forwarded): it then gets
    // SIGTERM, as from a forwarded one. A launcher that died before this line is caught by the check.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher)
      ::_exit(128 + SIGTERM);
    ::execvpe(childArgv[0], childArgv.data(), childEnv.data());
    int error = errno;
    ssize_t ignored = ::write(execPipe[1], &error, sizeof error);
    (void)ignored;
    ::_exit(127);
  }
  childPid = pid;
  ::close(execPipe[1]);
  int execError = 0;
  ssize_t got;
  do
    got = ::read(execPipe[0], &execError, sizeof execError);
  while (got < 0 && errno == EINTR);
  ::close(execPipe[0]);

  int status = waitForChild(pid, "'" + line.program[0] + "'");
  childPid = 0;
  if (got == static_cast<ssize_t>(sizeof execError))
    throw Error("cannot run '" + line.program[0] + "': " + std::strerror(execError));

  std::vector<FileSummary> summaries;
  std::vector<std::string> sessionFiles;
  try {
    sessionFiles = findSessionFiles(options.outputDir, options.session);
  } catch (const Error &e) { // the program has run: its exit code still stands
    std::fprintf(stderr, "roofcheck-run: warning: %s\n", e.what());
  }
  for (const std::string &path : sessionFiles) {
    try {
      summaries.push_back(summarizeMeasuredFile(path));
    } catch (const Error &e) {
      std::fprintf(stderr, "roofcheck-run: warning: %s\n", e.what());
    }
  }
  if (env.injected)
    std::fprintf(stderr, "roofcheck-run: %s\n", summaryLine(summaries).c_str());
  if (line.report.wanted)
    runReport(line.report, summaries);

  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    std::fflush(nullptr);
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    struct rlimit noCore {0, 0}; // the program already dumped its own core, where it was allowed to
    ::setrlimit(RLIMIT_CORE, &noCore);
    ::raise(signal);
    return 128 + signal;
  }
  return ExitBadInput;
}

} // namespace

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck-run", [&] { return run(argc, argv); });
}
