#include "roofcheck/System.h"

#include "roofcheck/Error.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>

#include <unistd.h>

namespace roofcheck {

std::string utcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string executableDirectory() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0)
    throw Error(std::string("cannot find this program's own path (/proc/self/exe): ") + std::strerror(errno));
  path[n] = '\0';
  std::string self(path);
  return self.substr(0, self.find_last_of('/'));
}

} // namespace roofcheck
