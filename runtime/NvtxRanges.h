// The NVTX ranges open at a launch. Push/pop ranges belong to their thread; start/end ranges belong to the
// process and are ended by id from any thread. A launch lists both kinds in the order they started,
// outermost first. One per process: the push/pop stacks are the threads' own.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofcheck::runtime {

class NvtxRanges {
public:
  void push(const char *message);
  void pop();
  void start(uint64_t id, const char *message); ///< id 0 (no id to end it by) is passed over
  void end(uint64_t id);
  /// The calling thread's pushed ranges and every started one, in start order. Without started ranges open
  /// it takes no lock: every launch asks.
  std::vector<std::string> open();

private:
  struct Range {
    uint64_t order = 0;
    std::string message;
  };
  std::atomic<uint64_t> order_{0};
  std::atomic<int> startedOpen_{0};
  std::mutex mutex_; // started_
  std::unordered_map<uint64_t, Range> started_;
};

} // namespace roofcheck::runtime
