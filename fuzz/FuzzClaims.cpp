// Claim comments: finding and parsing them never crashes; errors are ClaimErrors with a location.
#include "roofcheck/Claims.h"

#include <cstdint>
#include <string_view>

using namespace roofcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  for (const ClaimSource &source : findClaimComments(text, "fuzz.cu")) {
    try {
      parseClaims(source.text, source);
    } catch (const ClaimError &) {
    }
  }
  try {
    parseClaims(text, {"", "fuzz.cu", 1, 1});
  } catch (const ClaimError &) {
  }
  return 0;
}
