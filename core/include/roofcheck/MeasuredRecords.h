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

/// Arguments up to this size are written in every launch record that carries them.
inline constexpr int64_t RecordedArgumentBytes = 64;
/// Larger ones up to this size (by-value structs: CUTLASS's Params, a functor's captures, whose members
/// static formulas name) are written once per distinct value, as an argument record that launches name; a
/// kernel's argument records hold at most ArgumentBytesPerKernel of its arguments' bytes, later values are
/// not recorded (null): PyTorch's multi-tensor metadata, 3-4 KiB of addresses that change from launch to
/// launch, would otherwise grow the file with every step (a 10-step MLP run: 96 values in 13 kernels, 400 KB).
inline constexpr int64_t ArgumentRecordBytes = 4096;
inline constexpr int64_t ArgumentBytesPerKernel = 32768;

/// Lower-case hex, in memory order, of the `size` low bytes of value as a little-endian integer
/// ("0a000000" for 10 and size 4).
std::string littleEndianHex(int64_t value, int64_t size);

/// Appends launch's record, naming kernel, with its newline. Each argument is written at its index: its
/// value where its bytes are that integer (the reader makes the bytes again from the kernel record's
/// size), else its hex bytes; {"argument": id} where argumentRecords (by parameter index) names the
/// argument record that holds them; null where the launch has none or the argument is over
/// RecordedArgumentBytes without a record.
void appendLaunchRecord(std::string &out, int64_t kernel, const Launch &launch,
                        const std::vector<std::optional<int64_t>> &argumentRecords = {});

/// Writes launches as measured/2 records: the shim's one writer, and every test's.
class MeasuredRecordWriter {
public:
  /// Appends launch's record, after its kernel's record where this writer has not written that kernel
  /// yet, and after an argument record for each large argument whose value it has not written yet; each
  /// line ends with '\n'. A kernel is its names, registers, static shared memory and the layout of the
  /// arguments the launch carries (a launch without arguments, as a graph's, matches any).
  void append(std::string &out, const Launch &launch);

private:
  using Layout = std::vector<std::optional<std::pair<int64_t, int64_t>>>; ///< offset, size by index
  struct Kernel {
    int64_t id = 0;
    std::string name;
    int registers = 0;
    int64_t sharedStatic = 0;
    Layout params;
    int64_t argumentBytes = 0; ///< in the argument records written for this kernel's launches
  };
  /// The id of the argument record holding hex, written into out first where it is new and kernel may
  /// have another; nullopt where it may not.
  std::optional<int64_t> argumentRecord(std::string &out, Kernel &kernel, const std::string &hex);

  std::unordered_map<std::string, std::vector<Kernel>> kernels_; ///< by mangled name
  int64_t nextId_ = 0;
  std::unordered_map<std::string, int64_t> arguments_; ///< argument record ids by their bytes in hex
};

} // namespace roofcheck
