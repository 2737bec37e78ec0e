// Which kernels of a loaded module call an external device function, read from the module's cubin (ELF):
// each kernel's `.nv.info.<kernel>` section lists, in its EIATTR_EXTERNS attribute, the symbol table indices
// of the external functions its code calls. A kernel that calls `vprintf` (device printf) prints once per
// run of it, and kernel replay runs a profiled launch once per pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofcheck::runtime {

/// The (mangled) names of the kernels in cubin whose externs include external. Empty where cubin is no
/// ELF64 or is cut short: a module not understood is a module whose kernels are not known to call it.
std::vector<std::string> kernelsCalling(const uint8_t *cubin, size_t size, std::string_view external);

} // namespace roofcheck::runtime
