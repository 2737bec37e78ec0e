// roofcheck: a thin git-style driver. `roofcheck SUB ARGS...` replaces itself with `roofcheck-SUB ARGS...`
// found in its own directory, so signals, standard streams and the exit code pass straight through.
#include "roofcheck/ExitCode.h"
#include "roofcheck/System.h"
#include "roofcheck/Version.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace {

struct Subcommand {
  const char *name;
  const char *summary;
  const char *buildOption; ///< the CMake option that builds it
  bool hugePages = false;  ///< its heap asks for transparent huge pages (askForHugePages)
};

constexpr Subcommand subcommands[] = {
    {"lint", "estimate ideal FLOPs and bytes of every kernel from CUDA source; check access patterns and claims",
     "ROOFCHECK_WITH_CLANG", true},
    {"run", "run an unmodified program under the CUPTI shim and measure each kernel launch", "ROOFCHECK_WITH_CUDA"},
    {"probe", "measure this GPU's memory and compute ceilings", "ROOFCHECK_WITH_CUDA"},
    {"report", "join static, measured and ceilings files into a roofline with every gap explained", ""},
    {"audit", "check the intensity claims in kernel sources against the estimate and measurements", ""},
};

/// lint's front end builds the AST of a large CUDA file (a CUTLASS example: 2 GB) out of small allocations,
/// and takes a page fault for every 4 KiB of it; glibc's malloc (2.35 and later) backs its heap with
/// transparent huge pages when the tunable glibc.malloc.hugetlb=1 asks for them, where the kernel gives
/// them only to those who ask (THP "madvise", the common default): 20x fewer page faults and about 15% less
/// time on such a file (docs/benchmarks.md). A setting of the user's own for it wins. Not for `run`: its
/// environment is the user's program's.
void askForHugePages() {
  const char *current = std::getenv("GLIBC_TUNABLES");
  std::string tunables = current ? current : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos)
    return;
  tunables += tunables.empty() ? "glibc.malloc.hugetlb=1" : ":glibc.malloc.hugetlb=1";
  ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
}

void printHelp(FILE *out) {
  std::fprintf(out,
               "usage: roofcheck <command> [options...]\n"
               "       roofcheck --help | --version\n\n"
               "Puts every CUDA kernel on an honest roofline.\n\ncommands:\n");
  for (const Subcommand &s : subcommands)
    std::fprintf(out, "  %-8s %s\n", s.name, s.summary);
  std::fprintf(out, "\n`roofcheck <command> --help` shows the options of a command.\n");
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

int main(int argc, char **argv) {
  return roofcheck::runGuarded("roofcheck", [&]() -> int {
    if (argc < 2) {
      printHelp(stderr);
      return roofcheck::ExitBadInput;
    }
    std::string_view command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
      printHelp(stdout);
      return roofcheck::ExitSuccess;
    }
    if (command == "--version") {
      std::printf("roofcheck %s (%s)\n", roofcheck::Version, roofcheck::GitRevision);
      return roofcheck::ExitSuccess;
    }
    const Subcommand *found = nullptr;
    for (const Subcommand &s : subcommands)
      if (command == s.name)
        found = &s;
    if (!found) {
      const Subcommand *closest = nullptr;
      size_t best = 3; // suggest only near misses
      for (const Subcommand &s : subcommands) {
        size_t d = editDistance(command, s.name);
        if (d < best) {
          best = d;
          closest = &s;
        }
      }
      std::string hint = closest ? std::string("; did you mean '") + closest->name + "'?" : "";
      std::fprintf(stderr, "roofcheck: error: unknown command '%s'%s (see 'roofcheck --help')\n",
                   std::string(command).c_str(), hint.c_str());
      return roofcheck::ExitBadInput;
    }
    std::string program = roofcheck::executableDirectory() + "/roofcheck-" + found->name;
    if (::access(program.c_str(), X_OK) != 0) {
      std::string fix = *found->buildOption ? std::string(" (build with -D") + found->buildOption + "=ON)" : "";
      std::fprintf(stderr, "roofcheck: error: '%s' is not part of this build: %s is missing%s\n", found->name,
                   program.c_str(), fix.c_str());
      return roofcheck::ExitBadInput;
    }
    if (found->hugePages)
      askForHugePages();
    std::vector<char *> args;
    args.push_back(program.data());
    for (int i = 2; i < argc; ++i)
      args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(program.c_str(), args.data());
    std::fprintf(stderr, "roofcheck: error: cannot run %s: %s\n", program.c_str(), std::strerror(errno));
    return roofcheck::ExitBadInput;
  });
}
