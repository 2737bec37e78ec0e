#include "PmSampleEvaluator.h"

#include "SignalFlush.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace roofcheck::runtime {

PmSampleEvaluator::PmSampleEvaluator(Evaluate evaluate)
    : evaluate_(std::move(evaluate)), thread_(&PmSampleEvaluator::run, this) {}

PmSampleEvaluator::~PmSampleEvaluator() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void PmSampleEvaluator::evaluate(const std::vector<uint8_t> &image, std::vector<PmSample> times) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    images_.push_back({&image, std::move(times)});
  }
  changed_.notify_all();
}

bool PmSampleEvaluator::queued(const std::vector<uint8_t> &image) const {
  return std::any_of(images_.begin(), images_.end(), [&](const Image &i) { return i.data == &image; });
}

void PmSampleEvaluator::release(const std::vector<uint8_t> &image) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !queued(image); });
}

std::vector<PmSample> PmSampleEvaluator::take(bool complete) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (complete)
    changed_.wait(lock, [&] { return images_.empty(); });
  return std::exchange(evaluated_, {});
}

void PmSampleEvaluator::run() {
  blockFlushedSignalsOnThisThread();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || !images_.empty(); });
    if (quit_)
      return;
    // The first image stays queued while it is evaluated, so that release waits for it; only this thread
    // pops, so the reference stays valid with the lock let go.
    Image &image = images_.front();
    lock.unlock();
    std::vector<PmSample> samples;
    samples.reserve(image.samples.size());
    for (size_t i = 0; i < image.samples.size(); ++i)
      if (std::optional<std::map<std::string, double>> values = evaluate_(*image.data, i))
        samples.push_back({image.samples[i].start, image.samples[i].end, std::move(*values)});
    lock.lock();
    evaluated_.insert(evaluated_.end(), std::make_move_iterator(samples.begin()),
                      std::make_move_iterator(samples.end()));
    images_.pop_front();
    changed_.notify_all();
  }
}

} // namespace roofcheck::runtime
