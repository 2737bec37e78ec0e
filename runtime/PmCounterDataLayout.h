// Where a decode writes in a PM sampling counter data image. CUPTI documents the image as opaque; its sizes
// for one, two and maxSamples samples show a header and then a fixed size a sample, and a decode writes the
// header and the samples it began. Making only that part blank again before the next decode, rather than the
// whole image (~32 MB for 10,000 samples), saves ~1.3 us of the decoder's ~9 a sample (H100,
// docs/benchmarks.md); the shim checks the layout once against the whole image (CuptiPmSampling) and makes all
// of it blank where it is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace roofcheck::runtime {

struct PmCounterDataLayout {
  size_t headerBytes = 0;
  size_t sampleBytes = 0; ///< 0: the sizes showed no such layout

  /// From the image's sizes for one, two and maxSamples samples.
  static PmCounterDataLayout fromSizes(size_t oneSample, size_t twoSamples, size_t maxSamples, size_t allSamples);
  bool known() const { return sampleBytes != 0; }
  /// The bytes of an image of imageBytes that a decode which began `samples` samples may have written: the
  /// header, those samples and one more; all of them where the layout is not known.
  size_t writtenBytes(size_t samples, size_t imageBytes) const;
};

/// A blank (initialised) counter data image, kept in the least memory it allows: where the layout is known and
/// every sample's part is the same (as on the H100, bench/pm-decode-cost.cpp), the header and one sample's part,
/// ~5.6 KB where the whole 10,000-sample image is ~32 MB; otherwise all of it.
class PmBlankImage {
public:
  PmBlankImage() = default;
  PmBlankImage(std::vector<uint8_t> blank, PmCounterDataLayout layout);

  size_t size() const { return size_; } ///< of the whole image
  bool compact() const { return repeated_ != 0; }
  /// Makes the first `bytes` of image (size() long) blank.
  void restore(std::vector<uint8_t> &image, size_t bytes) const;
  /// Whether image (size() long) is blank.
  bool matches(const std::vector<uint8_t> &image) const;

private:
  std::vector<uint8_t> bytes_; ///< the whole image, or its header and one sample's part
  size_t headerBytes_ = 0, repeated_ = 0, size_ = 0;
};

} // namespace roofcheck::runtime
