// The quick way through a launch record of a measured file: read straight into a Launch by a scanner made
// for the record's shape, without building a JSON document (a long run has millions of records; the
// document costs twice the reading, a general SAX lexer most of the rest). It takes only records that
// launchFromCompact would take unchanged and gives up on anything else
// (another record kind, an unexpected type or value, a missing or repeated field), which then goes through
// launchFromCompact, the one that says what is wrong. LaunchFastPathTest checks the two agree.
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string_view>
#include <vector>

namespace roofcheck {

/// A launch's argument whose bytes are in an argument record: the parameter's index, the record's id.
struct ArgumentReference {
  int index = 0;
  int64_t record = 0;
  bool operator==(const ArgumentReference &) const = default;
};

/// The launch of a well-formed measured/2 launch record line, with the id of the kernel it names in
/// `kernel` and its arguments left to argument records in `references` (the kernel's own fields, each
/// argument's place and those arguments stay out of the launch); nullopt for any other line.
std::optional<Launch> parseLaunchQuickly(std::string_view line, int64_t &kernel,
                                         std::vector<ArgumentReference> &references);

} // namespace roofcheck
