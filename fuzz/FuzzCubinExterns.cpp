// The shim's cubin reader (which kernels of a loaded module call vprintf), on arbitrary bytes: a module the
// driver hands over is read inside the program's process, so no input may make it read outside the bytes,
// and every kernel it names is the tail of a section name within them.
#include "CubinExterns.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> kernels = roofcheck::runtime::kernelsCalling(data, size, "vprintf");
  for (const std::string &kernel : kernels)
    if (kernel.size() >= size)
      std::abort();
  return 0;
}
