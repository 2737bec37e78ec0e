// The records of a roofcheck.measured/2 file after its header: a kernel record the first time a kernel
// appears (its names, registers, static shared memory and parameter layout, which never change between
// its launches), then one launch record per launch that refers to it by id and carries only what a launch
// decides. PyTorch's demangled names run to thousands of characters; written once, not per launch.
#pragma once

#include "roofcheck/Contracts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace roofcheck {

/// Arguments larger than this are recorded by their place only (null): no static formula binds a
/// by-value struct, and PyTorch's multi-tensor metadata (about 4 KiB a launch) would be most of the file.
inline constexpr int64_t RecordedArgumentBytes = 64;

/// Lower-case hex, in memory order, of the `size` low bytes of value as a little-endian integer
/// ("0a000000" for 10 and size 4).
std::string littleEndianHex(int64_t value, int64_t size);

/// Appends launch's record, naming kernel, with its newline. Each argument is written at its index: its
/// value where its bytes are that integer (the reader makes the bytes again from the kernel record's
/// size), else its hex bytes; null where the launch has none or the argument is over RecordedArgumentBytes.
void appendLaunchRecord(std::string &out, int64_t kernel, const Launch &launch);

/// Writes launches as measured/2 records: the shim's one writer, and every test's.
class MeasuredRecordWriter {
public:
  /// Appends launch's record, after its kernel's record where this writer has not written that kernel
  /// yet; each line ends with '\n'. A kernel is its names, registers, static shared memory and the
  /// layout of the arguments the launch carries (a launch without arguments, as a graph's, matches any).
  void append(std::string &out, const Launch &launch);

private:
  using Layout = std::vector<std::optional<std::pair<int64_t, int64_t>>>; ///< offset, size by index
  struct Kernel {
    int64_t id = 0;
    std::string name;
    int registers = 0;
    int64_t sharedStatic = 0;
    Layout params;
  };
  std::unordered_map<std::string, std::vector<Kernel>> kernels_; ///< by mangled name
  int64_t nextId_ = 0;
};

} // namespace roofcheck
