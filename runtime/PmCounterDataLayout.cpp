#include "PmCounterDataLayout.h"

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

} // namespace roofcheck::runtime
