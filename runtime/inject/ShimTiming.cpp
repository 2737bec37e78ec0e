#include "ShimTiming.h"

#include <cstdio>

namespace roofcheck::runtime {

std::string ShimTiming::summary() const {
  static const char *const names[PhaseCount] = {"initialize",    "describe",       "configure",    "launch-skipped",
                                                "launch-kept",   "launch-exit",    "match",        "serialise",
                                                "write",         "finish-flush",   "finish-drain", "finish-write",
                                                "profile-begin", "profile-replay", "profile-end",  "profile-flush"};
  std::string text;
  for (int p = 0; p < PhaseCount; ++p) {
    int64_t calls = count_[p].load();
    if (calls == 0)
      continue;
    double ms = total_[p].load() / 1e6;
    char item[128];
    std::snprintf(item, sizeof item, "%s%s %lldx %.3f ms (%.2f us each)", text.empty() ? "" : ", ", names[p],
                  static_cast<long long>(calls), ms, ms * 1000 / calls);
    text += item;
  }
  return text;
}

} // namespace roofcheck::runtime
