#include "PmSampleEvaluator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

using roofcheck::runtime::PmSample;
using roofcheck::runtime::PmSampleEvaluator;

namespace {

// Images whose sample i holds the value image[i]; sample 255 cannot be evaluated.
std::optional<std::map<std::string, double>> valueOf(const std::vector<uint8_t> &image, size_t sample) {
  if (image.at(sample) == 255)
    return std::nullopt;
  return std::map<std::string, double>{{"bytes", double(image[sample])}};
}

std::vector<PmSample> timesFrom(uint64_t start, size_t count) {
  std::vector<PmSample> times;
  for (size_t i = 0; i < count; ++i)
    times.push_back({start + 10 * i, start + 10 * (i + 1), {}});
  return times;
}

} // namespace

TEST(PmSampleEvaluator, ImagesComeBackInOrderWithTheirTimes) {
  PmSampleEvaluator evaluator(valueOf);
  std::vector<uint8_t> first{1, 2, 3}, second{4, 5};
  evaluator.evaluate(first, timesFrom(100, 3));
  evaluator.evaluate(second, timesFrom(130, 2));
  std::vector<PmSample> samples = evaluator.take(/*complete=*/true);
  ASSERT_EQ(samples.size(), 5u);
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(samples[i].start, 100 + 10 * i);
    EXPECT_EQ(samples[i].end, 110 + 10 * i);
    EXPECT_EQ(samples[i].values.at("bytes"), double(i + 1));
  }
  EXPECT_TRUE(evaluator.take(true).empty()); // taken once
}

TEST(PmSampleEvaluator, ASampleThatCannotBeEvaluatedIsLeftOut) {
  PmSampleEvaluator evaluator(valueOf);
  std::vector<uint8_t> image{7, 255, 9};
  evaluator.evaluate(image, timesFrom(0, 3));
  std::vector<PmSample> samples = evaluator.take(true);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].start, 0u);
  EXPECT_EQ(samples[1].start, 20u);
  EXPECT_EQ(samples[1].values.at("bytes"), 9.0);
}

// The decoder must not write an image still being read: release waits for it, and an image's samples are
// evaluated from what it held when handed over.
TEST(PmSampleEvaluator, ReleaseWaitsUntilTheImageIsEvaluated) {
  std::promise<void> entered;
  std::promise<void> proceed;
  std::shared_future<void> proceeding = proceed.get_future().share();
  std::atomic<bool> first{true};
  PmSampleEvaluator evaluator([&](const std::vector<uint8_t> &image, size_t sample) {
    if (first.exchange(false)) {
      entered.set_value();
      proceeding.wait();
    }
    return valueOf(image, sample);
  });
  std::vector<uint8_t> image{3, 4};
  evaluator.evaluate(image, timesFrom(0, 2));
  entered.get_future().wait(); // the evaluator is inside the image

  std::atomic<bool> released{false};
  std::thread decoder([&] {
    evaluator.release(image);
    released = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(released);                        // still being read
  EXPECT_TRUE(evaluator.take(false).empty());    // pipelined: nothing evaluated yet, no wait
  proceed.set_value();
  decoder.join();
  EXPECT_TRUE(released);
  image.assign({0, 0}); // written again only after release
  std::vector<PmSample> samples = evaluator.take(false);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].values.at("bytes"), 3.0);
  EXPECT_EQ(samples[1].values.at("bytes"), 4.0);
}

TEST(PmSampleEvaluator, ReleaseOfAnImageNeverHandedOverReturnsAtOnce) {
  PmSampleEvaluator evaluator(valueOf);
  std::vector<uint8_t> image{1};
  evaluator.release(image);
  EXPECT_TRUE(evaluator.take(true).empty());
}

TEST(PmSampleEvaluator, DestroyedWithImagesWaiting) {
  std::promise<void> entered;
  std::atomic<bool> first{true};
  std::vector<uint8_t> a{1}, b{2};
  {
    PmSampleEvaluator evaluator([&](const std::vector<uint8_t> &image, size_t sample) {
      if (first.exchange(false))
        entered.set_value();
      return valueOf(image, sample);
    });
    evaluator.evaluate(a, timesFrom(0, 1));
    evaluator.evaluate(b, timesFrom(10, 1));
    entered.get_future().wait();
  } // joins without hanging
  SUCCEED();
}
