#include "roofcheck/ExitCode.h"

#include "roofcheck/Error.h"

#include <cstdio>
#include <exception>
#include <new>

namespace roofcheck {

int runGuarded(const char *tool, const std::function<int()> &body) {
  try {
    return body();
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
