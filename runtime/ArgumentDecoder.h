// Kernel arguments as the report needs them: the raw bytes of each parameter (offset and size from the
// driver's parameter info) in hex, and the integer they hold, so static formulas over scalar parameters
// can be evaluated for exactly the launch that ran. Pointers keep their bytes but get no value.
#pragma once

#include "roofcheck/Contracts.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// Where one parameter lives in the device-side parameter layout (cuFuncGetParamInfo).
struct ParamLayout {
  int64_t offset = 0;
  int64_t size = 0;
};

/// What is known about a parameter's type; only the driver can tell a pointer from an integer.
enum class ParamKind { Unknown, Scalar, Pointer };

/// Lower-case hex of bytes in memory order ("0a000000" for the int 10).
std::string hexBytes(const uint8_t *bytes, size_t size);

/// The bytes as a little-endian signed integer for sizes 1, 2, 4 and 8; nullopt for other sizes.
std::optional<int64_t> littleEndianValue(const uint8_t *bytes, size_t size);

/// One argument from its bytes. A Pointer gets no value (its bytes stay in hex).
KernelArgument decodeArgument(int index, const ParamLayout &layout, const uint8_t *bytes, ParamKind kind);

/// cuLaunchKernel's kernelParams (values[i] points at parameter i's bytes) packed as the parameter buffer
/// lays them out, each at its offset: the launch callback copies the values once, decoding them waits for
/// the shim's handler thread. A null value (the driver would fault on it) stays zeros; no values, no bytes.
std::vector<uint8_t> packArguments(const std::vector<ParamLayout> &layouts, const void *const *values);

/// Arguments packed in one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER, or packArguments): each at its layout
/// offset. Parameters that do not fit in the buffer are left out.
std::vector<KernelArgument> decodeArgumentBuffer(const std::vector<ParamLayout> &layouts, const uint8_t *buffer,
                                                 size_t bufferSize, const std::vector<ParamKind> &kinds);

} // namespace roofcheck::runtime
