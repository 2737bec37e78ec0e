// The readers of the four documents: any JSON gives a document or a roofcheck::Error naming the field,
// never another exception or a crash. FUZZ_DOCUMENT selects the reader (one binary per document).
#include "roofcheck/Contracts.h"

#include <cstdint>
#include <string>

using namespace roofcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  try {
#if FUZZ_DOCUMENT == 1
    parseMeasuredLines(text, "fuzz.jsonl");
#else
    Json json;
    try {
      json = Json::parse(text);
    } catch (const Json::exception &) {
      return 0; // not JSON (or a number no double holds): readJsonFile turns that into an Error
    }
#if FUZZ_DOCUMENT == 0
    toJson(staticFromJson(json, "fuzz.json")).dump();
#elif FUZZ_DOCUMENT == 2
    toJson(ceilingsFromJson(json, "fuzz.json")).dump();
#else
    toJson(reportFromJson(json, "fuzz.json")).dump();
#endif
#endif
  } catch (const Error &) {
  }
  return 0;
}
