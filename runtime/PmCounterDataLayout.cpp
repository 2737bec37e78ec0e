#include "PmCounterDataLayout.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace roofcheck::runtime {

PmCounterDataLayout PmCounterDataLayout::fromSizes(size_t oneSample, size_t twoSamples, size_t maxSamples,
                                                   size_t allSamples) {
  if (maxSamples < 2 || twoSamples <= oneSample)
    return {};
  size_t sample = twoSamples - oneSample;
  if (oneSample <= sample || allSamples != oneSample + sample * (maxSamples - 1))
    return {};
  return {oneSample - sample, sample};
}

size_t PmCounterDataLayout::writtenBytes(size_t samples, size_t imageBytes) const {
  if (!known() || imageBytes <= headerBytes || samples >= (imageBytes - headerBytes) / sampleBytes)
    return imageBytes;
  return headerBytes + sampleBytes * (samples + 1);
}

namespace {

// Whether every sample's part of image, after its header, is the `part` bytes at part.
bool everySampleIs(const std::vector<uint8_t> &image, size_t headerBytes, const uint8_t *part, size_t partBytes) {
  for (size_t at = headerBytes; at < image.size(); at += partBytes)
    if (std::memcmp(image.data() + at, part, partBytes) != 0)
      return false;
  return true;
}

} // namespace

PmBlankImage::PmBlankImage(std::vector<uint8_t> blank, PmCounterDataLayout layout)
    : bytes_(std::move(blank)), size_(bytes_.size()) {
  if (!layout.known() || size_ < layout.headerBytes + 2 * layout.sampleBytes ||
      (size_ - layout.headerBytes) % layout.sampleBytes != 0 ||
      !everySampleIs(bytes_, layout.headerBytes, bytes_.data() + layout.headerBytes, layout.sampleBytes))
    return; // fewer than two samples (nothing to save), not this layout, or samples' parts that differ
  headerBytes_ = layout.headerBytes;
  repeated_ = layout.sampleBytes;
  bytes_.resize(headerBytes_ + repeated_);
  bytes_.shrink_to_fit();
}

void PmBlankImage::restore(std::vector<uint8_t> &image, size_t bytes) const {
  bytes = std::min(bytes, size_);
  if (!compact()) {
    std::copy(bytes_.begin(), bytes_.begin() + bytes, image.begin());
    return;
  }
  std::copy(bytes_.begin(), bytes_.begin() + std::min(bytes, headerBytes_), image.begin());
  for (size_t at = headerBytes_; at < bytes; at += repeated_)
    std::copy(bytes_.begin() + headerBytes_, bytes_.begin() + headerBytes_ + std::min(repeated_, bytes - at),
              image.begin() + at);
}

bool PmBlankImage::matches(const std::vector<uint8_t> &image) const {
  if (image.size() != size_)
    return false;
  if (!compact())
    return std::equal(bytes_.begin(), bytes_.end(), image.begin());
  return std::equal(bytes_.begin(), bytes_.begin() + headerBytes_, image.begin()) &&
         everySampleIs(image, headerBytes_, bytes_.data() + headerBytes_, repeated_);
}

} // namespace roofcheck::runtime
