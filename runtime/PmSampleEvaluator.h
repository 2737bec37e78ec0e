// PM sampling's decoded counter data images evaluated into samples on a thread of their own. Decoding
// (cuptiPmSamplingDecodeData, ~5 us a sample) and evaluating (cuptiProfilerHostEvaluateToGpuValues, ~2 us)
// took ~8 us of one thread a sample on the H100 against samples every 10 us (docs/benchmarks.md), so that the
// decoder fell behind whenever the program took the CPU: with two images, one is evaluated here while the
// next is decoded into the other.
#pragma once

#include "PmAttribution.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace roofcheck::runtime {

class PmSampleEvaluator {
public:
  /// The values of one sample (by index) of a decoded image; nullopt where it cannot be evaluated (the sample
  /// is then left out).
  using Evaluate =
      std::function<std::optional<std::map<std::string, double>>(const std::vector<uint8_t> &image, size_t sample)>;

  explicit PmSampleEvaluator(Evaluate evaluate);
  /// Images still waiting are not evaluated.
  ~PmSampleEvaluator();
  PmSampleEvaluator(const PmSampleEvaluator &) = delete;
  PmSampleEvaluator &operator=(const PmSampleEvaluator &) = delete;

  /// image's samples evaluated, their GPU start and end times given in order (sample i is times[i]); image
  /// is read until release(image) returns.
  void evaluate(const std::vector<uint8_t> &image, std::vector<PmSample> times);
  /// Waits until image is evaluated, so that it can be written again.
  void release(const std::vector<uint8_t> &image);
  /// The samples evaluated so far, oldest first; where complete, every image handed over is waited for.
  std::vector<PmSample> take(bool complete);

private:
  struct Image {
    const std::vector<uint8_t> *data;
    std::vector<PmSample> samples; ///< their times; the values come from evaluate_
  };
  void run();
  bool queued(const std::vector<uint8_t> &image) const; ///< mutex_ held

  Evaluate evaluate_;
  std::mutex mutex_; // everything below
  std::condition_variable changed_;
  std::deque<Image> images_; ///< handed over, oldest first; the first is being evaluated
  std::vector<PmSample> evaluated_;
  bool quit_ = false;
  std::thread thread_; // last: started once the members above exist
};

} // namespace roofcheck::runtime
