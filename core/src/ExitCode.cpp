#include "roofcheck/ExitCode.h"

#include "roofcheck/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

namespace roofcheck {

int runGuarded(const char *tool, const std::function<int()> &body) {
  try {
    int status = body();
    // Output that did not reach its file (a full disk, a closed pipe) is a failed run, not a truncated
    // success.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "%s: error: cannot write the output: %s\n", tool, std::strerror(errno));
      return ExitBadInput;
    }
    return status;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s: error: %s\n", tool, e.what());
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "%s: error: out of memory\n", tool);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: error: %s\n", tool, e.what());
  }
  return ExitBadInput;
}

} // namespace roofcheck
