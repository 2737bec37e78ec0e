// Loading the documents given on the command line. Each file says what it is through its "schema"
// field, so inputs can come in any order: static (one or more), measured JSON Lines (one or more, one
// per process), ceilings (one per device: the ranks of a job on several GPUs each get their device's).
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

struct StaticInput {
  std::string path;
  StaticDocument document;
};

/// A measured file's header; its launches are read by the engine, streamed (MeasuredReader).
struct MeasuredInput {
  std::string path;
  MeasuredHeader header;
};

/// One device: the same UUID, or the same name where either lacks a UUID.
bool sameDevice(const DeviceInfo &a, const DeviceInfo &b);
/// "NVIDIA H200 GPU-5f2a...", as messages name a device.
std::string describeDevice(const DeviceInfo &device);

struct CeilingsInput {
  std::string path;
  CeilingsDocument document;
};

struct Inputs {
  std::vector<std::string> paths; ///< as given, in order
  std::vector<StaticInput> statics;
  std::vector<MeasuredInput> measured;
  std::vector<CeilingsInput> ceilings; ///< at most one per device
  /// The ceilings measured on this device (same UUID; same name where either lacks one), or nullptr.
  const CeilingsInput *ceilingsOf(const DeviceInfo &device) const;
  std::vector<std::string> warnings; ///< the rest is usable: printed, not fatal
};

/// A file from the command line, with the schema its option promised ("" for a plain argument).
struct InputPath {
  std::string path;
  std::string expectedSchema;
};

/// Reads every file; a file that is not one of the three input documents, is not the one its option
/// promised, or is malformed, throws an Error naming the file and what is wrong.
Inputs loadInputs(const std::vector<InputPath> &paths);

} // namespace roofcheck::report
