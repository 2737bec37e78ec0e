// Small facts about the running process that several roofcheck programs record or need.
#pragma once

#include <string>

namespace roofcheck {

/// The current time as ISO 8601 in UTC, to the second ("2026-11-30T02:00:00Z"), as documents record it.
std::string utcTimestamp();

/// The directory of the running executable (from /proc/self/exe; "." if it cannot be read): the driver
/// finds its subcommands there, the launcher the injection library beside it.
std::string executableDirectory();

} // namespace roofcheck
