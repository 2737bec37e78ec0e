// Helpers shared by the unit tests.
#pragma once

#include "roofcheck/Error.h"

#include <filesystem>
#include <functional>
#include <iterator>
#include <string>

#include <stdlib.h>

namespace roofcheck::testing {

/// The message of the roofcheck::Error that f throws, or "(no error)".
inline std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

/// A fresh directory under /tmp, removed with everything in it at the end of the test.
class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/roofcheck-test-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string &name) const { return (std::filesystem::path(path_) / name).string(); }
  size_t entries() const {
    return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(path_), {}));
  }

private:
  std::string path_;
};

} // namespace roofcheck::testing
