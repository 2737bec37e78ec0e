// The fields of roofcheck.measured/2's kernel, argument and launch records, each named once: the writer
// (MeasuredRecords.cpp) writes them in this order, launchFrom and the quick reader (LaunchFastPath.cpp)
// find them by these names, and docs/schemas/measured.schema.json lists the same.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace roofcheck::measured {

enum class KernelField { Record, Id, Name, Mangled, Registers, SharedStatic, Params };
inline constexpr std::array<std::string_view, 7> KernelFieldNames = {
    "record", "id", "name", "mangled", "registers", "shared_static", "params"};

/// A launch record leaves out a field that holds its default (Optional below): most launches have no
/// cluster, dynamic shared memory, NVTX range or counters, and a launch record stays near 150 bytes.
enum class LaunchField {
  Record, Index, Kernel, Device, Context, Stream, Grid, Block, // required
  Cluster, SharedDynamic, Args, Nvtx, DurationNs, Profiled, ReplayPasses, Metrics, Sampled, SampledShared, // optional
};
inline constexpr std::array<std::string_view, 18> LaunchFieldNames = {
    "record",  "index",          "kernel", "device", "context",     "stream",   "grid",          "block",
    "cluster", "shared_dynamic", "args",   "nvtx",   "duration_ns", "profiled", "replay_passes", "metrics",
    "sampled", "sampled_shared"};
inline constexpr LaunchField FirstOptionalLaunchField = LaunchField::Cluster;

/// An argument too large to write in every launch record: its bytes once, in hex, under an id that the
/// launches carrying that value name as {"argument": id} at the argument's index.
enum class ArgumentField { Record, Id, Bytes };
inline constexpr std::array<std::string_view, 3> ArgumentFieldNames = {"record", "id", "bytes"};

inline constexpr std::string_view nameOf(KernelField f) { return KernelFieldNames[static_cast<size_t>(f)]; }
inline constexpr std::string_view nameOf(LaunchField f) { return LaunchFieldNames[static_cast<size_t>(f)]; }
inline constexpr std::string_view nameOf(ArgumentField f) { return ArgumentFieldNames[static_cast<size_t>(f)]; }

template <typename Field, size_t N>
std::optional<Field> fieldNamed(const std::array<std::string_view, N> &names, std::string_view key) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == key)
      return static_cast<Field>(i);
  return std::nullopt;
}

inline constexpr std::string_view KernelRecord = "kernel";
inline constexpr std::string_view LaunchRecord = "launch";
inline constexpr std::string_view ArgumentRecord = "argument";
/// The one key of a launch's reference to an argument record.
inline constexpr std::string_view ArgumentReferenceKey = "argument";

} // namespace roofcheck::measured
